import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { call, expectError, signIn } from '../../test-support/api-client';
import {
  newTicket,
  openFeed,
  refusedUpgrade,
  type FeedClient,
  type LiveMessage,
  type RefusedUpgrade,
} from '../../test-support/live-feed';
import { startService, type RunningService } from '../../test-support/start-service';
import { storeSql } from '../../test-support/store-sql';
import {
  NATIVE,
  SDK,
  actionItem,
  createTenant,
  ingest,
  issueItem,
  logItem,
  metricItem,
  nativeBody,
  sdkBody,
  sdkEvent,
  spanItem,
  type Tenant,
} from '../../test-support/telemetry';

type Svc = RunningService<true>;

const connectLiveFeed = { code: 'connect_live_feed', target: 'live_feed' };
const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The spec's error envelope on a refused upgrade. */
function expectRefused(
  res: RefusedUpgrade,
  status: number,
  code: string,
  nextAction: { code: string; target?: string },
) {
  expect(res.status).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = res.body as Record<string, unknown>;
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  expect(typeof body.next).toBe('string');
  expect(body.next).not.toBe('');
  expect(body.next_action).toMatchObject(nextAction);
}

/** An upgrade request with hand-made headers; the service's (non-101) answer. */
function rawUpgrade(baseUrl: string, path: string, headers: Record<string, string>) {
  return new Promise<RefusedUpgrade>((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, {
      agent: false,
      headers: { connection: 'Upgrade', upgrade: 'websocket', ...headers },
    });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      reject(new Error('the upgrade was accepted'));
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text ? (JSON.parse(text) as unknown) : null,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('POST /api/feed/ticket', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startService({ demo: true });
  });
  afterAll(() => svc.close());

  it('an account bearer gets {ticket, expires_in_seconds: 60}', async () => {
    const res = await call(svc.baseUrl, 'POST', '/api/feed/ticket', {
      token: svc.creds.account_token,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ticket: expect.any(String) as unknown, expires_in_seconds: 60 });
    const { ticket } = res.body as { ticket: string };
    expect(ticket.length).toBeGreaterThanOrEqual(32);
    // A new ticket each time.
    expect(await newTicket(svc.baseUrl, svc.creds.account_token)).not.toBe(ticket);
    const access = await signIn(svc.baseUrl, 'chen@lookout.dev', 'lookout-demo');
    expect(
      (await call(svc.baseUrl, 'POST', '/api/feed/ticket', { token: access.accessToken })).status,
    ).toBe(200);
  });

  it('without a bearer, with only the session cookie or with an ingest key it is 401 unauthorized', async () => {
    const session = (await signIn(svc.baseUrl, svc.creds.email, svc.creds.password)).session;
    for (const opts of [
      {},
      { session },
      { token: svc.creds.projects[0]?.ingest_key ?? '' },
      { token: 'lk_at_unknown' },
    ]) {
      const res = await call(svc.baseUrl, 'POST', '/api/feed/ticket', opts);
      expectError(res, 401, 'unauthorized', { code: 'sign_in', target: 'auth' });
    }
  });

  it('GET is 405 method_not_allowed naming POST', async () => {
    const res = await call(svc.baseUrl, 'GET', '/api/feed/ticket', {
      token: svc.creds.account_token,
    });
    expectError(res, 405, 'method_not_allowed');
    expect((res.body as { next: string }).next).toContain('POST /api/feed/ticket');
  });
});

