import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The client captures `fetch` when it is created, so the stub must exist before it is imported.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<(input: Request) => Promise<Response>>();
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

import { createQueryClient } from '../query-client';
import { useSessionStore } from '../session-store';
import { forgetSignedOut, wasSignedOut } from '../signed-out-mark';
import { signIn, signOut, signOutEverywhere } from './auth';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const pathOf = (input: Request) => new URL(input.url).pathname;

function cachedClient() {
  const client = createQueryClient({ retry: false });
  client.setQueryData(['projects', 'list'], [{ id: 'p1' }]);
  return client;
}

beforeEach(() => {
  fetchMock.mockReset();
  useSessionStore.getState().signedIn({ access_token: 'lk_at_1', refresh_token: 'lk_rt_1' });
});

afterEach(() => {
  useSessionStore.getState().signedOut('never-signed-in');
  forgetSignedOut();
});

describe('signIn', () => {
  it('keeps the tokens in memory', async () => {
    useSessionStore.getState().signedOut('never-signed-in');
    fetchMock.mockImplementation(async () =>
      json(200, {
        access_token: 'lk_at_new',
        refresh_token: 'lk_rt_new',
        token_type: 'Bearer',
        expires_in_seconds: 900,
      }),
    );
    await signOut(createQueryClient({ retry: false }));
    expect(wasSignedOut()).toBe(true);
    fetchMock.mockClear();
    await signIn({ email: 'a@b.c', password: 'pw' }, cachedClient());
    expect(wasSignedOut()).toBe(false);
    const state = useSessionStore.getState();
    expect(state.status).toBe('signed-in');
    expect(state.accessToken).toBe('lk_at_new');
    const request = fetchMock.mock.calls[0]?.[0];
    expect(request && pathOf(request)).toBe('/api/auth/login');
  });

  it('throws the service failure and stays signed out', async () => {
    useSessionStore.getState().signedOut('never-signed-in');
    fetchMock.mockResolvedValue(
      json(401, { error: 'email or password is incorrect', code: 'unauthorized', next: 'Check.' }),
    );
    await expect(signIn({ email: 'a@b.c', password: 'no' }, cachedClient())).rejects.toMatchObject({
      status: 401,
      code: 'unauthorized',
    });
    expect(useSessionStore.getState().status).toBe('signed-out');
  });
});

describe('signOut', () => {
  it('revokes the refresh token, clears the cookie, then forgets everything locally', async () => {
    fetchMock.mockImplementation(async (input) =>
      pathOf(input) === '/api/auth/logout'
        ? json(200, { revoked: true, next_action: { code: 'clear_local_session' } })
        : new Response(null, { status: 204 }),
    );
    const client = cachedClient();
    await signOut(client);
    const calls = fetchMock.mock.calls.map(([r]) => pathOf(r));
    expect(calls).toEqual(['/api/auth/logout', '/api/auth/web/logout']);
    const logoutBody = (await fetchMock.mock.calls[0]?.[0].json()) as unknown;
    expect(logoutBody).toEqual({ refresh_token: 'lk_rt_1' });
    expect(useSessionStore.getState()).toMatchObject({
      status: 'signed-out',
      signedOutReason: 'signed-out',
      accessToken: null,
      refreshToken: null,
    });
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });

  it('clears local credentials and the cache even when the service cannot be reached', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const client = cachedClient();
    await signOut(client);
    expect(useSessionStore.getState().status).toBe('signed-out');
    expect(useSessionStore.getState().accessToken).toBeNull();
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });

  it('clears local credentials when the refresh token is refused', async () => {
    fetchMock.mockImplementation(async (input) =>
      pathOf(input) === '/api/auth/logout'
        ? json(401, {
            error: 'x',
            code: 'unauthorized',
            next_action: { code: 'authorize_request' },
          })
        : json(500, { error: 'Internal error', code: 'internal_error' }),
    );
    await signOut(cachedClient());
    expect(useSessionStore.getState().status).toBe('signed-out');
  });
});

describe('signOutEverywhere', () => {
  it('reports the confirmed revocation time', async () => {
    fetchMock.mockResolvedValue(
      json(200, {
        revoked: true,
        revoked_before: '2025-05-04T12:00:00.123Z',
        next_action: { code: 'clear_local_session', target: 'local_credentials' },
      }),
    );
    const client = cachedClient();
    await expect(signOutEverywhere(client)).resolves.toEqual({
      confirmed: true,
      revokedBefore: '2025-05-04T12:00:00.123Z',
    });
    expect(useSessionStore.getState().status).toBe('signed-out');
    expect(client.getQueryCache().getAll()).toHaveLength(0);
    expect(fetchMock.mock.calls.map(([r]) => pathOf(r))).toEqual(['/api/auth/logout-all']);
  });

  it('does not claim anything when the response was lost, and still signs this browser out', async () => {
    fetchMock.mockImplementation(async (input) => {
      if (pathOf(input) === '/api/auth/logout-all') throw new TypeError('Failed to fetch');
      return new Response(null, { status: 204 });
    });
    const client = cachedClient();
    await expect(signOutEverywhere(client)).resolves.toEqual({ confirmed: false });
    expect(useSessionStore.getState().status).toBe('signed-out');
    expect(useSessionStore.getState().refreshToken).toBeNull();
    expect(client.getQueryCache().getAll()).toHaveLength(0);
    // This browser's own sign-in is ended with the service too (best effort).
    expect(fetchMock.mock.calls.map(([r]) => pathOf(r))).toContain('/api/auth/web/logout');
  });

  it('treats a 5xx as unconfirmed', async () => {
    fetchMock.mockImplementation(async (input) =>
      pathOf(input) === '/api/auth/logout-all'
        ? json(503, { error: 'x', code: 'service_unavailable' })
        : new Response(null, { status: 204 }),
    );
    await expect(signOutEverywhere(cachedClient())).resolves.toEqual({ confirmed: false });
    expect(useSessionStore.getState().status).toBe('signed-out');
  });
});
