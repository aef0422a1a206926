import { afterEach, describe, expect, it } from 'vitest';
import type { SignInThrottleConfig } from '../../core/config';
import type { Logger } from '../../core/logger';
import { call, expectError, signIn, type ApiResponse } from '../../test-support/api-client';
import { newTicket, openFeed, refusedUpgrade } from '../../test-support/live-feed';
import { startService, type RunningService } from '../../test-support/start-service';
import { testDatabaseServer } from '../../test-support/test-database';

/**
 * Sign-in throttling (issue 27): failures per account and per client address, exponential
 * waits after an allowance, a bounded lockout, the spec's `429 rate_limited`, and the same
 * answers for e-mails with and without an account. The clock only moves when a test moves it.
 */

const SECOND = 1000;
const DEFAULTS: SignInThrottleConfig = {
  accountFailures: 5,
  addressFailures: 20,
  backoffSeconds: 1,
  lockoutSeconds: 900,
  forgetSeconds: 3600,
};

type Svc = RunningService<true>;
const services: RunningService<boolean>[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
});

async function start(
  throttle: Partial<SignInThrottleConfig> = {},
  more: { trustedProxies?: string[]; log?: Logger } = {},
): Promise<Svc> {
  const svc = await startService({
    demo: true,
    config: {
      signInThrottle: { ...DEFAULTS, ...throttle },
      ...(more.trustedProxies ? { trustedProxies: more.trustedProxies } : {}),
    },
    ...(more.log ? { log: more.log } : {}),
  });
  services.push(svc);
  return svc;
}

const login = (svc: Svc, email: string, password: string, headers: Record<string, string> = {}) =>
  call(svc.baseUrl, 'POST', '/api/auth/login', { json: { email, password }, headers });
const wrong = (svc: Svc, email = svc.creds.email, headers: Record<string, string> = {}) =>
  login(svc, email, 'not-the-password', headers);
const right = (svc: Svc, headers: Record<string, string> = {}) =>
  login(svc, svc.creds.email, svc.creds.password, headers);

/** The spec's rate limit: envelope, `retry_after_seconds` and both equal headers. */
function expectThrottled(res: ApiResponse, seconds: number) {
  expectError(res, 429, 'rate_limited');
  const body = res.body as Record<string, unknown>;
  expect(body.retry_after_seconds).toBe(seconds);
  expect(res.headers.get('retry-after')).toBe(String(seconds));
  expect(res.headers.get('x-ratelimit-after')).toBe(String(seconds));
  expect(typeof body.next).toBe('string');
}

describe('sign-in throttling per account', () => {
  it('answers 401 for the allowance, then 429 with a wait that doubles', async () => {
    const svc = await start();
    for (let i = 0; i < 5; i++) expectError(await wrong(svc), 401, 'unauthorized');
    const sixth = await wrong(svc);
    expectThrottled(sixth, 1);
    // The next says when to try again, in seconds and as a time of day.
    expect((sixth.body as { next: string }).next).toContain('1 second');
    expect((sixth.body as { next: string }).next).toContain('09:00:01 UTC');

    svc.clock.advance(1 * SECOND);
    expectThrottled(await wrong(svc), 2);
    svc.clock.advance(2 * SECOND);
    expectThrottled(await wrong(svc), 4);
  });

  it('while a wait lasts even the right password is refused, unchecked; after it, it works', async () => {
    const svc = await start();
    for (let i = 0; i < 6; i++) await wrong(svc);
    expectThrottled(await right(svc), 1);
    // Waiting attempts are not failures: the wait does not grow.
    expectThrottled(await wrong(svc), 1);
    svc.clock.advance(1 * SECOND);
    expect((await right(svc)).status).toBe(200);
    // A success forgets the account's failures: the allowance is whole again.
    for (let i = 0; i < 5; i++) expectError(await wrong(svc), 401, 'unauthorized');
  });

  it('the lockout is bounded: the wait never passes it, and then the right password works', async () => {
    const svc = await start({ lockoutSeconds: 60 });
    for (let i = 0; i < 5; i++) await wrong(svc);
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await wrong(svc);
      expect(res.status).toBe(429);
      const s = (res.body as { retry_after_seconds: number }).retry_after_seconds;
      waits.push(s);
      svc.clock.advance(s * SECOND);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60, 60, 60, 60]);
    expect((await right(svc)).status).toBe(200);
  });

  it('an e-mail without an account gets the same answers as one with', async () => {
    const a = await start();
    const b = await start();
    const known: ApiResponse[] = [];
    const unknown: ApiResponse[] = [];
    for (let i = 0; i < 8; i++) {
      known.push(await wrong(a, a.creds.email));
      unknown.push(await wrong(b, 'nobody-here@lookout.dev'));
    }
    expect(known.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect(unknown.map((r) => [r.status, r.body, r.headers.get('retry-after')])).toEqual(
      known.map((r) => [r.status, r.body, r.headers.get('retry-after')]),
    );
  });

  it('counts the e-mail as typed without case or surrounding spaces', async () => {
    const svc = await start();
    const upper = svc.creds.email.toUpperCase();
    for (const email of [upper, ` ${svc.creds.email}`, upper, svc.creds.email, `${upper} `]) {
      expectError(await wrong(svc, email), 401, 'unauthorized');
    }
    expectThrottled(await wrong(svc), 1);
  });

  it('a burst of parallel guesses gets no more than the allowance checked as 401', async () => {
    const svc = await start();
    const answers = await Promise.all(Array.from({ length: 20 }, () => wrong(svc)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s !== 401).every((s) => s === 429)).toBe(true);
  });
});

