import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type CallOptions } from '../test-support/api-client';
import { addPerson, addTeam, type Person } from '../test-support/issues';
import { startService, type RunningService } from '../test-support/start-service';
import {
  NATIVE,
  SDK,
  sdkBody,
  sdkEvent,
  createTenant,
  ingest,
  issueItem,
  logItem,
  metricItem,
  nativeBody,
  spanItem,
  type Tenant,
} from '../test-support/telemetry';
import type { Store } from '../core/store/store';
import { evaluateDueRules, pendingWindowEnds, windowEndAt } from './alert-evaluator';

type Incident = {
  id: string;
  state: string;
  value: number;
  started_at: string;
  resolved_at: string | null;
  view_url: string;
  window_start: string;
  window_end: string;
};
type Rule = {
  id: string;
  state: string;
  last_evaluated_window_end: string | null;
  last_error: { error: string; next: string; at: string } | null;
};
type Inbox = {
  notifications: { event: string; rule_id: string; incident_id: string }[];
  unread: number;
};

const MINUTE = 60_000;
const silent = { error: () => undefined };

describe('alert evaluation on a controlled clock', () => {
  let svc: RunningService<false>;
  let tenant: Tenant;
  let admin: Person;
  let teammate: Person;
  let team = '';
  let webhookId = '';
  const send = (method: string, path: string, opts: CallOptions = {}) =>
    call(svc.baseUrl, method, path, { token: admin.token, ...opts });
  const evaluate = (holder = 'test-a') =>
    evaluateDueRules({
      store: svc.deps.store,
      now: svc.clock.now,
      log: silent,
      everyMs: MINUTE,
      holder,
    });
  const createRule = async (
    kind: string,
    condition: unknown,
    extra: Record<string, unknown> = {},
  ) => {
    const res = await send('POST', '/api/alerts/rules', {
      json: {
        project_id: tenant.projectId,
        name: `${kind} rule`,
        kind,
        condition,
        notify: { inbox: { user_id: admin.accountId }, webhook_ids: [webhookId] },
        ...extra,
      },
    });
    expect(res.status, res.text).toBe(200);
    return res.body as Rule;
  };
  const incidentsOf = async (ruleId: string) => {
    const res = await send(
      'GET',
      `/api/alerts/incidents?project_id=${tenant.projectId}&rule_id=${ruleId}`,
    );
    expect(res.status, res.text).toBe(200);
    return (res.body as { incidents: Incident[] }).incidents;
  };
  const inboxOf = async (person: Person) =>
    (await call(svc.baseUrl, 'GET', '/api/alerts/notifications', { token: person.token }))
      .body as Inbox;
  const ingestAt = async (items: Parameters<typeof nativeBody>[0]) => {
    const res = await ingest(svc, NATIVE, tenant.ingestKey, nativeBody(items));
    expect(res.status, res.text).toBe(200);
  };
  const iso = (ms: number) => new Date(ms).toISOString();
  /** Moves the clock to the next whole minute plus `plus` ms. */
  const toMinute = (plus = 0) =>
    svc.clock.set(windowEndAt(svc.clock.now(), MINUTE) + MINUTE + plus);
  const deliveries = async () =>
    (
      (await send('GET', `/api/alerts/webhooks/${webhookId}/deliveries?limit=200`)).body as {
        deliveries: { event: string; incident_id: string | null; state: string }[];
      }
    ).deliveries;

  beforeAll(async () => {
    // The clock moves hours through the tests: tokens outlive it.
    svc = await startService({ config: { accessTokenTtlSeconds: 7 * 24 * 3600 } });
    tenant = await createTenant(svc);
    admin = await addPerson(svc, tenant.organizationId, 'admin', 'Ada');
    teammate = await addPerson(svc, tenant.organizationId, 'member', 'Tim');
    team = await addTeam(svc, tenant.organizationId, 'oncall', [
      admin.accountId,
      teammate.accountId,
    ]);
    const hook = await send('POST', '/api/alerts/webhooks', {
      json: {
        organization_id: tenant.organizationId,
        name: 'Receiver',
        url: 'http://127.0.0.1:9/hook',
      },
    });
    webhookId = (hook.body as { id: string }).id;
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  it('lists the windows to catch up, at most the catch-up limit', () => {
    expect(pendingWindowEnds(null, 10 * MINUTE, MINUTE)).toEqual([10 * MINUTE]);
    expect(pendingWindowEnds(7 * MINUTE, 10 * MINUTE, MINUTE)).toEqual(
      [8, 9, 10].map((m) => m * MINUTE),
    );
    expect(pendingWindowEnds(10 * MINUTE, 10 * MINUTE, MINUTE)).toEqual([]);
    expect(pendingWindowEnds(0, 500 * MINUTE, MINUTE)).toHaveLength(60);
  });

  it('fires a log rule once, notifies inbox and webhook, and resolves with hysteresis', async () => {
    const rule = await createRule(
      'log',
      {
        query: { severity: 'error', search: 'gateway' },
        op: 'above',
        threshold: 2,
        window_minutes: 3,
      },
      { resolve_threshold: 0 },
    );
    toMinute(10_000);
    const t = svc.clock.now();
    await ingestAt({
      logs: [0, 1, 2]
        .map(() =>
          logItem({ occurred_at: iso(t - 5_000), severity: 'error', message: 'gateway timeout' }),
        )
        .concat(
          // Not matching: another severity, another message.
          [logItem({ occurred_at: iso(t - 5_000), severity: 'info', message: 'gateway timeout' })],
        ),
    });
    toMinute();
    expect(await evaluate()).toBeGreaterThan(0);
    let incidents = await incidentsOf(rule.id);
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({ state: 'firing', value: 3, resolved_at: null });
    const end = windowEndAt(svc.clock.now(), MINUTE);
    expect(incidents[0]?.window_end).toBe(iso(end));
    expect(incidents[0]?.window_start).toBe(iso(end - 3 * MINUTE));
    expect(incidents[0]?.view_url).toBe(
      `/logs?project=${tenant.projectId}&since=${encodeURIComponent(iso(end - 3 * MINUTE))}&until=${encodeURIComponent(iso(end))}&severity=error&q=gateway`,
    );
    // The same window again records nothing; still breaching a minute later opens nothing new.
    expect(await evaluate()).toBe(0);
    toMinute();
    await evaluate();
    expect(await incidentsOf(rule.id)).toHaveLength(1);
    // 2 logs are at the threshold: not breaching, but not past the resolve threshold (0) either.
    // Four minutes on, the window holds none: resolved, once.
    toMinute();
    toMinute();
    toMinute();
    await evaluate();
    incidents = await incidentsOf(rule.id);
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({ state: 'resolved', value: 0 });
    const inbox = await inboxOf(admin);
    expect(inbox.notifications.filter((n) => n.rule_id === rule.id).map((n) => n.event)).toEqual([
      'resolved',
      'firing',
    ]);
    const sent = (await deliveries()).filter((d) => d.incident_id === incidents[0]?.id);
    expect(sent.map((d) => d.event).sort()).toEqual(['alert.firing', 'alert.resolved']);
    expect(sent.every((d) => d.state === 'pending')).toBe(true);
    const read = (await send('GET', `/api/alerts/rules/${rule.id}`)).body as Rule;
    expect(read).toMatchObject({
      state: 'ok',
      last_evaluated_window_end: iso(windowEndAt(svc.clock.now(), MINUTE)),
    });
  });

  it('keeps firing between the threshold and the resolve threshold (hysteresis)', async () => {
    const rule = await createRule(
      'metric',
      {
        query: { name: 'queue.depth', aggregation: 'max' },
        op: 'above',
        threshold: 100,
        window_minutes: 1,
      },
      { resolve_threshold: 50 },
    );
    const sample = async (value: number) => {
      toMinute(5_000);
      const at = iso(svc.clock.now() - 1_000);
      const res = await ingest(
        svc,
        SDK,
        tenant.ingestKey,
        sdkBody([sdkEvent('metric', metricItem({ name: 'queue.depth', occurred_at: at, value }))]),
      );
      expect(res.status, res.text).toBe(200);
      toMinute();
      await evaluate();
      return (await incidentsOf(rule.id)).map((i) => i.state);
    };
    expect(await sample(150)).toEqual(['firing']);
    expect(await sample(80)).toEqual(['firing']);
    expect(await sample(40)).toEqual(['resolved']);
    expect(await sample(120)).toEqual(['firing', 'resolved']);
  });

  it('catches up missed windows after a pause without firing twice, across instances', async () => {
    const rule = await createRule('log', {
      query: { search: 'disk full' },
      op: 'above',
      threshold: 0,
      window_minutes: 10,
    });
    toMinute(1_000);
    await ingestAt({
      logs: [logItem({ occurred_at: iso(svc.clock.now()), message: 'disk full' })],
    });
    toMinute();
    await evaluate('instance-1');
    // Twenty minutes without evaluation, then another instance (a restart) catches up.
    for (let i = 0; i < 20; i++) toMinute();
    const recorded = await evaluate('instance-2');
    expect(recorded).toBeGreaterThanOrEqual(20);
    await evaluate('instance-1');
    const incidents = await incidentsOf(rule.id);
    expect(incidents).toHaveLength(1);
    // Breached for the ten minutes the log stayed in the window, then resolved during catch-up.
    expect(incidents[0]?.state).toBe('resolved');
    expect(
      Date.parse(incidents[0]?.resolved_at ?? '') - Date.parse(incidents[0]?.started_at ?? ''),
    ).toBe(10 * MINUTE);
  });

  it('evaluates a muted rule without notifying, and a disabled one not at all', async () => {
    const muted = await createRule('log', {
      query: { search: 'muted-thing' },
      op: 'above',
      threshold: 0,
      window_minutes: 2,
    });
    await send('PATCH', `/api/alerts/rules/${muted.id}`, {
      json: { muted_until: iso(svc.clock.now() + 3_600_000) },
    });
    const disabled = await createRule(
      'log',
      { query: { search: 'muted-thing' }, op: 'above', threshold: 0, window_minutes: 2 },
      { enabled: false },
    );
    toMinute(1_000);
    await ingestAt({
      logs: [logItem({ occurred_at: iso(svc.clock.now()), message: 'muted-thing' })],
    });
    toMinute();
    await evaluate();
    const incidents = await incidentsOf(muted.id);
    expect(incidents.map((i) => i.state)).toEqual(['firing']);
    expect((await inboxOf(admin)).notifications.filter((n) => n.rule_id === muted.id)).toEqual([]);
    expect((await deliveries()).filter((d) => d.incident_id === incidents[0]?.id)).toEqual([]);
    expect(await incidentsOf(disabled.id)).toEqual([]);
  });

  it('notifies every member of a team inbox', async () => {
    const res = await send('POST', '/api/alerts/rules', {
      json: {
        project_id: tenant.projectId,
        name: 'Team rule',
        kind: 'log',
        condition: {
          query: { search: 'team-thing' },
          op: 'above',
          threshold: 0,
          window_minutes: 2,
        },
        notify: { inbox: { team_id: team }, webhook_ids: [] },
      },
    });
    const rule = res.body as Rule;
    toMinute(1_000);
    await ingestAt({
      logs: [logItem({ occurred_at: iso(svc.clock.now()), message: 'team-thing' })],
    });
    toMinute();
    await evaluate();
    for (const person of [admin, teammate]) {
      const mine = (await inboxOf(person)).notifications.filter((n) => n.rule_id === rule.id);
      expect(mine.map((n) => n.event)).toEqual(['firing']);
    }
  });

  it('fires trace rules on the error share and the root duration percentile', async () => {
    const share = await createRule('trace', {
      service: 'checkout-api',
      measure: 'error_share',
      op: 'above',
      threshold: 0.5,
      window_minutes: 5,
    });
    const p95 = await createRule('trace', {
      service: 'checkout-api',
      measure: 'p95',
      op: 'above',
      threshold: 1000,
      window_minutes: 5,
    });
    toMinute(2_000);
    const at = iso(svc.clock.now() - 1_000);
    const trace = (n: number, status: string, duration: number) =>
      spanItem({
        trace_id: n.toString(16).padStart(32, 'b'),
        started_at: at,
        status,
        duration_ms: duration,
      });
    await ingestAt({
      trace_spans: [trace(1, 'error', 50), trace(2, 'error', 60), trace(3, 'ok', 70)],
    });
    toMinute();
    await evaluate();
    expect((await incidentsOf(share.id)).map((i) => [i.state, Math.round(i.value * 100)])).toEqual([
      ['firing', 67],
    ]);
    expect(await incidentsOf(p95.id)).toEqual([]);
  });

  it('fires issue rules on new issues, leaving snoozed issues out', async () => {
    const rule = await createRule('issue', {
      event: 'new_issue',
      filters: { environment: 'production' },
    });
    const counted = await createRule('issue', {
      event: 'event_count',
      threshold: 2,
      window_minutes: 5,
      filters: {},
    });
    toMinute(1_000);
    await ingestAt({
      issues: [issueItem({ fingerprint: 'snoozy', occurred_at: iso(svc.clock.now()) })],
    });
    const list = await send('GET', `/api/telemetry/issues?project_id=${tenant.projectId}`);
    const snoozy = (list.body as { id: string; fingerprint: string }[]).find(
      (i) => i.fingerprint === 'snoozy',
    );
    await send('PUT', `/api/alerts/issue-snoozes/${snoozy?.id}`, {
      json: { until: iso(svc.clock.now() + 3_600_000) },
    });
    toMinute();
    await evaluate();
    expect(await incidentsOf(rule.id)).toEqual([]);
    toMinute(1_000);
    const now = iso(svc.clock.now());
    await ingestAt({
      issues: [
        issueItem({ fingerprint: 'fresh', occurred_at: now }),
        ...[0, 1, 2].map(() => issueItem({ fingerprint: 'busy', occurred_at: now })),
      ],
    });
    toMinute();
    await evaluate();
    expect((await incidentsOf(rule.id)).map((i) => [i.state, i.value])).toEqual([['firing', 2]]);
    expect((await incidentsOf(counted.id)).map((i) => [i.state, i.value])).toEqual([['firing', 3]]);
  });

  it('goes on with the other rules when one rule fails, and shows the failure on it', async () => {
    const broken = await createRule('metric', {
      query: { name: 'unreadable.metric', aggregation: 'max' },
      op: 'above',
      threshold: 1,
      window_minutes: 1,
    });
    const healthy = await createRule(
      'log',
      { query: { search: 'starvation probe' }, op: 'above', threshold: 0, window_minutes: 1 },
      { resolve_threshold: 0 },
    );
    // A store whose metric read fails for the broken rule only, which each pass takes first.
    const store = svc.deps.store;
    let failing = true;
    const failingStore: Store = {
      ...store,
      metrics: {
        ...store.metrics,
        series: (q) =>
          failing && q.name === 'unreadable.metric'
            ? Promise.reject(new Error('connection reset by the metrics engine'))
            : store.metrics.series(q),
      },
      alerts: {
        ...store.alerts,
        dueRules: async (now, end, limit) => {
          const due = await store.alerts.dueRules(now, end, limit);
          return [
            ...due.filter((r) => r.id === broken.id),
            ...due.filter((r) => r.id !== broken.id),
          ];
        },
      },
    };
    const errors: string[] = [];
    const evaluateFailing = () =>
      evaluateDueRules({
        store: failingStore,
        now: svc.clock.now,
        log: { error: (m) => errors.push(m) },
        everyMs: MINUTE,
        holder: 'test-a',
      });
    const ruleOf = async (id: string) =>
      (await send('GET', `/api/alerts/rules/${id}`)).body as Rule;

    toMinute(10_000);
    await ingestAt({
      logs: [logItem({ occurred_at: iso(svc.clock.now() - 5_000), message: 'starvation probe' })],
    });
    toMinute();
    await evaluateFailing();
    const failedAt = svc.clock.now();
    // The healthy rule fired in the same pass; the broken one kept its failure, not its progress.
    expect((await incidentsOf(healthy.id)).map((i) => [i.state, i.value])).toEqual([['firing', 1]]);
    expect(await ruleOf(broken.id)).toMatchObject({
      last_evaluated_window_end: null,
      last_error: {
        error: "Reading this rule's metric data failed, so its window was not evaluated.",
        at: iso(failedAt),
      },
    });
    expect((await ruleOf(broken.id)).last_error?.next).toMatch(/tried again/);
    expect((await ruleOf(healthy.id)).last_error).toBeNull();
    expect(errors.join('\n')).toContain('connection reset by the metrics engine');

    // Still failing a minute later: the healthy rule resolves all the same.
    toMinute();
    await evaluateFailing();
    expect((await incidentsOf(healthy.id)).map((i) => [i.state, i.value])).toEqual([
      ['resolved', 0],
    ]);
    // Once the read works again the broken rule records its window and its failure is gone.
    failing = false;
    toMinute();
    await evaluateFailing();
    expect(await ruleOf(broken.id)).toMatchObject({
      last_evaluated_window_end: iso(windowEndAt(svc.clock.now(), MINUTE)),
      last_error: null,
    });
  });

  it('reads log rules sharing a window together, each on its own filters', async () => {
    const rules = await Promise.all(
      (['error', 'warning', 'info'] as const).map((severity) =>
        createRule('log', {
          query: { severity, search: 'grouped probe' },
          op: 'above',
          threshold: 1,
          window_minutes: 2,
        }),
      ),
    );
    // Read whole, the store shows whether the rules were counted together.
    const store = svc.deps.store;
    const sets: number[] = [];
    const countingStore: Store = {
      ...store,
      logs: {
        ...store.logs,
        countEach: (q) => {
          sets.push(q.filters.length);
          return store.logs.countEach(q);
        },
      },
    };
    toMinute(10_000);
    const at = iso(svc.clock.now() - 5_000);
    await ingestAt({
      logs: [
        logItem({ occurred_at: at, severity: 'warning', message: 'grouped probe' }),
        logItem({ occurred_at: at, severity: 'warning', message: 'grouped probe' }),
        logItem({ occurred_at: at, severity: 'info', message: 'grouped probe again' }),
        logItem({ occurred_at: at, severity: 'info', message: 'Grouped Probe' }),
        logItem({ occurred_at: at, severity: 'info', message: 'grouped probe' }),
        logItem({ occurred_at: at, severity: 'error', message: 'grouped probe' }),
        logItem({ occurred_at: at, severity: 'error', message: 'another thing' }),
      ],
    });
    toMinute();
    await evaluateDueRules({
      store: countingStore,
      now: svc.clock.now,
      log: silent,
      everyMs: MINUTE,
      holder: 'test-a',
    });
    expect(Math.max(...sets)).toBeGreaterThanOrEqual(3);
    const [error, warning, info] = await Promise.all(rules.map((r) => incidentsOf(r.id)));
    expect(error).toEqual([]);
    expect(warning?.map((i) => [i.state, i.value])).toEqual([['firing', 2]]);
    expect(info?.map((i) => [i.state, i.value])).toEqual([['firing', 3]]);
  });

  it('reads a group one rule at a time when its read fails, keeping the failure on the bad rule', async () => {
    const good = await Promise.all(
      [1, 2].map((n) =>
        createRule('log', {
          query: { search: `fallback probe ${String(n)}` },
          op: 'above',
          threshold: 0,
          window_minutes: 4,
        }),
      ),
    );
    const bad = await createRule('log', {
      query: { search: 'poisoned probe' },
      op: 'above',
      threshold: 0,
      window_minutes: 4,
    });
    // A read that fails on one rule's filters: the group's read with it, and its own read.
    const store = svc.deps.store;
    const poisoned = (search: string | null) => search === 'poisoned probe';
    const failingStore: Store = {
      ...store,
      logs: {
        ...store.logs,
        countEach: (q) =>
          q.filters.some((f) => poisoned(f.search))
            ? Promise.reject(new Error('query too complex for the engine'))
            : store.logs.countEach(q),
        count: (q) =>
          poisoned(q.search)
            ? Promise.reject(new Error('query too complex for the engine'))
            : store.logs.count(q),
      },
    };
    const errors: string[] = [];
    toMinute(10_000);
    const at = iso(svc.clock.now() - 5_000);
    await ingestAt({
      logs: [
        logItem({ occurred_at: at, message: 'fallback probe 1' }),
        logItem({ occurred_at: at, message: 'fallback probe 2' }),
        logItem({ occurred_at: at, message: 'fallback probe 2' }),
      ],
    });
    toMinute();
    await evaluateDueRules({
      store: failingStore,
      now: svc.clock.now,
      log: { error: (m) => errors.push(m) },
      everyMs: MINUTE,
      holder: 'test-a',
    });
    const [one, two] = await Promise.all(good.map((r) => incidentsOf(r.id)));
    expect(one?.map((i) => [i.state, i.value])).toEqual([['firing', 1]]);
    expect(two?.map((i) => [i.state, i.value])).toEqual([['firing', 2]]);
    const read = async (id: string) => (await send('GET', `/api/alerts/rules/${id}`)).body as Rule;
    for (const r of good) expect((await read(r.id)).last_error).toBeNull();
    expect(await read(bad.id)).toMatchObject({
      last_evaluated_window_end: null,
      last_error: {
        error: "Reading this rule's log data failed, so its window was not evaluated.",
      },
    });
    expect(errors.join('\n')).toMatch(/not read together, reading them one at a time/);
    // Read again without the failure, the bad rule records its window and clears its error.
    await evaluate();
    expect((await read(bad.id)).last_error).toBeNull();
  });
});
