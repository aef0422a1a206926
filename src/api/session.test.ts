import { isRedirect } from '@tanstack/react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from './query-client';

const refreshSession = vi.hoisted(() => vi.fn<() => Promise<boolean>>());
vi.mock('./client', () => ({ refreshSession }));

import { ensureSession, watchSessionEnd } from './session';
import { useSessionStore } from './session-store';
import { forgetSignedOut, rememberSignedOut } from './signed-out-mark';

const unknown = () =>
  useSessionStore.setState({
    status: 'unknown',
    accessToken: null,
    refreshToken: null,
    signedOutReason: null,
  });

async function redirectOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (thrown) {
    if (isRedirect(thrown)) return thrown.options;
    throw thrown;
  }
  return null;
}

beforeEach(() => {
  refreshSession.mockReset();
  forgetSignedOut();
  unknown();
});

afterEach(() => forgetSignedOut());

describe('ensureSession', () => {
  it('restores the sign-in from the session cookie on the first page', async () => {
    refreshSession.mockImplementation(async () => {
      useSessionStore.getState().signedIn({ access_token: 'a', refresh_token: 'r' });
      return true;
    });
    await expect(ensureSession({ href: '/projects' })).resolves.toBeUndefined();
    expect(refreshSession).toHaveBeenCalledTimes(1);
  });

  it('redirects to sign-in with the page to come back to', async () => {
    refreshSession.mockResolvedValue(false);
    const options = await redirectOf(ensureSession({ href: '/projects?since=7d' }));
    expect(options).toMatchObject({ to: '/sign-in', search: { redirect: '/projects?since=7d' } });
    expect(useSessionStore.getState().status).toBe('signed-out');
  });

  it('reads the store once the status is known', async () => {
    useSessionStore.getState().signedIn({ access_token: 'a', refresh_token: 'r' });
    await ensureSession({ href: '/projects' });
    useSessionStore.getState().signedOut('expired');
    const options = await redirectOf(ensureSession({ href: '/projects' }));
    expect(options).toMatchObject({ search: { redirect: '/projects', reason: 'expired' } });
    expect(refreshSession).not.toHaveBeenCalled();
  });

  it('does not use the cookie after a deliberate sign-out in this browser', async () => {
    rememberSignedOut();
    refreshSession.mockResolvedValue(true);
    const options = await redirectOf(ensureSession({ href: '/projects' }));
    expect(options).toMatchObject({ to: '/sign-in' });
    expect(refreshSession).not.toHaveBeenCalled();
  });
});

describe('watchSessionEnd', () => {
  it('navigates away, then clears the cache, when a sign-in ends on its own', async () => {
    const client = createQueryClient({ retry: false });
    client.setQueryData(['projects', 'list'], []);
    const order: string[] = [];
    const onExpired = vi.fn(async () => {
      order.push(`navigate (cache size ${client.getQueryCache().getAll().length})`);
    });
    const stop = watchSessionEnd(client, onExpired);
    useSessionStore.getState().signedIn({ access_token: 'a', refresh_token: 'r' });
    useSessionStore.getState().signedOut('expired');
    await vi.waitFor(() => expect(client.getQueryCache().getAll()).toHaveLength(0));
    expect(order).toEqual(['navigate (cache size 1)']);
    stop();
  });

  it('ignores a deliberate sign-out and a first visit without a sign-in', async () => {
    const client = createQueryClient({ retry: false });
    const onExpired = vi.fn();
    const stop = watchSessionEnd(client, onExpired);
    useSessionStore.getState().signedOut('never-signed-in');
    useSessionStore.getState().signedIn({ access_token: 'a', refresh_token: 'r' });
    useSessionStore.getState().signedOut('signed-out');
    // A stray 401 after a deliberate sign-out does not count as an expiry.
    useSessionStore.getState().signedOut('expired');
    await Promise.resolve();
    expect(onExpired).not.toHaveBeenCalled();
    stop();
  });
});