describe('sign-in throttling per client address', () => {
  it('failures for many e-mails from one address are throttled together', async () => {
    const svc = await start({ accountFailures: 100, addressFailures: 3 });
    for (let i = 0; i < 3; i++) {
      expectError(await wrong(svc, `guess-${i}@lookout.dev`), 401, 'unauthorized');
    }
    expectThrottled(await wrong(svc, 'guess-3@lookout.dev'), 1);
    expectThrottled(await right(svc), 1);
  });

  it('successful sign-ins are not counted: many from one address leave the allowance whole', async () => {
    const svc = await start({ accountFailures: 100, addressFailures: 3 });
    for (let i = 0; i < 30; i++) expect((await right(svc)).status).toBe(200);
    for (let i = 0; i < 3; i++) expectError(await wrong(svc), 401, 'unauthorized');
    expectThrottled(await wrong(svc), 1);
  });

  it('X-Forwarded-For is ignored unless the peer is a trusted proxy', async () => {
    const svc = await start({ accountFailures: 100, addressFailures: 2 });
    for (let i = 0; i < 2; i++)
      await wrong(svc, 'x@lookout.dev', { 'x-forwarded-for': '198.51.100.7' });
    // Another "client" by the header alone is the same socket peer: still throttled.
    expectThrottled(await wrong(svc, 'x@lookout.dev', { 'x-forwarded-for': '203.0.113.9' }), 1);
  });

  it('behind a trusted proxy, X-Forwarded-For tells clients apart', async () => {
    const svc = await start(
      { accountFailures: 100, addressFailures: 2 },
      { trustedProxies: ['127.0.0.1', '10.0.0.0/8'] },
    );
    // Read from the right past trusted proxies: the client forged the leftmost entry.
    const a = { 'x-forwarded-for': '203.0.113.9, 198.51.100.7, 10.1.2.3' };
    for (let i = 0; i < 2; i++) await wrong(svc, 'x@lookout.dev', a);
    expectThrottled(await wrong(svc, 'x@lookout.dev', a), 1);
    const b = { 'x-forwarded-for': '198.51.100.8' };
    expectError(await wrong(svc, 'x@lookout.dev', b), 401, 'unauthorized');
    expect((await right(svc, b)).status).toBe(200);
  });
});

