import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  expectError,
  signIn,
  tokensOf,
  type CallOptions,
} from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';

const signInAgain = { code: 'sign_in', target: 'auth' };
const MINUTE = 60_000;

type Svc = RunningService<true>;
const account = (svc: Svc, opts: CallOptions = {}) =>
  call(svc.baseUrl, 'GET', '/api/account', opts);
const projects = (svc: Svc, opts: CallOptions = {}) =>
  call(svc.baseUrl, 'GET', '/api/projects', opts);

describe('account bearer rules', () => {
  let svc: Svc;
  let session = '';
  let accessToken = '';

  beforeAll(async () => {
    svc = await startService({ demo: true });
    const s = await signIn(svc.baseUrl, svc.creds.email, svc.creds.password);
    session = s.session;
    accessToken = s.accessToken;
  });
  afterAll(() => svc.close());

  it('GET /api/account names the signed-in account and its organizations with roles', async () => {
    const res = await account(svc, { token: accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      account_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'demo@lookout.dev',
      name: 'Ada Okafor',
      organizations: [
        {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          name: 'Acme Shop',
          role: 'owner',
          // The plan the organization follows (its owner's, the demo owner on pro) and its gates.
          plan: {
            tier: 'pro',
            state: 'active',
            access_state: 'active',
            projects: 3,
            projects_per_organization: 50,
            project_creation_blocker: null,
            ingest_key_creation_blocker: null,
            next: expect.any(String),
            next_action: { code: 'create_or_manage_organization', target: 'organization' },
          },
        },
      ],
    });
  });

  it.each(['/api/account', '/api/projects'])(
    '%s without a credential is 401 sign_in/auth',
    async (path) => {
      expectError(await call(svc.baseUrl, 'GET', path), 401, 'unauthorized', signInAgain);
    },
  );

  it.each([
    ['an unknown token', 'Bearer lk_at_not-a-real-token'],
    ['an empty bearer', 'Bearer '],
    ['another scheme', `Basic ${Buffer.from('demo@lookout.dev:lookout-demo').toString('base64')}`],
  ])('%s is 401 unauthorized', async (_name, authorization) => {
    const res = await call(svc.baseUrl, 'GET', '/api/projects', { headers: { authorization } });
    expectError(res, 401, 'unauthorized', signInAgain);
  });

  it('an ingest key used as account bearer is 401 unauthorized, never 200', async () => {
    const ingestKey = svc.creds.projects[0]?.ingest_key ?? '';
    expect(ingestKey).toMatch(/^lk_ik_/);
    expectError(await projects(svc, { token: ingestKey }), 401, 'unauthorized', signInAgain);
    expectError(await account(svc, { token: ingestKey }), 401, 'unauthorized', signInAgain);
  });

  it('the personal account_token works as account bearer', async () => {
    const list = await projects(svc, { token: svc.creds.account_token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(3);
    const me = await account(svc, { token: svc.creds.account_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'demo@lookout.dev' });
  });

  it('GET /api/account accepts the svc_session cookie alone', async () => {
    const res = await account(svc, { session });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: 'demo@lookout.dev' });
  });

  it('GET /api/projects (bearer only) does not accept the cookie', async () => {
    expectError(await projects(svc, { session }), 401, 'unauthorized', signInAgain);
  });

  it('an unknown session cookie is 401 unauthorized', async () => {
    expectError(
      await account(svc, { session: 'lk_ss_not-a-session' }),
      401,
      'unauthorized',
      signInAgain,
    );
  });

  it('an unknown query key on GET /api/account is 422 validation_failed', async () => {
    const res = await call(svc.baseUrl, 'GET', '/api/account?verbose=1', { token: accessToken });
    expectError(res, 422, 'validation_failed', { code: 'fix_request', target: 'request' });
  });
});

describe('access token expiry', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startService({ demo: true });
  });
  afterAll(() => svc.close());

  it('an access token is refused once its 15 minutes are over; a refresh gives a working one', async () => {
    const s = await signIn(svc.baseUrl, svc.creds.email, svc.creds.password);
    svc.clock.advance(15 * MINUTE - 1);
    expect((await projects(svc, { token: s.accessToken })).status).toBe(200);
    svc.clock.advance(1);
    expectError(await projects(svc, { token: s.accessToken }), 401, 'unauthorized', signInAgain);
    expectError(await account(svc, { token: s.accessToken }), 401, 'unauthorized', signInAgain);

    const res = await call(svc.baseUrl, 'POST', '/api/auth/refresh', {
      json: { refresh_token: s.refreshToken },
    });
    expect(res.status).toBe(200);
    expect((await projects(svc, { token: tokensOf(res).accessToken })).status).toBe(200);
    // The browser session outlives the access token.
    expect((await account(svc, { session: s.session })).status).toBe(200);
  });
});
