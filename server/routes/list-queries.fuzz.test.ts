import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openapi from '../openapi.json';
import { newId } from '../domain/secrets';
import { call, signIn, type ApiResponse } from '../test-support/api-client';
import {
  PROTO_KEYS,
  expectNoServerErrorAndEnvelope,
  expectRejection,
  assertFuzz,
  fuzzTimeout,
  nastyJson,
  nastyKey,
  nastyString,
  show,
} from '../test-support/fuzz-arbitraries';
import { startService, type RunningService } from '../test-support/start-service';
import {
  NATIVE,
  SDK,
  T0,
  actionItem,
  at,
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
} from '../test-support/telemetry';

/**
 * Property-based tests of every list route's query string (spec "Common read rules" and
 * "Telemetry reads"; the keys of each route come from the committed OpenAPI document): never
 * a 5xx whatever the query; a rejection is the spec's envelope (`422 validation_failed`, or
 * `404 not_found` for an unreadable project); a query broken in one known way is exactly
 * `422 validation_failed` (or `404`); a valid query with any filter text is a `200`.
 *
 * Run counts and time budgets ([runs, ms] per property): with ingest.fuzz.test.ts the suite
 * must end within about 60 s on the project's 2-core machine while other sessions load it
 * (load average 3 to 14 when these were tuned). A read takes 5–40 ms there depending on that
 * load, so at ordinary load the counts are reached (about 25 arbitrary queries per route, as
 * each run picks its route) and on a busier machine the budgets (about 13 s for this file)
 * stop the search earlier. Each run of the suite draws a new seed, so coverage accumulates;
 * LOOKOUT_FUZZ_RUNS=<n> soaks (1,500 runs per property passed when this was written).
 */
const RUNS = {
  arbitraryQuery: [500, 6_000],
  knownInvalid: [300, 4_000],
  validFilters: [150, 3_000],
} as const;

type Svc = RunningService<false>;
type Param = { name: string; in: string; required?: boolean; schema?: { enum?: string[] } };

/** The list routes under test: spec "Reads" list table, deployments, activity, notifications, analytics reads, and a few more GET reads with query keys. */
const ROUTES = [
  '/api/logs',
  '/api/logs/attributes',
  '/api/telemetry/issues',
  '/api/telemetry/issues/{issue_id}/events',
  '/api/telemetry/actions',
  '/api/telemetry/metrics',
  '/api/telemetry/metrics/series',
  '/api/telemetry/releases',
  '/api/telemetry/traces',
  '/api/telemetry/summary/volume',
  '/api/telemetry/deployments',
  '/api/telemetry/issues/{issue_id}/activity',
  '/api/telemetry/issues/notifications',
  '/api/telemetry/analytics/overview',
  '/api/telemetry/analytics/properties',
  '/api/telemetry/issues/histograms',
  '/api/telemetry/issues/assignees',
  '/api/account/usage',
  '/api/account/usage/history',
] as const;
type RoutePath = (typeof ROUTES)[number];

type RouteSpec = { path: RoutePath; keys: Param[] };

const paths = (openapi as unknown as { paths: Record<string, { get?: { parameters?: Param[] } }> })
  .paths;
const SPECS: RouteSpec[] = ROUTES.map((path) => {
  const get = paths[path]?.get;
  if (!get) throw new Error(`${path} is not a GET route of the OpenAPI document`);
  return { path, keys: (get.parameters ?? []).filter((p) => p.in === 'query') };
});
const hasKey = (spec: RouteSpec, key: string) => spec.keys.some((k) => k.name === key);

/** Keys no route accepts: aliases the spec names, paging words, prototype names. */
const FOREIGN_KEYS = [
  'project',
  'trace',
  'user',
  'page',
  'page_number',
  'cursor',
  'offset',
  ...PROTO_KEYS,
];

// ---------------------------------------------------------------------------------------------
// Query strings

/**
 * Percent-encodes a string for a query; a lone surrogate becomes the bytes WTF-8 gives it,
 * which no UTF-8 decoder accepts (so the service must refuse it, not crash on it).
 */
