import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, createAuthFetch } from './client';
import { ApiError } from './errors';
import { useSessionStore } from './session-store';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

afterEach(() => useSessionStore.getState().signedOut('never-signed-in'));

describe('createAuthFetch', () => {
  it('sends the in-memory access token as a bearer, never in the URL', async () => {
    useSessionStore.getState().signedIn({ access_token: 'lk_at_a', refresh_token: 'lk_rt_a' });
    const seen: Request[] = [];
    const f = createAuthFetch(async (input) => {
      seen.push(input as Request);
      return json(200, []);
    });
    await f(new Request('http://x/api/projects'));
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer lk_at_a');
    expect(seen[0]?.url).not.toContain('lk_at_a');
  });

  it('refreshes once on 401 and re-sends with the new token', async () => {
    useSessionStore.getState().signedIn({ access_token: 'old', refresh_token: 'lk_rt_old' });
    const base = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith('/api/auth/refresh')) {
        expect(JSON.parse(String(init?.body))).toEqual({ refresh_token: 'lk_rt_old' });
        return json(200, { access_token: 'new', refresh_token: 'lk_rt_new' });
      }
      const auth = (input as Request).headers.get('authorization');
      return auth === 'Bearer new'
        ? json(200, ['ok'])
        : json(401, { error: 'x', code: 'unauthorized' });
    });
    const res = await createAuthFetch(base as typeof fetch)(new Request('http://x/api/projects'));
    expect(res.status).toBe(200);
    expect(useSessionStore.getState().refreshToken).toBe('lk_rt_new');
  });

  it('marks the session expired when the refresh is refused', async () => {
    useSessionStore.getState().signedIn({ access_token: 'old', refresh_token: 'lk_rt_old' });
    const base = async () => json(401, { error: 'x', code: 'unauthorized' });
    const res = await createAuthFetch(base as typeof fetch)(new Request('http://x/api/projects'));
    expect(res.status).toBe(401);
    expect(useSessionStore.getState().status).toBe('signed-out');
    expect(useSessionStore.getState().signedOutReason).toBe('expired');
    expect(useSessionStore.getState().accessToken).toBeNull();
  });
});

describe('call', () => {
  it('returns data on success', async () => {
    await expect(
      call(Promise.resolve({ data: [1], response: new Response(null, { status: 200 }) })),
    ).resolves.toEqual([1]);
  });

  it('throws an ApiError with the envelope fields on failure', async () => {
    const p = call(
      Promise.resolve({
        error: {
          error: 'nope',
          code: 'forbidden',
          next: 'ask',
          next_action: { code: 'request_access' },
        },
        response: new Response(null, { status: 403 }),
      }),
    );
    await expect(p).rejects.toMatchObject({ status: 403, code: 'forbidden', next: 'ask' });
  });

  it('turns a network failure into status 0 with no code', async () => {
    const e = await call(Promise.reject(new TypeError('Failed to fetch'))).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(0);
    expect((e as ApiError).code).toBeUndefined();
  });
});