describe('GET /api/feed/live: refused connections', () => {
  let svc: Svc;
  const authorize = { code: 'authorize_request' };
  beforeAll(async () => {
    svc = await startService({ demo: true });
  });
  afterAll(() => svc.close());

  it('a plain GET without upgrade headers is 426 invalid_websocket_upgrade', async () => {
    const ticket = await newTicket(svc.baseUrl, svc.creds.account_token);
    const res = await call(
      svc.baseUrl,
      'GET',
      `/api/feed/live?ticket=${encodeURIComponent(ticket)}`,
    );
    expectError(res, 426, 'invalid_websocket_upgrade', connectLiveFeed);
    // The refused request did not spend the ticket.
    const feed = await openFeed(svc.baseUrl, ticket);
    feed.close();
  });

  it.each(['POST', 'PUT', 'DELETE'])('%s is 405 invalid_websocket_upgrade', async (method) => {
    const res = await call(svc.baseUrl, method, '/api/feed/live');
    expectError(res, 405, 'invalid_websocket_upgrade', connectLiveFeed);
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('an unsupported Sec-WebSocket-Version is 400 invalid_websocket_upgrade', async () => {
    const ticket = await newTicket(svc.baseUrl, svc.creds.account_token);
    const res = await refusedUpgrade(svc.baseUrl, ticket, { protocolVersion: 8 });
    expectRefused(res, 400, 'invalid_websocket_upgrade', connectLiveFeed);
  });

  it('a missing or malformed Sec-WebSocket-Key is 400 invalid_websocket_upgrade, ticket unspent', async () => {
    const ticket = await newTicket(svc.baseUrl, svc.creds.account_token);
    const path = `/api/feed/live?ticket=${encodeURIComponent(ticket)}`;
    for (const key of [undefined, 'not-a-key', 'dGhlIHNhbXBsZSBub25jZQ=']) {
      const res = await rawUpgrade(svc.baseUrl, path, {
        'sec-websocket-version': '13',
        ...(key === undefined ? {} : { 'sec-websocket-key': key }),
      });
      expectRefused(res, 400, 'invalid_websocket_upgrade', connectLiveFeed);
    }
    const feed = await openFeed(svc.baseUrl, ticket);
    feed.close();
  });

  it('an upgrade with another method is 405 invalid_websocket_upgrade', async () => {
    const ticket = await newTicket(svc.baseUrl, svc.creds.account_token);
    const res = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${svc.baseUrl}/api/feed/live?ticket=${ticket}`, {
        method: 'POST',
        agent: false,
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      });
      req.on('response', (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      });
      req.on('upgrade', () => reject(new Error('accepted')));
      req.on('error', reject);
      req.end();
    });
    expect(res).toBe(405);
  });

  it('a missing ticket is 401 unauthorized with authorize_request', async () => {
    expectRefused(await refusedUpgrade(svc.baseUrl), 401, 'unauthorized', authorize);
    expectRefused(await refusedUpgrade(svc.baseUrl, ''), 401, 'unauthorized', authorize);
  });

  it('an unknown ticket, or an account bearer in its place, is 401', async () => {
    for (const ticket of ['lk_ft_unknown', svc.creds.account_token]) {
      expectRefused(await refusedUpgrade(svc.baseUrl, ticket), 401, 'unauthorized', authorize);
    }
  });

  it('a ticket opens one connection only', async () => {
    const ticket = await newTicket(svc.baseUrl, svc.creds.account_token);
    const feed = await openFeed(svc.baseUrl, ticket);
    const again = await refusedUpgrade(svc.baseUrl, ticket);
    expectRefused(again, 401, 'unauthorized', authorize);
    expect(JSON.stringify(again.body)).not.toContain(ticket);
    feed.close();
  });

  it('a ticket expires 60 seconds after it was issued', async () => {
    const late = await newTicket(svc.baseUrl, svc.creds.account_token);
    const inTime = await newTicket(svc.baseUrl, svc.creds.account_token);
    svc.clock.advance(59_999);
    const feed = await openFeed(svc.baseUrl, inTime);
    svc.clock.advance(1);
    expectRefused(await refusedUpgrade(svc.baseUrl, late), 401, 'unauthorized', authorize);
    feed.close();
  });
});

describe('GET /api/feed/live: messages', () => {
  let svc: Svc;
  let key = '';
  let project = '';
  let otherKey = '';
  let outsider: Tenant;
  let owner: FeedClient;
  let member: FeedClient;
  let stranger: FeedClient;
  beforeAll(async () => {
    svc = await startService({ demo: true });
    key = svc.creds.projects[0]?.ingest_key ?? '';
    project = svc.creds.projects[0]?.id ?? '';
    otherKey = svc.creds.projects[1]?.ingest_key ?? '';
    outsider = await createTenant(svc, { password: 'outsider-password' });
    const outsiderToken = (await signIn(svc.baseUrl, outsider.email, outsider.password))
      .accessToken;
    const chen = (await signIn(svc.baseUrl, 'chen@lookout.dev', 'lookout-demo')).accessToken;
    owner = await openFeed(svc.baseUrl, await newTicket(svc.baseUrl, svc.creds.account_token));
    member = await openFeed(svc.baseUrl, await newTicket(svc.baseUrl, chen));
    stranger = await openFeed(svc.baseUrl, await newTicket(svc.baseUrl, outsiderToken));
  });
  afterAll(async () => {
    for (const c of [owner, member, stranger]) c.close();
    await svc.close();
  });

  let marks = 0;
  /**
   * Ingests a marker log into the project and waits until every client that can read it has
   * it: the feed keeps order per connection, so whatever was published before has arrived.
   */
  async function settle(clients: FeedClient[], ingestKey = key): Promise<LiveMessage[][]> {
    const marker = logItem({ message: `marker ${++marks}` });
    const res = await ingest(svc, NATIVE, ingestKey, nativeBody({ logs: [marker] }));
    expect(res.status).toBe(200);
    const seen: LiveMessage[][] = [];
    for (const c of clients) {
      await c.until((m) => m.data.id === marker.id);
      const idx = c.messages.findIndex((m) => m.data.id === marker.id);
      seen.push(c.messages.splice(0, idx + 1).slice(0, -1));
    }
    return seen;
  }
  afterEach(async () => {
    // Leave every client with an empty inbox for the next test.
    await settle([owner, member]);
    await settle([stranger], outsider.ingestKey);
  });

  it('a client receives the {type, data} messages of what was ingested, and nothing for metrics', async () => {
    const log = logItem({ severity: 'warn' });
    const debug = logItem({
      severity: undefined,
      level: 'debug',
      trace_id: 'd'.repeat(32),
      span_id: 'e'.repeat(16),
    });
    const issue = issueItem({ severity: 'fatal', fingerprint: `live-${randomUUID()}` });
    const span = spanItem({ status: 'error' });
    const action = actionItem();
    const metric = metricItem();
    expect(
      (
        await ingest(
          svc,
          NATIVE,
          key,
          nativeBody({ logs: [log], issues: [issue], trace_spans: [span], actions: [action] }),
        )
      ).status,
    ).toBe(200);
    expect(
      (await ingest(svc, SDK, key, sdkBody([sdkEvent('metric', metric), sdkEvent('log', debug)])))
        .status,
    ).toBe(200);

    const [ownerGot, memberGot] = await settle([owner, member]);
    const summary = (ms: LiveMessage[] | undefined) =>
      (ms ?? []).map((m) => `${m.type}:${String(m.data.id)}`).sort();
    const issueMessage = ownerGot?.find((m) => m.type === 'native_issue');
    const expected = [
      `native_log:${log.id}`,
      `native_log:${debug.id}`,
      `native_issue:${String(issueMessage?.data.id)}`,
      `native_trace_span:${span.id}`,
      `native_action:${action.id}`,
    ].sort();
    expect(summary(ownerGot)).toEqual(expected);
    expect(summary(memberGot)).toEqual(expected);
    for (const m of ownerGot ?? []) expect(Object.keys(m).sort()).toEqual(['data', 'type']);
    expect(JSON.stringify(ownerGot)).not.toContain(metric.id);

    const byId = (id: string) => ownerGot?.find((m) => m.data.id === id)?.data;
    expect(byId(log.id)).toMatchObject({
      project_id: project,
      level: 'warning',
      severity: 'warning',
      triage: { effective_severity: 'warning', ignored: false, rule_applied: false },
      message: log.message,
      occurred_at: log.occurred_at,
      trace_id: null,
      span_id: null,
      next_action: { code: 'inspect_related_logs', target: 'telemetry_logs' },
    });
    expect(byId(debug.id)).toMatchObject({
      level: 'info',
      severity: 'info',
      trace_id: 'd'.repeat(32),
      span_id: 'e'.repeat(16),
      next_action: { code: 'inspect_trace', target: 'trace_summary' },
    });

    const issueData = issueMessage?.data ?? {};
    expect(issueData).toMatchObject({
      project_id: project,
      severity: 'critical',
      status: 'unresolved',
      occurrence_count: 1,
      fingerprint: issue.fingerprint,
      triage: { effective_severity: 'critical', ignored: false },
    });
    expect(issueData.id).not.toBe(issue.id);
    expect(String(issueData.first_seen_at)).toMatch(rfc3339);
    expect(issueData).not.toHaveProperty('priority');
    expect(issueData).not.toHaveProperty('priority_source');
    expect(issueData).not.toHaveProperty('assignee');

    expect(byId(span.id)).toMatchObject({
      project_id: project,
      trace_id: span.trace_id,
      span_id: span.span_id,
      name: span.name,
      status: 'error',
    });
    expect(byId(action.id)).toMatchObject({
      project_id: project,
      name: action.name,
      distinct_id: action.distinct_id,
      session_id: action.session_id,
      trace_id: null,
    });
    expect(byId(action.id)).not.toHaveProperty('severity');
  });

  it('a ticket does not select a project: messages of every readable project arrive', async () => {
    const log = logItem();
    await ingest(svc, NATIVE, otherKey, nativeBody({ logs: [log] }));
    const [ownerGot] = await settle([owner]);
    expect(ownerGot?.map((m) => m.data.id)).toEqual([log.id]);
    expect(ownerGot?.[0]?.data.project_id).toBe(svc.creds.projects[1]?.id);
  });

  it('re-sent (already accepted) items send no message', async () => {
    const batch = nativeBody({
      logs: [logItem()],
      issues: [issueItem()],
      trace_spans: [spanItem()],
      actions: [actionItem()],
    });
    await ingest(svc, NATIVE, key, batch);
    await settle([owner]);
    const again = await ingest(svc, NATIVE, key, batch);
    expect((again.body as { already_accepted: number }).already_accepted).toBe(4);
    const [ownerGot] = await settle([owner]);
    expect(ownerGot).toEqual([]);
  });

  it('a rejected batch sends no message', async () => {
    const res = await ingest(
      svc,
      NATIVE,
      key,
      nativeBody({ logs: [logItem(), logItem({ severity: 'loud' })] }),
    );
    expect(res.status).toBe(422);
    const [ownerGot] = await settle([owner]);
    expect(ownerGot).toEqual([]);
  });

  it('an account that cannot read the project receives nothing of it', async () => {
    await ingest(svc, NATIVE, key, nativeBody({ logs: [logItem()], issues: [issueItem()] }));
    await settle([owner]);
    const [strangerGot] = await settle([stranger], outsider.ingestKey);
    expect(strangerGot).toEqual([]);
    // ...and the owner of the demo world receives nothing of the stranger's project.
    const own = logItem();
    await ingest(svc, NATIVE, outsider.ingestKey, nativeBody({ logs: [own] }));
    const [ownerGot] = await settle([owner]);
    expect(ownerGot).toEqual([]);
    const [mine] = await settle([stranger], outsider.ingestKey);
    expect(mine?.map((m) => m.data.id)).toEqual([own.id]);
  });

  it('native_issue is issue response version 1: archived shows as ignored, a resolved issue reopens', async () => {
    const archivedFp = `live-archived-${randomUUID()}`;
    const resolvedFp = `live-resolved-${randomUUID()}`;
    await ingest(
      svc,
      NATIVE,
      key,
      nativeBody({
        issues: [issueItem({ fingerprint: archivedFp }), issueItem({ fingerprint: resolvedFp })],
      }),
    );
    await settle([owner]);
    const sql = storeSql(svc);
    onTestFinished(() => sql.close());
    await sql.rows("UPDATE issues SET status = 'archived' WHERE fingerprint = ? RETURNING id", [
      archivedFp,
    ]);
    await sql.rows("UPDATE issues SET status = 'resolved' WHERE fingerprint = ? RETURNING id", [
      resolvedFp,
    ]);
    await ingest(
      svc,
      NATIVE,
      key,
      nativeBody({
        issues: [issueItem({ fingerprint: archivedFp }), issueItem({ fingerprint: resolvedFp })],
      }),
    );
    const [got] = await settle([owner]);
    const byFp = (fp: string) => got?.find((m) => m.data.fingerprint === fp)?.data;
    expect(byFp(archivedFp)).toMatchObject({
      status: 'ignored',
      occurrence_count: 2,
      triage: { ignored: true },
    });
    expect(byFp(resolvedFp)).toMatchObject({ status: 'unresolved', occurrence_count: 2 });
    const stored = await sql.rows('SELECT status FROM issues WHERE fingerprint = ?', [archivedFp]);
    expect(stored).toEqual([{ status: 'archived' }]);
  });
});

describe('logout-all and the live feed', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startService({ demo: true });
  });
  afterAll(() => svc.close());

  it('closes the account’s open connections with 4001, spends its unused tickets, and leaves others open', async () => {
    const bruno = await signIn(svc.baseUrl, 'bruno@lookout.dev', 'lookout-demo');
    const first = await openFeed(svc.baseUrl, await newTicket(svc.baseUrl, bruno.accessToken));
    const second = await openFeed(svc.baseUrl, await newTicket(svc.baseUrl, bruno.accessToken));
    const unused = await newTicket(svc.baseUrl, bruno.accessToken);
    const owner = await openFeed(
      svc.baseUrl,
      await newTicket(svc.baseUrl, svc.creds.account_token),
    );

    const res = await call(svc.baseUrl, 'POST', '/api/auth/logout-all', {
      token: bruno.accessToken,
    });
    expect(res.status, res.text).toBe(200);
    expect(await first.closed).toMatchObject({ code: 4001 });
    expect(await second.closed).toMatchObject({ code: 4001 });

    expectRefused(await refusedUpgrade(svc.baseUrl, unused), 401, 'unauthorized', {
      code: 'authorize_request',
    });

    // The other account's connection still receives events.
    const log = logItem();
    await ingest(svc, NATIVE, svc.creds.projects[0]?.ingest_key ?? '', nativeBody({ logs: [log] }));
    expect((await owner.until((m) => m.data.id === log.id)).type).toBe('native_log');
    expect(owner.ws.readyState).toBe(owner.ws.OPEN);
    owner.close();

    // A sign-in after logout-all can open the feed again.
    svc.clock.advance(1);
    const again = await signIn(svc.baseUrl, 'bruno@lookout.dev', 'lookout-demo');
    const fresh = await openFeed(svc.baseUrl, await newTicket(svc.baseUrl, again.accessToken));
    fresh.close();
  });
});

describe('the live feed in the access log', () => {
  const lines: Record<string, string | number>[] = [];
  let svc: Svc;
  beforeAll(async () => {
    svc = await startService({
      demo: true,
      log: {
        info: (message, fields = {}) => {
          if (message === 'request') lines.push(fields);
        },
        error: () => {},
      },
    });
  });
  afterAll(() => svc.close());

  it('is recorded under its path template, never with the ticket', async () => {
    const ticket = await newTicket(svc.baseUrl, svc.creds.account_token);
    const feed = await openFeed(svc.baseUrl, ticket);
    feed.close();
    await refusedUpgrade(svc.baseUrl, ticket);
    await call(svc.baseUrl, 'GET', `/api/feed/live?ticket=${encodeURIComponent(ticket)}`);
    const feedLines = lines.filter((l) => l.path === '/api/feed/live');
    expect(feedLines.map((l) => l.status)).toEqual([200, 401, 426]);
    expect(feedLines[1]?.code).toBe('unauthorized');
    expect(JSON.stringify(lines)).not.toContain(ticket);
  });
});
