import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashToken } from '../../domain/secrets';
import {
  call,
  clearsCookie,
  expectError,
  sessionSetCookie,
  signIn,
  tokensOf,
  type CallOptions,
} from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';

const signInAgain = { code: 'sign_in', target: 'auth' };
const clearLocal = { code: 'clear_local_session', target: 'local_credentials' };
const rfc3339Millis = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

type Svc = RunningService<true>;

const account = (svc: Svc, opts: CallOptions) => call(svc.baseUrl, 'GET', '/api/account', opts);
const projects = (svc: Svc, opts: CallOptions) => call(svc.baseUrl, 'GET', '/api/projects', opts);
const refresh = (svc: Svc, opts: CallOptions) =>
  call(svc.baseUrl, 'POST', '/api/auth/refresh', opts);
const logout = (svc: Svc, refreshToken: string) =>
  call(svc.baseUrl, 'POST', '/api/auth/logout', { json: { refresh_token: refreshToken } });
const logoutAll = (svc: Svc, opts: CallOptions) =>
  call(svc.baseUrl, 'POST', '/api/auth/logout-all', opts);
const signInDemo = (svc: Svc, email = svc.creds.email) =>
  signIn(svc.baseUrl, email, svc.creds.password);

async function expectAccountOk(svc: Svc, opts: CallOptions) {
  const res = await account(svc, opts);
  expect(res.status, res.text).toBe(200);
}
async function expectAccountRefused(svc: Svc, opts: CallOptions) {
  expectError(await account(svc, opts), 401, 'unauthorized', signInAgain);
}

describe('POST /api/auth/login', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startService({ demo: true });
  });
  afterAll(() => svc.close());

  it('the right password gives tokens and the HttpOnly, SameSite=Lax svc_session cookie', async () => {
    const res = await call(svc.baseUrl, 'POST', '/api/auth/login', {
      json: { email: svc.creds.email, password: svc.creds.password },
    });
    expect(res.status).toBe(200);
    const body = res.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([
      'access_token',
      'expires_in_seconds',
      'refresh_token',
      'token_type',
    ]);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in_seconds: 900 });
    expect(body.access_token).toMatch(/^\S{20,}$/);
    expect(body.refresh_token).toMatch(/^\S{20,}$/);
    expect(body.access_token).not.toBe(body.refresh_token);

    const cookie = sessionSetCookie(res);
    expect(cookie).toMatch(/^svc_session=[^;]{20,};/);
    expect(cookie).toMatch(/;\s*HttpOnly(?:;|$)/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax(?:;|$)/i);
    expect(cookie).toMatch(/;\s*Path=\/(?:;|$)/i);
    expect(cookie).not.toContain(String(body.access_token));
    expect(cookie).not.toContain(String(body.refresh_token));

    const me = await account(svc, { token: String(body.access_token) });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: svc.creds.email });
  });

  it('a wrong password and an unknown email give the same 401 unauthorized', async () => {
    const wrong = await call(svc.baseUrl, 'POST', '/api/auth/login', {
      json: { email: svc.creds.email, password: 'not-the-password' },
    });
    const unknown = await call(svc.baseUrl, 'POST', '/api/auth/login', {
      json: { email: 'nobody@lookout.dev', password: svc.creds.password },
    });
    expectError(wrong, 401, 'unauthorized', signInAgain);
    expectError(unknown, 401, 'unauthorized', signInAgain);
    expect(wrong.body).toEqual(unknown.body);
    expect(sessionSetCookie(wrong)).toBeUndefined();
    expect(sessionSetCookie(unknown)).toBeUndefined();
  });

  it('the e-mail matches without regard to ASCII case, as stored', async () => {
    const { accessToken } = await signIn(
      svc.baseUrl,
      `  ${svc.creds.email.toUpperCase()}  `,
      svc.creds.password,
    );
    const me = await account(svc, { token: accessToken });
    expect(me.body).toMatchObject({ email: svc.creds.email });
  });
});