function enc(s: string): string {
  let out = '';
  let run = '';
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (c >= 0xd800 && c <= 0xdfff && !pair) {
      out += encodeURIComponent(run);
      run = '';
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else if (pair) {
      run += s.slice(i, i + 2);
      i += 1;
    } else run += s[i];
  }
  return out + encodeURIComponent(run);
}

/** One piece of a query string: a pair (encoded here) or raw text sent as it is. */
type Piece = { key: string; value: string | null } | { raw: string };

const render = (pieces: readonly Piece[]) =>
  pieces
    .map((p) =>
      'raw' in p ? p.raw : p.value === null ? enc(p.key) : `${enc(p.key)}=${enc(p.value)}`,
    )
    .join('&');

/** Raw fragments: malformed percent-encoding, stray separators, `+` for space. */
const rawFragment = fc.constantFrom(
  '%',
  '%%',
  '%zz=1',
  'limit=%',
  'limit=%E0%A4%A',
  'since=%ED%A0%80',
  '%C0%AF=1',
  '=',
  '==',
  '=x',
  '&',
  'since=24h=7d',
  'limit=1+0',
  'search=a+b',
  'release=%00',
  'project_id=%20',
  '__proto__[x]=1',
  'a[]=1',
  '#',
  'since=24h#frag',
  '?',
);

// ---------------------------------------------------------------------------------------------

