import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, signIn } from '../test-support/api-client';
import { newTicket, openFeed, refusedUpgrade, type FeedClient } from '../test-support/live-feed';
import { startService, type RunningService } from '../test-support/start-service';
import {
  NATIVE,
  SDK,
  actionItem,
  createTenant,
  ingest,
  issueItem,
  logItem,
  nativeBody,
  sdkBody,
  sdkEvent,
  spanItem,
  type Tenant,
} from '../test-support/telemetry';

/**
 * Two service instances on one PostgreSQL schema, as behind a load balancer: what a client
 * does at one instance holds at the other (the live feed, its tickets, logout-all, the
 * ingest rate limit). SQLite has one instance per file, so these run on PostgreSQL only.
 */
describe.skipIf(!process.env.LOOKOUT_TEST_DATABASE_URL)('two instances on one PostgreSQL', () => {
  let a: RunningService<true>;
  let b: RunningService<false>;
  let key: string;
  let outsider: Tenant;
  let outsiderToken: string;
  const clients: FeedClient[] = [];
  const feedAt = async (svc: RunningService<boolean>, token: string) => {
    const client = await openFeed(svc.baseUrl, await newTicket(svc.baseUrl, token));
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    a = await startService({ demo: true, config: { ingestRate: { perSecond: 1, burst: 3 } } });
    b = await startService({
      sameDatabaseAs: a,
      clock: a.clock,
      config: { ingestRate: { perSecond: 1, burst: 3 } },
    });
    key = a.creds.projects[0]?.ingest_key ?? '';
    outsider = await createTenant(a, { password: 'outsider-password' });
    outsiderToken = (await signIn(a.baseUrl, outsider.email, outsider.password)).accessToken;
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await b.close();
    await a.close();
  });

  /** Ingest stays allowed: the rate limit has a test of its own below. */
  const send = async (svc: RunningService<boolean>, ingestKey: string, json: unknown) => {
    a.clock.advance(10_000);
    const res = await ingest(svc, NATIVE, ingestKey, json);
    expect(res.status, res.text).toBe(200);
  };

  it('an event accepted by one instance reaches consoles connected to the other, as it reaches its own', async () => {
    const atA = await feedAt(a, a.creds.account_token);
    const atB = await feedAt(b, a.creds.account_token);
    const stranger = await feedAt(a, outsiderToken);
    const log = logItem({ severity: 'warn' });
    const issue = issueItem({ severity: 'fatal', fingerprint: `two-instances-${log.id}` });
    const span = spanItem({ status: 'error' });
    const action = actionItem();
    // Far above NOTIFY's 8000-byte payload: the bus carries a reference, not the events.
    const big = logItem({ message: 'y'.repeat(20_000) });
    await send(
      b,
      key,
      nativeBody({ logs: [log, big], issues: [issue], trace_spans: [span], actions: [action] }),
    );

    const ids = [log.id, big.id, span.id, action.id];
    for (const id of ids) await atA.until((m) => m.data.id === id);
    const issueAtA = await atA.until((m) => m.type === 'native_issue');
    // The same messages, field for field, as the clients of the accepting instance got.
    for (const id of ids) {
      expect(await atA.until((m) => m.data.id === id)).toEqual(
        await atB.until((m) => m.data.id === id),
      );
    }
    expect(issueAtA).toEqual(await atB.until((m) => m.type === 'native_issue'));
    expect(issueAtA.data.project_id).toBe(a.creds.projects[0]?.id);
    expect((await atA.until((m) => m.data.id === big.id)).data.message).toBe(big.message);
    expect((await atA.until((m) => m.data.id === log.id)).data.severity).toBe('warning');

    // Only accounts that read the project: the outsider's connection got nothing of it, and
    // its own project's events through B reach it at A.
    const own = logItem();
    await send(b, outsider.ingestKey, nativeBody({ logs: [own] }));
    await stranger.until((m) => m.data.id === own.id);
    expect(stranger.messages.map((m) => m.data.id)).toEqual([own.id]);
    expect(atA.messages.some((m) => m.data.id === own.id)).toBe(false);
  });

  it('events of one instance arrive at the other in the order they were published', async () => {
    const atA = await feedAt(a, a.creds.account_token);
    const sent = [logItem(), logItem(), logItem(), logItem()];
    for (const l of sent) await send(b, key, nativeBody({ logs: [l] }));
    const last = sent.at(-1)?.id;
    await atA.until((m) => m.data.id === last);
    const order = atA.messages.map((m) => m.data.id).filter((id) => sent.some((l) => l.id === id));
    expect(order).toEqual(sent.map((l) => l.id));
  });

  it('a ticket issued by one instance opens the feed at the other, once', async () => {
    const ticket = await newTicket(a.baseUrl, a.creds.account_token);
    const atB = await openFeed(b.baseUrl, ticket);
    clients.push(atB);
    for (const svc of [a, b]) {
      const refused = await refusedUpgrade(svc.baseUrl, ticket);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 'unauthorized' });
    }
    // And it is a working connection: an event accepted by A reaches it.
    const log = logItem();
    await send(a, key, nativeBody({ logs: [log] }));
    expect((await atB.until((m) => m.data.id === log.id)).type).toBe('native_log');
  });

  it('an expired ticket of one instance is refused by the other', async () => {
    const ticket = await newTicket(a.baseUrl, a.creds.account_token);
    a.clock.advance(60_000);
    expect((await refusedUpgrade(b.baseUrl, ticket)).status).toBe(401);
  });

  it('logout-all at one instance closes the account’s connections at the other with 4001 and spends its tickets', async () => {
    const bruno = await signIn(a.baseUrl, 'bruno@lookout.dev', 'lookout-demo');
    const atB = await openFeed(b.baseUrl, await newTicket(b.baseUrl, bruno.accessToken));
    const atA = await openFeed(a.baseUrl, await newTicket(a.baseUrl, bruno.accessToken));
    const unused = await newTicket(b.baseUrl, bruno.accessToken);
    const owner = await feedAt(b, a.creds.account_token);

    const res = await call(a.baseUrl, 'POST', '/api/auth/logout-all', {
      token: bruno.accessToken,
    });
    expect(res.status, res.text).toBe(200);
    expect(await atB.closed).toMatchObject({ code: 4001 });
    expect(await atA.closed).toMatchObject({ code: 4001 });
    for (const svc of [a, b]) expect((await refusedUpgrade(svc.baseUrl, unused)).status).toBe(401);

    // Other accounts' connections at either instance stay open and keep receiving.
    const log = logItem();
    await send(a, key, nativeBody({ logs: [log] }));
    expect((await owner.until((m) => m.data.id === log.id)).type).toBe('native_log');
    expect(owner.ws.readyState).toBe(owner.ws.OPEN);
  });

  it('the ingest rate limit of a key is one budget across instances', async () => {
    const fresh = await createTenant(a);
    const one = () => nativeBody({ logs: [logItem()] });
    expect((await ingest(a, NATIVE, fresh.ingestKey, one())).status).toBe(200);
    expect((await ingest(b, NATIVE, fresh.ingestKey, one())).status).toBe(200);
    expect(
      (await ingest(a, SDK, fresh.ingestKey, sdkBody([sdkEvent('log', logItem())]))).status,
    ).toBe(200);
    const refused = await ingest(b, NATIVE, fresh.ingestKey, one());
    expectError(refused, 429, 'rate_limited');
    expect((refused.body as { retry_after_seconds: number }).retry_after_seconds).toBe(1);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-ratelimit-after')).toBe('1');
    expectError(await ingest(a, NATIVE, fresh.ingestKey, one()), 429, 'rate_limited');
    // A token is back a second later, for whichever instance asks first.
    a.clock.advance(1_000);
    expect((await ingest(b, NATIVE, fresh.ingestKey, one())).status).toBe(200);
    expectError(await ingest(a, NATIVE, fresh.ingestKey, one()), 429, 'rate_limited');
  });
});