describe('POST /api/auth/refresh', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startService({ demo: true });
  });
  afterAll(() => svc.close());

  it('rotates the refresh token: new tokens work, the old refresh token is refused', async () => {
    const s = await signInDemo(svc);
    const res = await refresh(svc, { json: { refresh_token: s.refreshToken } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in_seconds: 900 });
    const next = tokensOf(res);
    expect(next.accessToken).not.toBe(s.accessToken);
    expect(next.refreshToken).not.toBe(s.refreshToken);
    await expectAccountOk(svc, { token: next.accessToken });

    const again = await refresh(svc, { json: { refresh_token: s.refreshToken } });
    expectError(again, 401, 'unauthorized', signInAgain);
  });

  it('presenting a rotated-out token again revokes the whole family', async () => {
    const s = await signInDemo(svc);
    const second = tokensOf(await refresh(svc, { json: { refresh_token: s.refreshToken } }));
    const third = tokensOf(await refresh(svc, { json: { refresh_token: second.refreshToken } }));
    // Reuse of the first (rotated-out) token: refused, and the family dies with it.
    expectError(
      await refresh(svc, { json: { refresh_token: s.refreshToken } }),
      401,
      'unauthorized',
    );
    expectError(
      await refresh(svc, { json: { refresh_token: third.refreshToken } }),
      401,
      'unauthorized',
    );
    await expectAccountRefused(svc, { session: s.session });
    expectError(await refresh(svc, { json: {}, session: s.session }), 401, 'unauthorized');
  });

  it('another sign-in survives the revocation of a reused family', async () => {
    const victim = await signInDemo(svc);
    const other = await signInDemo(svc);
    await refresh(svc, { json: { refresh_token: victim.refreshToken } });
    await refresh(svc, { json: { refresh_token: victim.refreshToken } });
    const res = await refresh(svc, { json: { refresh_token: other.refreshToken } });
    expect(res.status).toBe(200);
    await expectAccountOk(svc, { session: other.session });
  });

  it('with {} and the svc_session cookie returns fresh tokens of that sign-in', async () => {
    const s = await signInDemo(svc);
    const res = await refresh(svc, { json: {}, session: s.session });
    expect(res.status, res.text).toBe(200);
    const next = tokensOf(res);
    expect(next.accessToken).not.toBe(s.accessToken);
    await expectAccountOk(svc, { token: next.accessToken });
    const rotated = await refresh(svc, { json: { refresh_token: next.refreshToken } });
    expect(rotated.status).toBe(200);
  });

  it('with neither a refresh token nor a session is 401 unauthorized', async () => {
    expectError(await refresh(svc, { json: {} }), 401, 'unauthorized', signInAgain);
    expectError(
      await refresh(svc, { json: {}, session: 'lk_ss_not-a-session' }),
      401,
      'unauthorized',
    );
  });

  it('an unknown token, or an access token sent as refresh token, is 401 unauthorized', async () => {
    const s = await signInDemo(svc);
    expectError(
      await refresh(svc, { json: { refresh_token: 'lk_rt_unknown' } }),
      401,
      'unauthorized',
    );
    expectError(
      await refresh(svc, { json: { refresh_token: s.accessToken } }),
      401,
      'unauthorized',
    );
    expectError(
      await refresh(svc, { json: { refresh_token: svc.creds.account_token } }),
      401,
      'unauthorized',
    );
  });

  it('a refresh_token of the wrong type is 422 validation_failed', async () => {
    expectError(await refresh(svc, { json: { refresh_token: 42 } }), 422, 'validation_failed');
  });
});

describe('POST /api/auth/logout', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startService({ demo: true });
  });
  afterAll(() => svc.close());

  it('answers 200 {revoked, next_action}, and the same 200 when re-sent', async () => {
    const s = await signInDemo(svc);
    const first = await logout(svc, s.refreshToken);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ revoked: true, next_action: clearLocal });
    const again = await logout(svc, s.refreshToken);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it("revokes the family's refresh tokens and its browser session, not its access tokens", async () => {
    const s = await signInDemo(svc);
    const rotated = tokensOf(await refresh(svc, { json: { refresh_token: s.refreshToken } }));
    expect((await logout(svc, rotated.refreshToken)).status).toBe(200);

    expectError(
      await refresh(svc, { json: { refresh_token: rotated.refreshToken } }),
      401,
      'unauthorized',
    );
    expectError(await refresh(svc, { json: {}, session: s.session }), 401, 'unauthorized');
    await expectAccountRefused(svc, { session: s.session });
    // Spec: an access token already issued stays valid until it expires.
    await expectAccountOk(svc, { token: s.accessToken });
    await expectAccountOk(svc, { token: rotated.accessToken });
  });

  it('leaves another sign-in of the same account unchanged', async () => {
    const other = await signInDemo(svc);
    const s = await signInDemo(svc);
    expect((await logout(svc, s.refreshToken)).status).toBe(200);
    await expectAccountOk(svc, { session: other.session });
    await expectAccountOk(svc, { token: other.accessToken });
    expect((await refresh(svc, { json: { refresh_token: other.refreshToken } })).status).toBe(200);
  });

  it('needs no bearer and ignores one', async () => {
    const s = await signInDemo(svc);
    const res = await call(svc.baseUrl, 'POST', '/api/auth/logout', {
      token: 'lk_at_not-a-token',
      json: { refresh_token: s.refreshToken },
    });
    expect(res.status).toBe(200);
  });

  it('an invalid token, or an access token sent as refresh token, is 401 with authorize_request', async () => {
    const s = await signInDemo(svc);
    for (const token of ['lk_rt_unknown', '', s.accessToken, svc.creds.account_token]) {
      const res = await logout(svc, token);
      expectError(res, 401, 'unauthorized');
      expect((res.body as { next_action: { code: string } }).next_action.code).toBe(
        'authorize_request',
      );
    }
    // The access token was not a refresh token: nothing was revoked.
    expect((await refresh(svc, { json: { refresh_token: s.refreshToken } })).status).toBe(200);
  });

  it('a missing refresh_token field is 422 validation_failed', async () => {
    expectError(
      await call(svc.baseUrl, 'POST', '/api/auth/logout', { json: {} }),
      422,
      'validation_failed',
    );
  });
});