describe('list query strings (fuzz)', () => {
  let svc: Svc;
  let tenant: Tenant;
  let other: Tenant;
  let token = '';
  let projectB = '';
  let issueId = '';
  const unhandled: string[] = [];

  beforeAll(async () => {
    svc = await startService({
      log: { info: () => undefined, error: (m, f) => unhandled.push(`${m} ${JSON.stringify(f)}`) },
    });
    tenant = await createTenant(svc, { tier: 'scale', password: 'fuzz-password-2' });
    other = await createTenant(svc);
    token = (await signIn(svc.baseUrl, tenant.email, tenant.password)).accessToken;
    projectB = newId();
    await svc.deps.store.projects.create({
      id: projectB,
      organizationId: tenant.organizationId,
      slug: 'fuzz-b',
      name: 'Fuzz B',
      createdAt: svc.clock.now(),
    });

    // Some of everything, so reads have rows to filter, page and bucket.
    const attrs = { http: { status: 503 }, user: { plan: 'pro' }, flag: true, 'a/b': 'x~y' };
    const native = nativeBody({
      logs: [0, 1, 2, 3].map((n) =>
        logItem({
          occurred_at: at(n * 60_000),
          attributes: attrs,
          severity: n % 2 ? 'error' : 'info',
        }),
      ),
      issues: [issueItem({ occurred_at: at(0) }), issueItem({ occurred_at: at(1000) })],
      trace_spans: [spanItem(), spanItem({ status: 'error', duration_ms: 900 })],
      actions: [actionItem({ kind: 'page_view', name: 'Home' }), actionItem({ name: 'Checkout' })],
    });
    expect((await ingest(svc, NATIVE, tenant.ingestKey, native)).status).toBe(200);
    const metrics = sdkBody([
      sdkEvent('metric', metricItem()),
      sdkEvent('metric', metricItem({ occurred_at: at(60_000) })),
    ]);
    expect((await ingest(svc, SDK, tenant.ingestKey, metrics)).status).toBe(200);
    const deployment = await call(svc.baseUrl, 'PUT', '/api/telemetry/deployments/fuzz-1', {
      token,
      json: {
        project_id: tenant.projectId,
        release: 'shop@1.0.0',
        environment: 'production',
        service_name: 'checkout-api',
        status: 'succeeded',
        started_at: T0,
        finished_at: at(60_000),
      },
    });
    expect(deployment.status, deployment.text).toBeLessThan(300);
    const issues = await call(
      svc.baseUrl,
      'GET',
      `/api/telemetry/issues?project_id=${tenant.projectId}`,
      {
        token,
      },
    );
    issueId = (issues.body as { id: string }[])[0]?.id ?? '';
    expect(issueId).not.toBe('');
  }, 30_000);
  afterAll(async () => {
    await svc?.close();
  });
  afterAll(() => {
    // Anything logged as an unhandled error is a 500 some property should have caught.
    expect(unhandled).toEqual([]);
  });

  const urlOf = (spec: RouteSpec, query: string) =>
    `${spec.path.replace('{issue_id}', issueId)}${query === '' ? '' : `?${query}`}`;
  const get = (spec: RouteSpec, query: string): Promise<ApiResponse> =>
    call(svc.baseUrl, 'GET', urlOf(spec, query), { token });

  /** A query each route answers with 200: its required keys with valid values. */
  const baseQuery = (spec: RouteSpec): Piece[] => {
    const p = tenant.projectId;
    switch (spec.path) {
      case '/api/logs/attributes':
      case '/api/telemetry/summary/volume':
        return [{ key: 'since', value: '24h' }];
      case '/api/telemetry/metrics/series':
        return [
          { key: 'project_id', value: p },
          { key: 'name', value: 'web.vitals.lcp' },
          { key: 'since', value: '24h' },
        ];
      case '/api/telemetry/analytics/overview':
      case '/api/telemetry/analytics/properties':
        return [
          { key: 'project_id', value: p },
          { key: 'since', value: '24h' },
        ];
      case '/api/telemetry/issues/histograms':
        return [
          { key: 'issue_ids', value: issueId },
          { key: 'since', value: '24h' },
        ];
      case '/api/telemetry/issues/assignees':
        return [{ key: 'project_id', value: p }];
      default:
        return [];
    }
  };

  // -------------------------------------------------------------------------------------------
  // Values a key may plausibly carry (valid ones, near misses and nasty strings)

  const rfc3339 = fc
    .integer({ min: Date.parse('2025-01-01T00:00:00Z'), max: Date.parse('2025-03-10T00:00:00Z') })
    .chain((ms) =>
      fc.constantFrom(
        new Date(ms).toISOString(),
        new Date(ms).toISOString().replace('Z', '+02:00'),
        new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        new Date(ms).toISOString().toLowerCase(),
      ),
    );
  const digits = fc.oneof(
    fc.nat({ max: 2_000 }).map(String),
    fc.constantFrom(
      '0',
      '00',
      '-1',
      '1.5',
      '1e3',
      ' 1',
      '1 ',
      '+1',
      '0x10',
      '9'.repeat(30),
      '1000001',
    ),
  );
  const hex = (n: number) =>
    fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: n, maxLength: n });

  function valueFor(spec: RouteSpec, key: string): fc.Arbitrary<string> {
    const projects = [tenant.projectId, projectB, other.projectId, tenant.projectId.toUpperCase()];
    const uuid = fc.oneof(fc.constantFrom(...projects, issueId), fc.uuid());
    const param = spec.keys.find((k) => k.name === key);
    const enumValues = param?.schema?.enum;
    const plausible: fc.Arbitrary<string> = enumValues
      ? fc.oneof(
          fc.constantFrom(...enumValues),
          fc.constantFrom(...enumValues).map((v) => v.toUpperCase()),
        )
      : key === 'project_id' || key === 'cursor_id' || key === 'cursor_project_id'
        ? uuid
        : key === 'project_ids' || key === 'issue_ids'
          ? fc.array(uuid, { minLength: 0, maxLength: 55 }).map((ids) => ids.join(','))
          : key === 'since'
            ? fc.oneof(
                fc.constantFrom(
                  '24h',
                  '7d',
                  '1h',
                  '30d',
                  '31d',
                  '32d',
                  '999999d',
                  '1000000d',
                  '0h',
                  '-1h',
                  '24H',
                  '1.5h',
                  'h',
                ),
                rfc3339,
              )
            : key === 'until' || key === 'cursor_time'
              ? rfc3339
              : key === 'limit' ||
                  key === 'top_limit' ||
                  key === 'series_limit' ||
                  key === 'min_duration_ms' ||
                  key === 'cursor_observed_count' ||
                  key === 'buckets' ||
                  key === 'response_version'
                ? digits
                : key === 'pagination'
                  ? fc.constantFrom('cursor', 'Cursor', 'offset', '')
                  : key === 'trace_id' || key === 'cursor_trace_id'
                    ? fc.oneof(hex(32), hex(31), fc.constant('A'.repeat(32)))
                    : key === 'attribute_filters'
                      ? attributeFilters
                      : key === 'assignee'
                        ? fc.oneof(
                            fc.constantFrom('me', 'none', 'my_teams', 'team:', 'team:x'),
                            uuid,
                            uuid.map((u) => `team:${u}`),
                          )
                        : key === 'level' || key === 'severity'
                          ? fc.constantFrom(
                              'trace',
                              'debug',
                              'info',
                              'warn',
                              'warning',
                              'error',
                              'fatal',
                              'critical',
                              'INFO',
                            )
                          : fc.constantFrom(
                              'shop@1.0.0',
                              'production',
                              'checkout-api',
                              'web.vitals.lcp',
                              'checkout_started',
                              'user-1',
                              '/http/status',
                              'http',
                              'string',
                            );
    return fc.oneof({ weight: 4, arbitrary: plausible }, { weight: 1, arbitrary: nastyString });
  }

  /** `attribute_filters`: arrays of filters that are nearly right, and anything else. */
  const attributeFilter = fc.record(
    {
      path: fc.oneof(
        fc.constantFrom('/http/status', '/user/plan', '/flag', '/a~1b', '/', '', 'http'),
        nastyString,
      ),
      type: fc.oneof(fc.constantFrom('string', 'number', 'boolean'), nastyString),
      operator: fc.oneof(
        fc.constantFrom('eq', 'ne', 'contains', 'starts_with', 'exists', 'gt', 'gte', 'lt', 'lte'),
        nastyString,
      ),
      value: nastyJson,
      case_sensitive: fc.oneof(fc.boolean(), nastyJson),
    },
    { requiredKeys: ['path', 'type', 'operator'] },
  );
  const attributeFilters = fc.oneof(
    fc.array(attributeFilter, { maxLength: 6 }).map((a) => JSON.stringify(a)),
    nastyJson.map((v) => JSON.stringify(v) ?? 'null'),
    fc.constantFrom('[', '[]', '{}', '[{}]', `[${'['.repeat(5_000)}${']'.repeat(5_000)}]`),
  );

  /** One query piece for a route: mostly its own keys, sometimes a foreign key or raw text. */
  const pieceFor = (spec: RouteSpec): fc.Arbitrary<Piece> => {
    const own = spec.keys.map((k) => k.name);
    const ownPair: fc.Arbitrary<Piece>[] = own.map((key) =>
      fc.oneof(
        { weight: 6, arbitrary: valueFor(spec, key).map((value) => ({ key, value }) as Piece) },
        { weight: 1, arbitrary: fc.constant({ key, value: null } as Piece) },
      ),
    );
    return fc.oneof(
      {
        weight: 10,
        arbitrary: own.length > 0 ? fc.oneof(...ownPair) : fc.constant({ raw: '' } as Piece),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.oneof(fc.constantFrom(...FOREIGN_KEYS), nastyKey), nastyString)
          .map(([key, value]) => ({ key, value }) as Piece),
      },
      { weight: 1, arbitrary: rawFragment.map((raw) => ({ raw }) as Piece) },
    );
  };

  // Routes and breakings are drawn by name, so a counterexample prints short.
  const specOf = (path: RoutePath) => SPECS.find((s) => s.path === path) as RouteSpec;
  const pathArb = fc.constantFrom(...ROUTES);
  /** Noise short enough that the request head stays under Node's 16 KiB limit. */
  const shortNoise = nastyString.map((s) => s.slice(0, 300));

  // -------------------------------------------------------------------------------------------

  it.each(SPECS.map((s) => [s.path, s] as const))(
    '%s: the base query of the properties below is a 200',
    async (_p, spec) => {
      const res = await get(spec, render(baseQuery(spec)));
      expect(res.status, res.text.slice(0, 300)).toBe(200);
    },
  );

  it(
    'any query string on any list route: never 5xx; a rejection is 422 validation_failed or 404 not_found in the envelope',
    async () => {
      const query = pathArb.chain((path) => {
        const spec = specOf(path);
        return fc.tuple(
          fc.constant(path),
          fc.oneof(
            // The route's required keys first, so the rest reaches past them.
            fc.array(pieceFor(spec), { maxLength: 6 }).map((ps) => [...baseQuery(spec), ...ps]),
            fc.array(pieceFor(spec), { maxLength: 8 }),
          ),
        );
      });
      await assertFuzz(
        fc.asyncProperty(query, async ([path, pieces]) => {
          const spec = specOf(path);
          const q = render(pieces);
          const res = await get(spec, q);
          const url = urlOf(spec, q);
          const why = `GET ${url.slice(0, 2_000)}`;
          // A request head over 16 KiB is refused by server/http/client-error.ts, in the envelope.
          expectNoServerErrorAndEnvelope(res, [404, 422], why);
          if (res.status === 404) {
            // Only an unreadable project (or issue) in the scope may make a read 404.
            expect(q, why).toMatch(/project_id|issue_ids/);
          }
          if (res.status === 200) {
            expect(res.headers.get('content-type') ?? '', why).toMatch(/^application\/json/);
            expect(res.body, why).toBeTypeOf('object');
          }
        }),
        ...RUNS.arbitraryQuery,
      );
    },
    fuzzTimeout(60_000),
  );

  // -------------------------------------------------------------------------------------------
  // Known-invalid queries: the base query broken in exactly one way.

  type Breaking = {
    name: string;
    /** Whether the route can be broken this way. */
    applies: (spec: RouteSpec) => boolean;
    /** The broken query, given a nasty string for variety. */
    build: (spec: RouteSpec, base: Piece[], noise: string, pick: number) => Piece[];
    status?: 404 | 422;
    /** A prefix the error text must start with. */
    text?: string;
  };

  const without = (base: Piece[], key: string) =>
    base.filter((p) => !('key' in p) || p.key !== key);
  const ownKeys = (spec: RouteSpec) => spec.keys.map((k) => k.name);
  const SPEC_LIMIT_ROUTES = (spec: RouteSpec) => hasKey(spec, 'limit');

  const BREAKINGS: Breaking[] = [
    {
      name: 'an unknown key',
      applies: () => true,
      build: (spec, base, noise) => {
        const key = ownKeys(spec).includes(noise) || noise === '' ? `x_${noise}` : noise;
        return [...base, { key, value: '1' }];
      },
      text: 'invalid query parameters',
    },
    {
      name: 'an alias or foreign key',
      applies: () => true,
      build: (_s, base, _n, pick) => [
        ...base,
        { key: FOREIGN_KEYS[pick % FOREIGN_KEYS.length] ?? 'project', value: '1' },
      ],
      text: 'invalid query parameters',
    },
    {
      name: 'a repeated key',
      applies: (spec) => spec.keys.length > 0,
      build: (spec, base, _n, pick) => {
        const sent = base.filter(
          (p): p is { key: string; value: string } => 'key' in p && p.value !== null,
        );
        const one = sent[pick % Math.max(1, sent.length)];
        if (one) return [...base, one];
        const key = ownKeys(spec)[pick % spec.keys.length] ?? 'limit';
        return [...base, { key, value: '' }, { key, value: '' }];
      },
      text: 'invalid query parameters',
    },
    {
      name: 'malformed percent-encoding',
      applies: () => true,
      build: (_s, base, _n, pick) => [
        ...base,
        {
          raw: ['x=%', '%zz=1', 'x=%E0%A4%A', 'x=%ED%A0%80', '%C0%AF=1', 'x=%FF'][pick % 6] ?? '%',
        },
      ],
      text: 'invalid query parameters',
    },
    {
      name: 'a lone surrogate in a value',
      applies: (spec) => spec.keys.length > 0,
      build: (spec, base, _n, pick) => {
        const key = ownKeys(spec)[pick % spec.keys.length] ?? 'limit';
        return [...without(base, key), { key, value: `a\ud800b` }];
      },
      text: 'invalid query parameters',
    },
    {
      name: 'a limit that is not a positive integer',
      applies: SPEC_LIMIT_ROUTES,
      build: (_s, base, _n, pick) => [
        ...without(base, 'limit'),
        {
          key: 'limit',
          value: ['0', '-1', 'abc', '1.5', '', ' 1', '1e3', '+5', '0x10', '00'][pick % 10] ?? '0',
        },
      ],
    },
    {
      name: 'a since that is neither <n>h, <n>d nor RFC3339',
      applies: (spec) => hasKey(spec, 'since'),
      build: (_s, base, noise, pick) => {
        const bad = [
          'yesterday',
          '0h',
          '-1d',
          '24',
          '1.5h',
          '2025-02-30T00:00:00Z',
          '2025-03-03 09:00:00Z',
          '24 h',
        ];
        const value =
          /^(\d{1,6}[hd]|\d{4}-)/.test(noise) || noise === ''
            ? (bad[pick % bad.length] ?? 'x')
            : noise;
        return [...without(base, 'since'), { key: 'since', value }];
      },
    },
    {
      name: 'an until not later than since',
      applies: (spec) => hasKey(spec, 'until') && hasKey(spec, 'since'),
      build: (spec, base, _n, pick) => [
        ...without(without(base, 'since'), 'until'),
        { key: 'since', value: '2025-03-03T08:00:00.000Z' },
        // Equal is refused too, except by the deployment list, whose range includes both ends.
        {
          key: 'until',
          value:
            pick % 2 && spec.path !== '/api/telemetry/deployments'
              ? '2025-03-03T08:00:00.000Z'
              : '2025-03-03T07:59:59.999Z',
        },
      ],
    },
    {
      name: 'pagination other than cursor',
      applies: (spec) => hasKey(spec, 'pagination'),
      build: (_s, base, noise) => [
        ...base,
        { key: 'pagination', value: noise === 'cursor' ? 'page' : noise },
      ],
    },
    {
      name: 'a cursor field without pagination=cursor',
      applies: (spec) => hasKey(spec, 'pagination') && hasKey(spec, 'cursor_time'),
      build: (_s, base) => [...base, { key: 'cursor_time', value: '2025-03-03T08:00:00.000Z' }],
    },
    {
      name: 'an incomplete cursor',
      applies: (spec) =>
        hasKey(spec, 'cursor_time') &&
        spec.keys.some((k) => k.name !== 'cursor_time' && k.name.startsWith('cursor_')),
      build: (spec, base) => [
        ...base,
        ...(hasKey(spec, 'pagination') ? [{ key: 'pagination', value: 'cursor' }] : []),
        { key: 'cursor_time', value: '2025-03-03T08:00:00.000Z' },
      ],
    },
    {
      name: 'a project_id that is not a UUID',
      applies: (spec) => hasKey(spec, 'project_id'),
      build: (_s, base, noise) => [
        ...without(base, 'project_id'),
        { key: 'project_id', value: /^[0-9a-f-]{36}$/i.test(noise) ? `${noise}0` : noise },
      ],
    },
    {
      name: 'project_id and project_ids together',
      applies: (spec) => hasKey(spec, 'project_ids'),
      build: (_s, base) => [
        ...without(base, 'project_id'),
        { key: 'project_id', value: tenant.projectId },
        { key: 'project_ids', value: `${tenant.projectId},${projectB}` },
      ],
    },
    {
      name: 'project_ids of one id, a repeated id, more than 50 or a non-UUID',
      applies: (spec) => hasKey(spec, 'project_ids'),
      build: (_s, base, noise, pick) => {
        const p = tenant.projectId;
        const sets = [
          p,
          `${p},${p}`,
          `${p},${p.toUpperCase()}`,
          Array.from({ length: 51 }, () => newId()).join(','),
          `${p},${/^[0-9a-f-]{36}$/i.test(noise) ? 'x' : noise}`,
          `${p},,${projectB}`,
          '',
        ];
        return [...base, { key: 'project_ids', value: sets[pick % sets.length] ?? p }];
      },
    },
    {
      name: 'project_ids naming a project the account cannot read',
      applies: (spec) => hasKey(spec, 'project_ids'),
      build: (_s, base, _n, pick) => [
        ...base,
        {
          key: 'project_ids',
          value: pick % 2 ? `${tenant.projectId},${other.projectId}` : `${newId()},${projectB}`,
        },
      ],
      status: 404,
    },
    {
      name: 'an enum key with a value outside it',
      applies: (spec) => spec.keys.some((k) => k.schema?.enum),
      build: (spec, base, _n, pick) => {
        const enums = spec.keys.filter((k) => k.schema?.enum);
        const k = enums[pick % enums.length] as Param;
        const first = k.schema?.enum?.[0] ?? 'x';
        return [
          ...without(base, k.name),
          { key: k.name, value: pick % 3 === 0 ? `${first}x` : pick % 3 === 1 ? ` ${first}` : '' },
        ];
      },
    },
    {
      name: 'a blank exact filter',
      applies: (spec) => hasKey(spec, 'service_name'),
      build: (_s, base, _n, pick) => [
        ...base,
        {
          key: ['service_name', 'release', 'environment'][pick % 3] ?? 'release',
          value: ['', ' ', '\t'][pick % 3] ?? '',
        },
      ],
    },
  ];

  it(
    'a valid query broken in one known way is exactly 422 validation_failed (404 for an unreadable project set)',
    async () => {
      const cases = fc.tuple(pathArb, fc.nat(), shortNoise).chain(([path, pick, noise]) => {
        const spec = specOf(path);
        const fitting = BREAKINGS.filter((b) => b.applies(spec)).map((b) => b.name);
        return fc.constantFrom(...fitting).map((breaking) => ({ path, breaking, pick, noise }));
      });
      await assertFuzz(
        fc.asyncProperty(cases, async ({ path, breaking, pick, noise }) => {
          const spec = specOf(path);
          const b = BREAKINGS.find((x) => x.name === breaking) as Breaking;
          const q = render(b.build(spec, baseQuery(spec), noise, pick));
          const res = await get(spec, q);
          const why = `${b.name}: GET ${urlOf(spec, q).slice(0, 1_000)}`;
          const status = b.status ?? 422;
          expectRejection(res, status, status === 404 ? 'not_found' : 'validation_failed', why);
          if (b.text)
            expect((res.body as { error: string }).error, why).toMatch(new RegExp(`^${b.text}`));
        }),
        ...RUNS.knownInvalid,
      );
    },
    fuzzTimeout(60_000),
  );

  /** Valid `attribute_filters` (README "Attribute filter operators"): 1 to 4, any path text. */
  const pointerToken = fc
    .string({ unit: 'grapheme', maxLength: 12 })
    .map((t) => t.replace(/~/g, '~0').replace(/\//g, '~1'));
  const pointer = fc
    .oneof(
      fc.constantFrom('/http/status', '/user/plan', '/flag', '/a~1b', '/'),
      fc.array(pointerToken, { minLength: 1, maxLength: 3 }).map((ts) => `/${ts.join('/')}`),
    )
    .filter((p) => Buffer.byteLength(p) <= 256);
  const filterValueText = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });
  const validFilter = fc.oneof(
    fc.record(
      {
        path: pointer,
        type: fc.constant('string'),
        operator: fc.constantFrom('eq', 'ne', 'contains', 'starts_with'),
        value: filterValueText,
        case_sensitive: fc.boolean(),
      },
      { requiredKeys: ['path', 'type', 'operator', 'value'] },
    ),
    fc.record({
      path: pointer,
      type: fc.constant('number'),
      operator: fc.constantFrom('eq', 'ne', 'gt', 'gte', 'lt', 'lte'),
      value: fc.oneof(
        fc.integer(),
        fc.double({ min: -9007199254740992, max: 9007199254740992, noNaN: true }),
      ),
    }),
    fc.record({
      path: pointer,
      type: fc.constant('boolean'),
      operator: fc.constantFrom('eq', 'ne'),
      value: fc.boolean(),
    }),
    fc.record({
      path: pointer,
      type: fc.constantFrom('string', 'number', 'boolean'),
      operator: fc.constant('exists'),
    }),
  );
  const validAttributeFilters = fc
    .array(validFilter, { minLength: 1, maxLength: 4 })
    .map((fs) => JSON.stringify(fs))
    .filter((json) => Buffer.byteLength(json) <= 4096)
    .map((value) => ({ key: 'attribute_filters', value }) as Piece);

  it(
    'a valid query with any exact-filter text, any positive limit and valid enum values is a 200',
    async () => {
      // Exact filters are compared as sent; any non-blank text up to 256 characters (the
      // analytics bound) without lone surrogates is a valid value; so is any log search text
      // and any well-formed set of attribute filters.
      const filterText = fc
        .string({ unit: 'grapheme', minLength: 1, maxLength: 60 })
        .filter((s) => s.trim() !== '' && s.length <= 256);
      const cases = pathArb.chain((path) => {
        const spec = specOf(path);
        const extras: fc.Arbitrary<Piece>[] = [];
        for (const k of spec.keys) {
          if (baseQuery(spec).some((p) => 'key' in p && p.key === k.name)) continue;
          if (
            ['service_name', 'release', 'environment', 'distinct_id'].includes(k.name) ||
            (k.name === 'name' && spec.path !== '/api/telemetry/metrics/series')
          )
            extras.push(filterText.map((value) => ({ key: k.name, value })));
          else if (k.name === 'attribute_filters') extras.push(validAttributeFilters);
          else if (k.name === 'search' && spec.path === '/api/logs')
            extras.push(filterText.map((value) => ({ key: 'search', value })));
          else if (k.name === 'limit')
            extras.push(
              fc.integer({ min: 1, max: 100 }).map((n) => ({ key: 'limit', value: String(n) })),
            );
          // (`interval` is left out: a fine one over the base range can exceed 500 buckets.)
          else if (k.schema?.enum && !k.name.startsWith('cursor_') && k.name !== 'interval')
            extras.push(fc.constantFrom(...k.schema.enum).map((value) => ({ key: k.name, value })));
        }
        return fc.tuple(
          fc.constant(path),
          extras.length === 0
            ? fc.constant([] as Piece[])
            : fc.subarray(extras).chain((arbs) => fc.tuple(...arbs)),
          fc.boolean(),
        );
      });
      await assertFuzz(
        fc.asyncProperty(cases, async ([path, extra, shuffle]) => {
          const spec = specOf(path);
          const pieces = [...baseQuery(spec), ...(extra as Piece[])];
          // Query-string order does not matter.
          const q = render(shuffle ? pieces.reverse() : pieces);
          const res = await get(spec, q);
          const why = `GET ${urlOf(spec, q).slice(0, 1_000)}`;
          expect(res.status, `${why}\n→ ${res.text.slice(0, 300)}`).toBe(200);
          expect(res.body, why).toBeTypeOf('object');
        }),
        ...RUNS.validFilters,
      );
    },
    fuzzTimeout(60_000),
  );

  it('the generators reach every route (a route missing from the OpenAPI document fails here)', () => {
    expect(SPECS.map((s) => s.path)).toEqual([...ROUTES]);
    expect(show(SPECS.map((s) => s.keys.length))).not.toBe('');
  });
});