describe('throttling of routes that take a token', () => {
  it('refresh: tokens never issued are counted per address; a known, refused one is not', async () => {
    const svc = await start({ addressFailures: 3 });
    const s = await signIn(svc.baseUrl, svc.creds.email, svc.creds.password);
    const refresh = (json: object, session?: string) =>
      call(svc.baseUrl, 'POST', '/api/auth/refresh', {
        json,
        ...(session ? { session } : {}),
      });
    expect((await refresh({ refresh_token: s.refreshToken })).status).toBe(200);
    // The rotated-out token is known: refused, never counted.
    for (let i = 0; i < 5; i++) {
      expectError(await refresh({ refresh_token: s.refreshToken }), 401, 'unauthorized');
    }
    // Nothing presented is nothing guessed.
    for (let i = 0; i < 5; i++) expectError(await refresh({}), 401, 'unauthorized');
    for (let i = 0; i < 2; i++) {
      expectError(await refresh({ refresh_token: `lk_rt_guess${i}` }), 401, 'unauthorized');
    }
    expectError(await refresh({}, 'lk_ss_guess'), 401, 'unauthorized');
    expectThrottled(await refresh({ refresh_token: 'lk_rt_guess9' }), 1);
    // Sign-in by password is counted apart.
    expect(
      (
        await call(svc.baseUrl, 'POST', '/api/auth/login', {
          json: { email: svc.creds.email, password: svc.creds.password },
        })
      ).status,
    ).toBe(200);
  });

  it('logout: unknown refresh tokens are counted per address', async () => {
    const svc = await start({ addressFailures: 2 });
    const logout = (token: string) =>
      call(svc.baseUrl, 'POST', '/api/auth/logout', { json: { refresh_token: token } });
    for (let i = 0; i < 2; i++) {
      expectError(await logout(`lk_rt_guess${i}`), 401, 'unauthorized');
    }
    expectThrottled(await logout('lk_rt_guess2'), 1);
  });

  it('live feed: refused tickets are counted per address; the upgrade answers 429', async () => {
    const svc = await start({ addressFailures: 2 });
    for (let i = 0; i < 2; i++) {
      expect((await refusedUpgrade(svc.baseUrl, `lk_ft_guess${i}`)).status).toBe(401);
    }
    const third = await refusedUpgrade(svc.baseUrl, 'lk_ft_guess2');
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBe('1');
    expect(third.body).toMatchObject({ code: 'rate_limited', retry_after_seconds: 1 });
    // While the wait lasts a good ticket is not even redeemed (and stays usable after it).
    const ticket = await newTicket(svc.baseUrl, svc.creds.account_token);
    expect((await refusedUpgrade(svc.baseUrl, ticket)).status).toBe(429);
    svc.clock.advance(SECOND);
    const feed = await openFeed(svc.baseUrl, ticket);
    feed.close();
  });
});

describe('the throttling log', () => {
  it('records each decision without the password or the e-mail', async () => {
    const lines: string[] = [];
    const log: Logger = {
      info: (m, f) => lines.push(JSON.stringify({ m, ...f })),
      error: (m, f) => lines.push(JSON.stringify({ m, ...f })),
    };
    const svc = await start({}, { log });
    for (let i = 0; i < 6; i++) await wrong(svc);
    await right(svc);
    const decisions = lines.filter((l) => l.includes('attempt throttled'));
    // The sixth failure starts a wait; the right password during it is refused.
    expect(decisions).toHaveLength(2);
    expect(JSON.parse(decisions[0] ?? '{}')).toMatchObject({
      route: '/api/auth/login',
      key: 'account',
      address: '127.0.0.1',
      retry_after_seconds: 1,
    });
    const all = lines.join('\n');
    expect(all).not.toContain('not-the-password');
    expect(all).not.toContain(svc.creds.password);
    expect(all).not.toContain(svc.creds.email);
  });
});

describe.skipIf(!testDatabaseServer())('throttling across instances (PostgreSQL)', () => {
  it('failures counted on one instance hold on another', async () => {
    const a = await start();
    const b = await startService({
      sameDatabaseAs: a,
      config: { signInThrottle: DEFAULTS },
      clock: a.clock,
    });
    services.push(b);
    const email = a.creds.email;
    const wrongAt = (url: string) =>
      call(url, 'POST', '/api/auth/login', { json: { email, password: 'not-the-password' } });
    for (let i = 0; i < 5; i++) {
      expectError(await wrongAt(i % 2 === 0 ? a.baseUrl : b.baseUrl), 401, 'unauthorized');
    }
    expectThrottled(await wrongAt(b.baseUrl), 1);
    expectThrottled(await right(a), 1);
  });
});