describe('token lifetimes (moving the clock)', () => {
  let svc: Svc;
  beforeEach(async () => {
    svc = await startService({ demo: true });
  });
  afterEach(() => svc.close());

  it('after logout, an access token of that sign-in works until its 15 minutes are over', async () => {
    const s = await signInDemo(svc);
    expect((await logout(svc, s.refreshToken)).status).toBe(200);
    svc.clock.advance(15 * MINUTE - 1);
    await expectAccountOk(svc, { token: s.accessToken });
    svc.clock.advance(1);
    await expectAccountRefused(svc, { token: s.accessToken });
  });

  it('an expired refresh token is refused by refresh (401) and by logout (401 authorize_request)', async () => {
    const s = await signInDemo(svc);
    svc.clock.advance(30 * DAY);
    expectError(
      await refresh(svc, { json: { refresh_token: s.refreshToken } }),
      401,
      'unauthorized',
    );
    const res = await logout(svc, s.refreshToken);
    expectError(res, 401, 'unauthorized');
    expect((res.body as { next_action: { code: string } }).next_action.code).toBe(
      'authorize_request',
    );
  });

  it('a refresh token one millisecond before its 30 days still rotates', async () => {
    const s = await signInDemo(svc);
    svc.clock.advance(30 * DAY - 1);
    expect((await refresh(svc, { json: { refresh_token: s.refreshToken } })).status).toBe(200);
  });
});

