import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogCountBucket, LogCountQuery } from '../../core/store/telemetry/logs';
import { parseAttributeFilters } from '../../domain/read-rules/attribute-filters';
import { seededRandom } from '../../test-support/both-stores';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  NATIVE,
  T0,
  createTenant,
  ingest,
  logItem,
  nativeBody,
  type Tenant,
} from '../../test-support/telemetry';

const HOUR = 3_600_000;
const start = Date.parse(T0);

/**
 * The logs port's count (and `countEach`, many filter sets at once) answers, bucket by bucket, exactly how many logs the list returns
 * for the same filters and range: every filter kind, triage rules (ignored logs and severity
 * overrides), several projects, overlapping buckets and buckets without logs. Runs on the
 * default deployment (ClickHouse) and, with `npm run test:pg`, on PostgreSQL.
 */
describe('counting logs per bucket', () => {
  const { random, pick, chance } = seededRandom(29);
  let svc: RunningService<false>;
  let tenants: Tenant[] = [];
  const TRACES = ['4bf92f3577b34da6a3ce929d0e0e4736', '0af7651916cd43dd8448eb211c80319c'];
  const WORDS = ['Payment', 'gateway', 'Straße', 'timeout', 'retry'];
  // Six hourly buckets, one over all of them, one inside another, and one before every log.
  const BUCKETS: LogCountBucket[] = [
    ...Array.from({ length: 6 }, (_, i) => ({
      start: start + i * HOUR,
      end: start + (i + 1) * HOUR,
    })),
    { start, end: start + 6 * HOUR },
    { start: start + HOUR + 1_000, end: start + 2 * HOUR - 1_000 },
    { start: start - 5 * HOUR, end: start - 4 * HOUR },
  ];

  const logsOf = () =>
    Array.from({ length: 120 }, (_, i) => {
      const attributes: Record<string, unknown> = {};
      if (chance(0.7)) attributes.s = pick(WORDS);
      if (chance(0.6)) attributes.n = pick([0, 1, 5, 200, 404]);
      if (chance(0.5)) attributes.b = chance(0.5);
      return logItem({
        // Some exactly on a bucket's edge.
        occurred_at: new Date(
          start +
            (i % 10 === 0 ? Math.floor(random() * 6) * HOUR : Math.floor(random() * 6 * HOUR)),
        ).toISOString(),
        severity: pick(['debug', 'info', 'warning', 'error']),
        message: `${pick(WORDS)} ${pick(['failed', 'ok'])}`,
        attributes,
        trace_id: chance(0.3) ? pick(TRACES) : undefined,
        ...(chance(0.5) ? { service_name: 'worker' } : {}),
        ...(chance(0.5) ? { release: 'shop@2.0.0' } : {}),
        ...(chance(0.5) ? { environment: 'staging' } : {}),
      });
    });

  beforeAll(async () => {
    svc = await startService();
    tenants = [await createTenant(svc), await createTenant(svc)];
    for (const t of tenants) {
      const logs = logsOf();
      const res = await ingest(svc, NATIVE, t.ingestKey, nativeBody({ logs }));
      expect(res.status, res.text).toBe(200);
      // Triage: one kind of log ignored, another raised to critical.
      const store = svc.deps.store.logs;
      const [ignored, raised] = [logs[0], logs[1]].map((l) => l?.id ?? '');
      await store.setRule({
        projectId: t.projectId,
        logId: ignored ?? '',
        rule: { severity: null, ignored: true },
        at: start,
        by: t.accountId,
      });
      await store.setRule({
        projectId: t.projectId,
        logId: raised ?? '',
        rule: { severity: 'critical', ignored: false },
        at: start,
        by: t.accountId,
      });
    }
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  const none: Omit<LogCountQuery, 'projectIds' | 'buckets'> = {
    severity: null,
    search: null,
    traceId: null,
    serviceName: null,
    release: null,
    environment: null,
    status: 'active',
    attributeFilters: [],
  };
  const attributes = (filters: unknown[]) => ({
    attributeFilters: parseAttributeFilters(JSON.stringify(filters)),
  });
  const CASES: [string, Partial<LogCountQuery>][] = [
    ['no filter', {}],
    ['severity', { severity: 'error' }],
    ['severity raised by a rule', { severity: 'critical' }],
    ['message search', { search: 'PAYMENT' }],
    ['service', { serviceName: 'worker' }],
    ['release', { release: 'shop@2.0.0' }],
    ['environment', { environment: 'staging' }],
    ['trace', { traceId: TRACES[0] ?? null }],
    ['ignored', { status: 'ignored' }],
    ['every status', { status: 'all' }],
    ['string eq', attributes([{ path: '/s', type: 'string', operator: 'eq', value: 'payment' }])],
    [
      'string eq, case-sensitive',
      attributes([
        { path: '/s', type: 'string', operator: 'eq', value: 'Straße', case_sensitive: true },
      ]),
    ],
    ['string ne', attributes([{ path: '/s', type: 'string', operator: 'ne', value: 'retry' }])],
    [
      'string contains',
      attributes([{ path: '/s', type: 'string', operator: 'contains', value: 'OUT' }]),
    ],
    [
      'string starts_with',
      attributes([{ path: '/s', type: 'string', operator: 'starts_with', value: 'ga' }]),
    ],
    ['number gt', attributes([{ path: '/n', type: 'number', operator: 'gt', value: 4 }])],
    ['boolean eq', attributes([{ path: '/b', type: 'boolean', operator: 'eq', value: true }])],
    ['exists', attributes([{ path: '/n', type: 'number', operator: 'exists' }])],
    ['a path never sent', attributes([{ path: '/nope', type: 'string', operator: 'exists' }])],
    [
      'two attribute filters and more',
      {
        severity: 'warning',
        serviceName: 'worker',
        ...attributes([
          { path: '/s', type: 'string', operator: 'exists' },
          { path: '/n', type: 'number', operator: 'lte', value: 5 },
        ]),
      },
    ],
  ];

  it.each(CASES)('agrees with the list: %s', async (_, filters) => {
    const q: LogCountQuery = {
      projectIds: tenants.map((t) => t.projectId),
      ...none,
      ...filters,
      buckets: BUCKETS,
    };
    const listed = await Promise.all(
      BUCKETS.map(
        async (b) =>
          (
            await svc.deps.store.logs.list({
              ...none,
              ...filters,
              projectIds: q.projectIds,
              since: b.start,
              until: b.end,
              after: null,
              limit: 100_000,
            })
          ).length,
      ),
    );
    expect(await svc.deps.store.logs.count(q)).toEqual(listed);
  });

  it('counts every case at once as it counts each alone (alert rules sharing a window)', async () => {
    const projectIds = tenants.map((t) => t.projectId);
    const filters = CASES.map(([, f]) => ({ ...none, ...f }));
    const alone = await Promise.all(
      filters.map((f) => svc.deps.store.logs.count({ ...f, projectIds, buckets: BUCKETS })),
    );
    expect(await svc.deps.store.logs.countEach({ projectIds, buckets: BUCKETS, filters })).toEqual(
      alone,
    );
    // One set, one project, and the edges: no bucket, no project, no set.
    const [severity] = filters.slice(1, 2);
    expect(
      await svc.deps.store.logs.countEach({
        projectIds: projectIds.slice(0, 1),
        buckets: BUCKETS,
        filters: [severity ?? none],
      }),
    ).toEqual([
      await svc.deps.store.logs.count({
        ...(severity ?? none),
        projectIds: projectIds.slice(0, 1),
        buckets: BUCKETS,
      }),
    ]);
    expect(await svc.deps.store.logs.countEach({ projectIds, buckets: [], filters })).toEqual(
      filters.map(() => []),
    );
    expect(
      await svc.deps.store.logs.countEach({ projectIds: [], buckets: BUCKETS, filters: [none] }),
    ).toEqual([BUCKETS.map(() => 0)]);
    expect(
      await svc.deps.store.logs.countEach({ projectIds, buckets: BUCKETS, filters: [] }),
    ).toEqual([]);
  });

  it('counts the matches of every kind, not nothing', async () => {
    // The cases above would agree on zeros too: the data must give most of them logs.
    const q = { projectIds: tenants.map((t) => t.projectId), ...none, buckets: BUCKETS };
    const [, , , , , , all, inner, before] = await svc.deps.store.logs.count(q);
    expect(all).toBeGreaterThan(200);
    expect(inner).toBeGreaterThan(0);
    expect(before).toBe(0);
    expect(
      await svc.deps.store.logs.count({ ...q, status: 'ignored' }).then((c) => c[6]),
    ).toBeGreaterThan(0);
  });

  it('answers zeros for no project and nothing for no bucket', async () => {
    expect(await svc.deps.store.logs.count({ projectIds: [], ...none, buckets: BUCKETS })).toEqual(
      BUCKETS.map(() => 0),
    );
    expect(
      await svc.deps.store.logs.count({
        projectIds: tenants.map((t) => t.projectId),
        ...none,
        buckets: [],
      }),
    ).toEqual([]);
  });
});