describe('POST /api/auth/logout-all', () => {
  let svc: Svc;
  beforeEach(async () => {
    svc = await startService({ demo: true });
  });
  afterEach(() => svc.close());

  it('with a bearer: revokes every earlier sign-in, refreshed tokens, sessions and the personal token', async () => {
    const heard: string[] = [];
    svc.deps.onAccountSignedOutEverywhere.add((id) => heard.push(id));
    const me = (await account(svc, { token: svc.creds.account_token })).body as {
      account_id: string;
    };
    const bystander = await signInDemo(svc, 'bruno@lookout.dev');

    const first = await signInDemo(svc);
    svc.clock.advance(1000);
    // Refreshed before logout-all: a newer access token, but of the old sign-in.
    const refreshed = tokensOf(await refresh(svc, { json: { refresh_token: first.refreshToken } }));
    const fromSession = tokensOf(await refresh(svc, { json: {}, session: first.session }));
    svc.clock.advance(1000);
    const second = await signInDemo(svc);
    svc.clock.advance(1000);

    const res = await logoutAll(svc, { token: second.accessToken });
    expect(res.status, res.text).toBe(200);
    const body = res.body as { revoked: boolean; revoked_before: string; next_action: unknown };
    expect(Object.keys(body).sort()).toEqual(['next_action', 'revoked', 'revoked_before']);
    expect(body.revoked).toBe(true);
    expect(body.revoked_before).toMatch(rfc3339Millis);
    expect(body.revoked_before).toBe(new Date(svc.clock.now()).toISOString());
    expect(body.next_action).toEqual(clearLocal);
    expect(clearsCookie(sessionSetCookie(res))).toBe(true);
    expect(heard).toEqual([me.account_id]);

    for (const token of [
      first.accessToken,
      refreshed.accessToken,
      fromSession.accessToken,
      second.accessToken,
      svc.creds.account_token,
    ]) {
      await expectAccountRefused(svc, { token });
      expectError(await projects(svc, { token }), 401, 'unauthorized', signInAgain);
    }
    for (const session of [first.session, second.session]) {
      await expectAccountRefused(svc, { session });
      expectError(await refresh(svc, { json: {}, session }), 401, 'unauthorized');
    }
    for (const refreshToken of [
      refreshed.refreshToken,
      fromSession.refreshToken,
      second.refreshToken,
    ]) {
      expectError(
        await refresh(svc, { json: { refresh_token: refreshToken } }),
        401,
        'unauthorized',
      );
    }

    // Another account is untouched, and nothing was deleted.
    await expectAccountOk(svc, { token: bystander.accessToken });
    await expectAccountOk(svc, { session: bystander.session });
    svc.clock.advance(1);
    const after = await signInDemo(svc);
    const list = await projects(svc, { token: after.accessToken });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(3);
    const key = await svc.deps.store.projects.ingestKeyByHash(
      hashToken(svc.creds.projects[0]?.ingest_key ?? ''),
    );
    expect(key?.revokedAt).toBeNull();
  });

  it('works with the session cookie alone, and clears it', async () => {
    const s = await signInDemo(svc);
    svc.clock.advance(1000);
    const res = await logoutAll(svc, { session: s.session });
    expect(res.status, res.text).toBe(200);
    expect((res.body as { revoked_before: string }).revoked_before).toMatch(rfc3339Millis);
    expect(clearsCookie(sessionSetCookie(res))).toBe(true);
    await expectAccountRefused(svc, { session: s.session });
    await expectAccountRefused(svc, { token: s.accessToken });
  });

  it('is inclusive at revoked_before; a sign-in one millisecond later stays valid', async () => {
    const caller = await signInDemo(svc);
    svc.clock.advance(5000);
    // Same instant as the logout-all below: its login time equals revoked_before exactly.
    const atBoundary = await signInDemo(svc);
    const res = await logoutAll(svc, { token: caller.accessToken });
    expect(res.status).toBe(200);
    expect((res.body as { revoked_before: string }).revoked_before).toBe(
      new Date(svc.clock.now()).toISOString(),
    );

    await expectAccountRefused(svc, { token: atBoundary.accessToken });
    await expectAccountRefused(svc, { session: atBoundary.session });
    expectError(
      await refresh(svc, { json: { refresh_token: atBoundary.refreshToken } }),
      401,
      'unauthorized',
    );

    svc.clock.advance(1);
    const later = await signInDemo(svc);
    await expectAccountOk(svc, { token: later.accessToken });
    await expectAccountOk(svc, { session: later.session });
    const rotated = await refresh(svc, { json: { refresh_token: later.refreshToken } });
    expect(rotated.status).toBe(200);
    await expectAccountOk(svc, { token: tokensOf(rotated).accessToken });
  });

  it('an old refresh token cannot be refreshed after logout-all, even later', async () => {
    const s = await signInDemo(svc);
    svc.clock.advance(1000);
    expect((await logoutAll(svc, { token: s.accessToken })).status).toBe(200);
    svc.clock.advance(60 * MINUTE);
    expectError(
      await refresh(svc, { json: { refresh_token: s.refreshToken } }),
      401,
      'unauthorized',
    );
  });

  it('without a credential, or with an ingest key, is 401 unauthorized', async () => {
    expectError(await logoutAll(svc, {}), 401, 'unauthorized', signInAgain);
    const ingestKey = svc.creds.projects[0]?.ingest_key ?? '';
    expectError(await logoutAll(svc, { token: ingestKey }), 401, 'unauthorized', signInAgain);
    // Nothing was revoked by the refused calls.
    await expectAccountOk(svc, { token: svc.creds.account_token });
  });
});

describe('POST /api/auth/web/logout', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startService({ demo: true });
  });
  afterAll(() => svc.close());

  it('needs no credential: 204, no body, and the cookie is cleared', async () => {
    const res = await call(svc.baseUrl, 'POST', '/api/auth/web/logout');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(clearsCookie(sessionSetCookie(res))).toBe(true);
  });

  it("ends that browser session only; other sign-ins' bearers and sessions keep working", async () => {
    const browser = await signInDemo(svc);
    const other = await signInDemo(svc);
    const res = await call(svc.baseUrl, 'POST', '/api/auth/web/logout', {
      session: browser.session,
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(clearsCookie(sessionSetCookie(res))).toBe(true);

    await expectAccountRefused(svc, { session: browser.session });
    expectError(await refresh(svc, { json: {}, session: browser.session }), 401, 'unauthorized');
    await expectAccountOk(svc, { token: other.accessToken });
    await expectAccountOk(svc, { session: other.session });
    expect((await projects(svc, { token: other.accessToken })).status).toBe(200);
  });
});
