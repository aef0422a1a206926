import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEVERITY_INPUTS } from '../../domain/severity';
import { newId } from '../../domain/secrets';
import { SPAN_KINDS } from '../../domain/span-kind';
import { call, signIn, type ApiResponse } from '../../test-support/api-client';
import {
  PROTO_KEYS,
  deeplyNested,
  expectNoServerErrorAndEnvelope,
  expectRejection,
  assertFuzz,
  fuzzTimeout,
  nastyJson,
  nastyKey,
  nastyString,
  ownObject,
  show,
  weirdNumber,
} from '../../test-support/fuzz-arbitraries';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  NATIVE,
  SDK,
  addIngestKey,
  createTenant,
  idCounts as storedIdCounts,
  tableCounts,
  usageOf,
  type TelemetryTable,
  type Tenant,
} from '../../test-support/telemetry';

/**
 * Property-based tests of the two ingest bodies (README "Sending telemetry"): whatever the
 * body, never a 5xx; every rejection is the spec's envelope with the status and code of its
 * kind of mistake; a rejected request stores nothing and counts no usage; a valid batch is
 * stored once and re-sending it is all `already_accepted`.
 *
 * Run counts and time budgets ([runs, ms] per property): the whole fuzz suite (this file and
 * list-queries.fuzz.test.ts) must end within about 60 s on the project's 2-core machine while
 * other sessions load it (load average 3 to 14 when these were tuned). One rejected ingest
 * with the store snapshots around it takes 10–50 ms there and an accepted batch with its
 * read-back and re-send 100–250 ms, so these counts fit their budgets at ordinary load and the
 * budgets (about 20 s for this file) cap them when the machine is busier. Each run of the
 * suite draws a new seed, so coverage accumulates across runs; LOOKOUT_FUZZ_RUNS=<n> soaks
 * (200 runs per property passed when this was written).
 */
const RUNS = {
  arbitraryBody: [100, 2_000],
  rawBody: [80, 1_000],
  badUtf8: [40, 700],
  knownInvalid: [50, 1_500],
  validRoundTrip: [15, 2_000],
  deepNesting: [12, 1_000],
  otherProject: [8, 400],
  tooMany: [1, 1_000],
} as const;

type Svc = RunningService<false>;
type Route = typeof NATIVE | typeof SDK;
type Counts = Record<string, number>;

/** Every possible rejection status on the ingest routes (429 only if a quota were hit). */
const INGEST_REJECTIONS = [400, 401, 413, 415, 422, 429] as const;

const CLOCK = Date.parse('2025-03-03T09:00:00.000Z');

// ---------------------------------------------------------------------------------------------
// Valid items

/** Cuts a string to at most `max` UTF-16 units without splitting a surrogate pair. */
function fit(s: string, max: number): string {
  if (s.length <= max) return s;
  let out = '';
  for (const ch of s) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

/** Well-formed Unicode text of `min` to `max` UTF-16 units (the service's length unit). */
const text = (min: number, max: number) =>
  fc
    .oneof(
      fc.string({ unit: 'grapheme', minLength: min, maxLength: max }),
      fc.string({ unit: 'binary', minLength: min, maxLength: max }),
      fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: max }),
    )
    .map((s) => fit(s, max))
    .filter((s) => s.length >= min);

const nonBlank = (max: number) =>
  text(1, max).map((s) => (s.trim() === '' ? fit(`x${s}`, max) : s));

const hex = (n: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: n, maxLength: n });

/** A time within a week around the test clock, in the RFC3339 forms the schema accepts. */
const timestamp = fc
  .integer({ min: CLOCK - 7 * 86_400_000, max: CLOCK + 3_600_000 })
  .chain((ms) =>
    fc.constantFrom(
      new Date(ms).toISOString(),
      new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      new Date(ms).toISOString().replace('Z', '123Z'),
    ),
  );

const severityFields = fc.oneof(
  fc.constant({}),
  fc.constantFrom(...SEVERITY_INPUTS).map((severity) => ({ severity })),
  fc.constantFrom(...SEVERITY_INPUTS).map((level) => ({ level })),
  fc.constantFrom(...SEVERITY_INPUTS).map((s) => ({ severity: s, level: s })),
);

/**
 * Attribute keys a JSON object can carry and the store must keep (prototype names too).
 * `__proto__` is refused by every JSON body (server/http/reserved-json-key.ts), so a valid
 * batch never has it, even by chance from the string generator.
 */
const attributeKey = fc.oneof(
  text(0, 12).filter((k) => k !== '__proto__'),
  fc.constantFrom(...PROTO_KEYS.filter((k) => k !== '__proto__'), 'a/b', 'a~b', '', ' ', '.'),
);

/** Attribute values: strings, numbers, booleans, null, nested objects and arrays. */
const attributeValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    text(0, 40),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.array(fc.tuple(attributeKey, tie('v')), { maxLength: 3 }).map(ownObject),
  ),
})).v;

const attributes = fc
  .array(fc.tuple(attributeKey, attributeValue), { maxLength: 5 })
  .map(ownObject);

const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const context = fc.record({
  release: optional(nonBlank(200)),
  environment: optional(nonBlank(200)),
  service_name: optional(nonBlank(200)),
});

/** Drops the keys whose value is undefined (JSON would drop them anyway). */
const compact = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const traceLink = fc.oneof(
  fc.constant({}),
  fc.record({ trace_id: hex(32), span_id: hex(16) }),
  fc.record({ trace_id: fc.constant(null), span_id: fc.constant(null) }),
);

type Kind = 'issue' | 'log' | 'trace_span' | 'action' | 'metric';
type Item = Record<string, unknown>;

const logItem = fc
  .tuple(
    fc.record({ occurred_at: timestamp, message: text(0, 300), source: optional(text(1, 200)) }),
    severityFields,
    optional(attributes),
    traceLink,
    context,
  )
  .map(([base, sev, attrs, link, ctx]) =>
    compact({ ...base, ...sev, attributes: attrs, ...link, ...ctx }),
  );

const issueItem = fc
  .tuple(
    fc.record({
      occurred_at: timestamp,
      message: text(0, 300),
      title: optional(text(0, 100)),
      exception: optional(
        fc.record({ type: text(1, 256), value: optional(text(0, 100)) }).map(compact),
      ),
      stack_trace: optional(fc.option(text(0, 400), { nil: null })),
      fingerprint: optional(text(1, 256)),
      breadcrumbs: optional(
        fc.array(
          fc
            .record({
              timestamp,
              category: optional(text(0, 30)),
              type: optional(text(0, 30)),
              level: optional(fc.constantFrom(...SEVERITY_INPUTS)),
              message: optional(text(0, 80)),
              data: optional(attributes),
            })
            .map(compact),
          { maxLength: 3 },
        ),
      ),
      breadcrumbs_truncated: optional(fc.boolean()),
    }),
    severityFields,
    optional(attributes),
    traceLink,
    context,
  )
  .map(([base, sev, attrs, link, ctx]) =>
    compact({ ...compact(base), ...sev, attributes: attrs, ...link, ...ctx }),
  );

const spanItem = fc
  .tuple(
    fc.record({
      trace_id: hex(32),
      span_id: hex(16),
      parent_span_id: optional(fc.option(hex(16), { nil: null })),
      name: text(1, 200),
      operation: optional(text(0, 60)),
      kind: optional(fc.constantFrom(...SPAN_KINDS)),
      started_at: timestamp,
      duration_ms: fc.oneof(
        fc.integer({ min: 0, max: 86_400_000 }),
        fc.double({ min: 0, max: 86_400_000, noNaN: true }),
      ),
      status: optional(fc.constantFrom('ok', 'error', null)),
      status_message: optional(text(0, 100)),
      events: optional(
        fc.array(
          fc
            .record({ name: text(1, 40), timestamp, attributes: optional(attributes) })
            .map(compact),
          { maxLength: 2 },
        ),
      ),
    }),
    optional(attributes),
    context,
  )
  .filter(([s]) => s.parent_span_id !== s.span_id)
  .map(([base, attrs, ctx]) => compact({ ...compact(base), attributes: attrs, ...ctx }));

const actionItem = fc
  .tuple(
    fc.record({
      occurred_at: timestamp,
      name: text(1, 256),
      kind: optional(fc.constantFrom('page_view', 'screen_view', 'interaction')),
      distinct_id: text(1, 256),
      session_id: optional(fc.option(text(1, 256), { nil: null })),
      properties: optional(attributes),
    }),
    traceLink,
    context,
  )
  .map(([base, link, ctx]) => compact({ ...compact(base), ...link, ...ctx }));

const metricItem = fc
  .tuple(
    fc.record({
      occurred_at: timestamp,
      name: text(1, 256),
      kind: fc.constantFrom('counter', 'gauge', 'histogram'),
      value: weirdNumber.map((n) => (Object.is(n, -0) ? 0 : n)),
      unit: optional(fc.option(text(1, 64), { nil: null })),
      temporality: optional(fc.constantFrom('delta', 'cumulative', null)),
      attributes: optional(attributes),
    }),
    traceLink,
    context,
  )
  .map(([base, link, ctx]) => compact({ ...compact(base), ...link, ...ctx }));

const itemOf: Record<Kind, fc.Arbitrary<Item>> = {
  issue: issueItem,
  log: logItem,
  trace_span: spanItem,
  action: actionItem,
  metric: metricItem,
};

const NATIVE_LISTS = { issue: 'issues', log: 'logs', trace_span: 'trace_spans', action: 'actions' };
const NATIVE_KINDS = ['issue', 'log', 'trace_span', 'action'] as const;
const SDK_KINDS = ['issue', 'log', 'trace_span', 'action', 'metric'] as const;

/** Envelope-level release, environment and service (always set, so items may omit theirs). */
const envelopeContext = fc.record({
  release: nonBlank(200),
  environment: nonBlank(200),
  service_name: nonBlank(200),
});

const sdkInfo = fc.record({ name: text(1, 100), version: text(1, 50) });

/**
 * Item ids unique across the whole file (an id repeated across runs would be
 * `already_accepted`), drawn at send time rather than generated, so shrinking never reuses
 * one; mixed case now and then, which the service lower-cases.
 */
function freshId(upper: boolean): string {
  const id = newId();
  return upper ? id.toUpperCase() : id;
}

/** A valid batch of 1 to 8 items of the route's kinds, ids assigned at send time. */
const validItems = (kinds: readonly Kind[]) =>
  fc.array(
    fc.constantFrom(...kinds).chain((k) => itemOf[k].map((item) => ({ kind: k, item }))),
    { minLength: 1, maxLength: 8 },
  );

type Batch = { body: Record<string, unknown>; ids: { kind: Kind; id: string }[] };

/** The items of a body with their kinds: SDK events in order, native lists one after another. */
function itemsOf(body: Record<string, unknown>): { kind: Kind; item: Item }[] {
  if (Array.isArray(body.events))
    return (body.events as Item[]).map((item) => ({ kind: item.type as Kind, item }));
  return NATIVE_KINDS.flatMap((kind) =>
    ((body[NATIVE_LISTS[kind]] as Item[] | undefined) ?? []).map((item) => ({ kind, item })),
  );
}

function buildNative(
  env: Record<string, unknown>,
  entries: { kind: Kind; item: Item }[],
  upperIds: boolean[],
): Batch {
  const body: Record<string, unknown> = { ...env };
  const ids: Batch['ids'] = [];
  entries.forEach(({ kind, item }, n) => {
    const list = NATIVE_LISTS[kind as keyof typeof NATIVE_LISTS];
    const id = freshId(upperIds[n % upperIds.length] ?? false);
    ((body[list] ??= []) as Item[]).push({ id, ...item });
    ids.push({ kind, id: id.toLowerCase() });
  });
  return { body, ids };
}

function buildSdk(
  head: { sdk: unknown; context: Record<string, unknown>; extra: Record<string, unknown> },
  entries: { kind: Kind; item: Item }[],
  upperIds: boolean[],
): Batch {
  const ids: Batch['ids'] = [];
  const events = entries.map(({ kind, item }, n) => {
    const id = freshId(upperIds[n % upperIds.length] ?? false);
    ids.push({ kind, id: id.toLowerCase() });
    return { id, type: kind, ...item };
  });
  return { body: { sdk: head.sdk, context: { ...head.context, ...head.extra }, events }, ids };
}

/**
 * A batch builder (ids are drawn when it is called) that prints as the generated content in
 * fast-check's counterexample, instead of as its source.
 */
function builder(make: () => Batch, content: unknown): () => Batch {
  return Object.assign(make, { [fc.toStringMethod]: () => `batch(${fc.stringify(content)})` });
}

const nativeBatch = fc
  .tuple(
    envelopeContext,
    optional(sdkInfo),
    validItems(NATIVE_KINDS),
    fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
  )
  .map(([env, sdk, entries, upper]) =>
    builder(() => buildNative(compact({ ...env, sdk }), entries, upper), { env, sdk, entries }),
  );

const sdkBatch = fc
  .tuple(
    envelopeContext,
    sdkInfo,
    // Further context keys (device, os, …) are kept as they are.
    fc.array(fc.tuple(attributeKey, attributeValue), { maxLength: 3 }).map(ownObject),
    validItems(SDK_KINDS),
    fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
  )
  .map(([ctx, sdk, extra, entries, upper]) => {
    // The context's own keys win: an extra key must not replace release or environment.
    const kept = Object.fromEntries(
      Object.entries(extra).filter(([k]) => !(k in ctx) && k !== '__proto__'),
    );
    return builder(() => buildSdk({ sdk, context: ctx, extra: kept }, entries, upper), {
      sdk,
      context: { ...ctx, ...kept },
      entries,
    });
  });

// ---------------------------------------------------------------------------------------------
// Mutations

type Path = (string | number)[];

/** Every path to a value inside `v` (the root is `[]`). */
function pathsOf(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...at, i], out));
  else if (v !== null && typeof v === 'object')
    for (const k of Object.keys(v)) pathsOf((v as Record<string, unknown>)[k], [...at, k], out);
  return out;
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

function parentOf(root: unknown, path: Path): Record<string | number, unknown> | null {
  let cur = root as Record<string | number, unknown>;
  for (const p of path.slice(0, -1)) cur = cur[p] as Record<string | number, unknown>;
  return cur ?? null;
}

type Mutation =
  | { op: 'set'; at: number; value: unknown }
  | { op: 'delete'; at: number }
  | { op: 'add'; at: number; key: string; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), value: nastyJson }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('add' as const), at: fc.nat(), key: nastyKey, value: nastyJson }),
);

/** Applies a mutation to a copy of `body` at one of its paths (chosen by `at`). */
function mutate(body: Record<string, unknown>, m: Mutation): unknown {
  const copy = clone(body);
  const paths = pathsOf(copy);
  const path = paths[m.at % paths.length] ?? [];
  if (path.length === 0) {
    if (m.op === 'set') return m.value;
    if (m.op === 'add')
      Object.defineProperty(copy, m.key, { value: m.value, enumerable: true, writable: true });
    return copy;
  }
  const parent = parentOf(copy, path);
  const key = path[path.length - 1] as string | number;
  if (!parent) return copy;
  if (m.op === 'set') parent[key] = m.value;
  else if (m.op === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else {
    const target = parent[key];
    if (target !== null && typeof target === 'object' && !Array.isArray(target))
      Object.defineProperty(target, m.key, { value: m.value, enumerable: true, writable: true });
    else parent[key] = m.value;
  }
  return copy;
}

// ---------------------------------------------------------------------------------------------
// The service

const MARK = '__deep_marker__';

const STREAM_TABLE: Record<Kind, TelemetryTable> = {
  issue: 'issue_occurrences',
  log: 'logs',
  trace_span: 'spans',
  action: 'actions',
  metric: 'metric_samples',
};

/**
 * Runs of the properties still under way. A property cut off by its time budget is abandoned,
 * not stopped (fast-check races the run against the clock): its requests may still be storing
 * when the next property takes its "before" snapshot of the same project, which then changes
 * under it. Each test first waits for those runs to end.
 */
const runsUnderWay = new Set<Promise<unknown>>();

/** `fc.asyncProperty` whose runs are tracked in `runsUnderWay`. */
const trackedProperty = ((...args: unknown[]) => {
  const predicate = args.pop() as (...values: unknown[]) => Promise<unknown>;
  const tracked = (...values: unknown[]) => {
    const run = predicate(...values);
    runsUnderWay.add(run);
    const done = () => runsUnderWay.delete(run);
    run.then(done, done);
    return run;
  };
  return (fc.asyncProperty as (...a: unknown[]) => unknown)(...args, tracked);
}) as typeof fc.asyncProperty;

describe('ingest bodies (fuzz)', () => {
  beforeEach(async () => {
    await Promise.allSettled([...runsUnderWay]);
  });

  let svc: Svc;
  let tenant: Tenant;
  let token = '';
  const unhandled: string[] = [];

  beforeAll(async () => {
    svc = await startService({
      // Errors the app's handler caught as unexpected (the 500 path) are collected here.
      log: { info: () => undefined, error: (m, f) => unhandled.push(`${m} ${JSON.stringify(f)}`) },
      // The test clock never moves, so the per-key token bucket would never refill.
      config: { ingestRate: { perSecond: 1_000_000, burst: 1_000_000 } },
    });
    tenant = await createTenant(svc, { tier: 'scale', password: 'fuzz-password-1' });
    token = (await signIn(svc.baseUrl, tenant.email, tenant.password)).accessToken;
  }, 30_000);
  afterAll(async () => {
    await svc?.close();
  });

  /** A project of its own (so its rows are exactly what this run sent) and its ingest key. */
  async function newProject(): Promise<{ projectId: string; key: string }> {
    const projectId = newId();
    await svc.deps.store.projects.create({
      id: projectId,
      organizationId: tenant.organizationId,
      slug: `fuzz-${projectId.slice(0, 8)}`,
      name: `Fuzz ${projectId.slice(0, 8)}`,
      createdAt: svc.clock.now(),
    });
    return { projectId, key: await addIngestKey(svc, projectId) };
  }

  /** Row counts of every telemetry table (ClickHouse's), contexts and usage counters of one project. */
  type Snapshot = Awaited<ReturnType<typeof snapshot>>;
  const snapshot = async (projectId: string) => ({
    tables: await tableCounts(svc, projectId),
    usage: await usageOf(svc, projectId),
  });

  /** How many rows of a table hold each id. */
  const idCounts = (table: TelemetryTable, projectId: string, ids: string[]) =>
    storedIdCounts(svc, table, projectId, ids);

  const send = (route: Route, key: string, body: unknown) =>
    call(svc.baseUrl, 'POST', route, { token: key, json: body });

  const sendRaw = (route: Route, key: string, raw: string, contentType: string) =>
    call(svc.baseUrl, 'POST', route, { token: key, raw, contentType });

  /** Sends bytes as they are (fetch would re-encode a string as well-formed UTF-8). */
  async function sendBytes(route: Route, key: string, bytes: Uint8Array): Promise<ApiResponse> {
    const res = await fetch(`${svc.baseUrl}${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: Buffer.from(bytes),
    });
    const text = await res.text();
    const json = (res.headers.get('content-type') ?? '').includes('json') && text !== '';
    return {
      status: res.status,
      headers: res.headers,
      text,
      body: json ? (JSON.parse(text) as unknown) : null,
      setCookies: [],
    };
  }

  /** After a rejection nothing of the project changed: rows, contexts and usage counters. */
  async function expectNothingStored(before: Snapshot, projectId: string, why: string) {
    expect(await snapshot(projectId), `a rejected request changed the store\n${why}`).toEqual(
      before,
    );
  }

  /** On a 200, the counts of this batch are exactly the rows it added. */
  async function expectCountsMatchRows(
    res: ApiResponse,
    before: Snapshot,
    projectId: string,
    route: Route,
    why: string,
  ) {
    const counts = res.body as Counts;
    const after = (await snapshot(projectId)).tables;
    const added = (t: TelemetryTable) => (after[t] ?? 0) - (before.tables[t] ?? 0);
    expect(
      {
        issues: added('issue_occurrences'),
        logs: added('logs'),
        trace_spans: added('spans'),
        actions: added('actions'),
        ...(route === SDK ? { metrics: added('metric_samples') } : {}),
      },
      why,
    ).toEqual({
      issues: counts.issues,
      logs: counts.logs,
      trace_spans: counts.trace_spans,
      actions: counts.actions,
      ...(route === SDK ? { metrics: counts.metrics } : {}),
    });
  }

  afterAll(() => {
    // Anything logged as an unhandled error is a 500 some property should have caught.
    expect(unhandled).toEqual([]);
  });

  describe.each([
    ['native', NATIVE as Route, nativeBatch],
    ['SDK', SDK as Route, sdkBatch],
  ])('%s', (_name, route, batchArb) => {
    let shared: { projectId: string; key: string };
    beforeAll(async () => {
      shared = await newProject();
    });

    it(
      'an arbitrary or mutated JSON body: never 5xx, the envelope on rejection, nothing stored when rejected',
      async () => {
        const topKeys =
          route === NATIVE
            ? [
                'project_id',
                'sdk',
                'release',
                'environment',
                'service_name',
                'issues',
                'logs',
                'trace_spans',
                'actions',
                'metrics',
              ]
            : ['project_id', 'sdk', 'context', 'events', 'dropped_events'];
        const body = fc.oneof(
          // Anything at all.
          { weight: 1, arbitrary: nastyJson },
          // The documented keys with anything as values.
          {
            weight: 2,
            arbitrary: fc
              .array(
                fc.tuple(
                  fc.oneof(fc.constantFrom(...topKeys), nastyKey),
                  fc.oneof(nastyJson, fc.array(nastyJson, { maxLength: 3 })),
                ),
                { maxLength: 6 },
              )
              .map(ownObject),
          },
          // A valid batch with one or two values changed, removed or added anywhere.
          {
            weight: 4,
            arbitrary: fc
              .tuple(batchArb, fc.array(mutation, { minLength: 1, maxLength: 2 }))
              .map(([make, ms]) =>
                Object.assign(
                  () => {
                    let b: unknown = make().body;
                    for (const m of ms)
                      b =
                        b !== null && typeof b === 'object' && !Array.isArray(b)
                          ? mutate(b as Record<string, unknown>, m)
                          : b;
                    return b;
                  },
                  {
                    [fc.toStringMethod]: () =>
                      `${fc.stringify(make)} mutated by ${fc.stringify(ms)}`,
                  },
                ),
              ),
          },
        );
        await assertFuzz(
          trackedProperty(body, async (generated) => {
            const sent =
              typeof generated === 'function' ? (generated as () => unknown)() : generated;
            const before = await snapshot(shared.projectId);
            const res = await send(route, shared.key, sent);
            const why = `body: ${show(sent)}`;
            expectNoServerErrorAndEnvelope(res, INGEST_REJECTIONS, why);
            if (res.status === 200)
              await expectCountsMatchRows(res, before, shared.projectId, route, why);
            else await expectNothingStored(before, shared.projectId, why);
          }),
          ...RUNS.arbitraryBody,
        );
      },
      fuzzTimeout(60_000),
    );

    it(
      'a raw body of any text and content type: 415 for a non-JSON type, 400 for unreadable JSON, 422 invalid_json for a non-object',
      async () => {
        const jsonTypes = [
          'application/json',
          'application/json; charset=utf-8',
          'APPLICATION/JSON',
          'application/vnd.lookout+json',
          'application/json;charset=utf-16',
        ];
        const otherTypes = [
          'text/plain',
          'text/json',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/jsonx',
          'application/json garbage',
          'json',
          '*/*',
        ];
        const rawText = fc.oneof(
          nastyString,
          nastyJson.map((v) => JSON.stringify(v)),
          fc.constantFrom(
            '',
            ' ',
            '{',
            '{"logs": [',
            '{"logs": [],}',
            "{'logs': []}",
            '{"value": 1e400}',
            '{"events": [{"id": "\\ud800"}]}',
            '\ufeff{}',
            'null',
            '[]',
            '"x"',
            '1e400',
            '{"__proto__": {"polluted": true}}',
            '{"constructor": {"prototype": {"polluted": true}}}',
            '{"a": 1, "a": 2}',
          ),
        );
        await assertFuzz(
          trackedProperty(
            rawText,
            fc.oneof(fc.constantFrom(...jsonTypes), fc.constantFrom(...otherTypes)),
            async (raw, contentType) => {
              const before = await snapshot(shared.projectId);
              const res = await sendRaw(route, shared.key, raw, contentType);
              const why = `content-type: ${contentType}\nbody: ${show(raw)}`;
              expectNoServerErrorAndEnvelope(res, INGEST_REJECTIONS, why);
              if (!jsonTypes.includes(contentType)) {
                expectRejection(res, 415, 'invalid_json', why);
              } else {
                // The service reads the body as UTF-8, which drops a leading byte-order mark.
                let parsed: unknown;
                let parses = true;
                try {
                  parsed = JSON.parse(raw.replace(/^\ufeff/, ''));
                } catch {
                  parses = false;
                }
                if (!parses) expectRejection(res, 400, 'invalid_json', why);
                else if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
                  expectRejection(res, 422, 'invalid_json', why);
                else expect([200, 401, 422], why).toContain(res.status);
              }
              if (res.status !== 200) await expectNothingStored(before, shared.projectId, why);
            },
          ),
          ...RUNS.rawBody,
        );
      },
      fuzzTimeout(60_000),
    );

    it(
      'bytes that are not UTF-8 inside a valid body: never 5xx, the envelope on rejection, nothing stored when rejected',
      async () => {
        // Stray continuation bytes, overlong forms, encoded surrogates, bytes past U+10FFFF,
        // truncated sequences.
        const badBytes = fc.array(
          fc.oneof(
            fc.constantFrom(
              [0xff],
              [0xfe],
              [0x80],
              [0xc0, 0xaf],
              [0xe0, 0x80, 0xaf],
              [0xed, 0xa0, 0x80],
              [0xf4, 0x90, 0x80, 0x80],
              [0xe2, 0x82],
              [0xf0, 0x9f],
            ),
            fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 4 }),
          ),
          { minLength: 1, maxLength: 4 },
        );
        await assertFuzz(
          trackedProperty(batchArb, fc.nat(), badBytes, async (make, at, chunks) => {
            const { body } = make();
            // The bytes go inside one string of the body (or, now and then, between tokens).
            const text = JSON.stringify(body);
            const quotes = [...text.matchAll(/"/g)].map((m) => m.index);
            const cut = (quotes[at % Math.max(1, quotes.length)] ?? 0) + (at % 7 === 0 ? 0 : 1);
            const bytes = Buffer.concat([
              Buffer.from(text.slice(0, cut)),
              Buffer.from(chunks.flat()),
              Buffer.from(text.slice(cut)),
            ]);
            const before = await snapshot(shared.projectId);
            const res = await sendBytes(route, shared.key, bytes);
            const why = `bytes ${Buffer.from(chunks.flat()).toString('hex')} at ${cut} of ${show(text)}`;
            expectNoServerErrorAndEnvelope(res, INGEST_REJECTIONS, why);
            if (res.status !== 200) await expectNothingStored(before, shared.projectId, why);
            else await expectCountsMatchRows(res, before, shared.projectId, route, why);
          }),
          ...RUNS.badUtf8,
        );
      },
      fuzzTimeout(60_000),
    );

    it(
      'a valid batch is stored exactly once, reads back by id, and re-sending it is all already_accepted',
      async () => {
        await assertFuzz(
          trackedProperty(batchArb, async (make) => {
            const { projectId, key } = await newProject();
            const { body, ids } = make();
            const why = `body: ${show(body, 2000)}`;
            const res = await send(route, key, body);
            expect(res.status, `${why}\n→ ${res.text.slice(0, 500)}`).toBe(200);
            const count = (k: Kind) => ids.filter((i) => i.kind === k).length;
            expect(res.body, why).toMatchObject({
              issues: count('issue'),
              logs: count('log'),
              trace_spans: count('trace_span'),
              actions: count('action'),
              already_accepted: 0,
              next_action: { code: 'review_ingested_telemetry', target: 'telemetry_reads' },
              ...(route === SDK ? { metrics: count('metric') } : {}),
            });

            // In the store: every id exactly once.
            for (const kind of SDK_KINDS) {
              const mine = ids.filter((i) => i.kind === kind).map((i) => i.id);
              if (mine.length === 0) continue;
              expect(await idCounts(STREAM_TABLE[kind], projectId, mine), `${kind} ${why}`).toEqual(
                mine.map(() => 1),
              );
            }
            await expectReadBack(projectId, body, ids, why);

            // Re-sending the same batch: nothing new, every item already accepted, and the
            // account's usage as the account reads it does not move.
            const before = await snapshot(projectId);
            const usage = await call(svc.baseUrl, 'GET', '/api/account/usage', { token });
            expect(usage.status, usage.text).toBe(200);
            const again = await send(route, key, body);
            expect(again.status, why).toBe(200);
            expect(again.body, why).toMatchObject({
              issues: 0,
              logs: 0,
              trace_spans: 0,
              actions: 0,
              already_accepted: ids.length,
              ...(route === SDK ? { metrics: 0, context_updated: false } : {}),
            });
            await expectNothingStored(before, projectId, `re-sent batch added rows\n${why}`);
            const usageAfter = await call(svc.baseUrl, 'GET', '/api/account/usage', { token });
            expect(usageAfter.body, `account usage moved on a re-send\n${why}`).toEqual(usage.body);
          }),
          ...RUNS.validRoundTrip,
        );
      },
      fuzzTimeout(60_000),
    );

    it(
      'a valid batch with one known-invalid value is 422 validation_failed and stores none of its items',
      async () => {
        await assertFuzz(
          trackedProperty(
            batchArb,
            fc.nat(),
            fc.constantFrom(...invalidations(route)),
            nastyString,
            async (make, pick, breaker, noise) => {
              const { body, ids } = make();
              const broken = clone(body);
              const items = itemsOf(broken);
              const target = items[pick % items.length];
              if (!target) return;
              const expected = breaker.apply(target.item, noise, target.kind);
              if (expected === 'skip') return;
              const before = await snapshot(shared.projectId);
              const res = await send(route, shared.key, broken);
              const why = `${breaker.name}\nbody: ${show(broken, 2000)}`;
              expectRejection(res, 422, 'validation_failed', why);
              if (expected.text)
                expect((res.body as { error: string }).error, why).toBe(expected.text);
              await expectNothingStored(before, shared.projectId, why);
              for (const kind of SDK_KINDS) {
                const mine = ids.filter((i) => i.kind === kind).map((i) => i.id);
                if (mine.length === 0) continue;
                expect(await idCounts(STREAM_TABLE[kind], shared.projectId, mine), why).toEqual(
                  mine.map(() => 0),
                );
              }
            },
          ),
          ...RUNS.knownInvalid,
        );
      },
      fuzzTimeout(60_000),
    );

    it(
      'a body project_id of another project is 401 ingest_key_invalid and stores nothing',
      async () => {
        await assertFuzz(
          trackedProperty(batchArb, fc.constantFrom('other', 'garbage'), async (make, kind) => {
            const { body } = make();
            const projectId = kind === 'other' ? newId() : 'not-a-project';
            const before = await snapshot(shared.projectId);
            const res = await send(route, shared.key, { ...body, project_id: projectId });
            const why = `project_id ${projectId}`;
            expect([401, 422], why).toContain(res.status);
            if (kind === 'other') expectRejection(res, 401, 'ingest_key_invalid', why);
            else expectNoServerErrorAndEnvelope(res, [401, 422], why);
            await expectNothingStored(before, shared.projectId, why);
          }),
          ...RUNS.otherProject,
        );
      },
      fuzzTimeout(60_000),
    );

    it(
      'deeply nested JSON anywhere in the body: never 5xx, and nothing stored when refused',
      async () => {
        await assertFuzz(
          trackedProperty(
            batchArb,
            fc.integer({ min: 1, max: 400_000 }),
            fc.boolean(),
            fc.nat(),
            async (make, depth, asObject, at) => {
              const { body } = make();
              // The deep value replaces one value of the body (or one item's attributes),
              // spliced in as text: JSON.stringify cannot write it.
              const marked = clone(body);
              const items = itemsOf(marked);
              const paths = pathsOf(marked).filter((p) => p.length > 0);
              const slot = at % (paths.length + items.length);
              const item = items[slot - paths.length];
              if (item) item.item[item.kind === 'action' ? 'properties' : 'attributes'] = MARK;
              else {
                const path = paths[slot] ?? [];
                const parent = parentOf(marked, path);
                if (parent) parent[path[path.length - 1] as string | number] = MARK;
              }
              const raw = JSON.stringify(marked).replace(
                JSON.stringify(MARK),
                deeplyNested(depth, asObject),
              );
              const before = await snapshot(shared.projectId);
              const res = await call(svc.baseUrl, 'POST', route, { token: shared.key, raw });
              const why = `depth ${depth} ${asObject ? 'objects' : 'arrays'} in ${show(marked)}`;
              expectNoServerErrorAndEnvelope(res, INGEST_REJECTIONS, why);
              if (res.status !== 200) await expectNothingStored(before, shared.projectId, why);
              else await expectCountsMatchRows(res, before, shared.projectId, route, why);
            },
          ),
          ...RUNS.deepNesting,
        );
      },
      fuzzTimeout(60_000),
    );

    it(
      'more than 5,000 items is 422 validation_failed and stores none of them',
      async () => {
        await assertFuzz(
          trackedProperty(fc.integer({ min: 5_001, max: 5_200 }), async (n) => {
            const when = new Date(CLOCK).toISOString();
            const items = Array.from({ length: n }, () => ({
              id: newId(),
              occurred_at: when,
              message: 'm',
            }));
            const body =
              route === NATIVE
                ? { release: 'r', environment: 'e', service_name: 's', logs: items }
                : {
                    sdk: { name: 'fuzz', version: '1' },
                    context: { release: 'r', environment: 'e', service_name: 's' },
                    events: items.map((i) => ({ ...i, type: 'log' })),
                  };
            const before = await snapshot(shared.projectId);
            const res = await send(route, shared.key, body);
            expectRejection(res, 422, 'validation_failed', `${n} items`);
            await expectNothingStored(before, shared.projectId, `${n} items`);
          }),
          ...RUNS.tooMany,
        );
      },
      fuzzTimeout(60_000),
    );
  });

  /** Reads every item back through the account's list routes: each id exactly once. */
  async function expectReadBack(
    projectId: string,
    body: Record<string, unknown>,
    ids: Batch['ids'],
    why: string,
  ) {
    const get = async (path: string) => {
      const res = await call(svc.baseUrl, 'GET', path, { token });
      expect(res.status, `${path}\n${res.text.slice(0, 300)}`).toBe(200);
      return res.body as Record<string, unknown>[];
    };
    const once = (
      rows: { id?: unknown; event_id?: unknown }[],
      kind: Kind,
      key: 'id' | 'event_id' = 'id',
    ) => {
      for (const { id } of ids.filter((i) => i.kind === kind)) {
        expect(rows.filter((r) => r[key] === id).length, `${kind} ${id} read back\n${why}`).toBe(1);
      }
    };
    const scope = `project_id=${projectId}&limit=1000`;
    if (ids.some((i) => i.kind === 'log')) {
      const logs = await get(`/api/logs?${scope}&status=all`);
      once(logs as { id: string }[], 'log');
      // The content as sent: message, attributes (every own key, prototype names included).
      const sent = new Map(
        itemsOf(body)
          .filter((i) => i.kind === 'log')
          .map(({ item }) => [String(item.id).toLowerCase(), item]),
      );
      for (const row of logs) {
        const item = sent.get(String(row.id));
        if (!item) continue;
        expect(row.message, `log message ${why}`).toBe(item.message);
        expect(row.attributes, `log attributes ${why}`).toEqual(item.attributes ?? {});
      }
    }
    if (ids.some((i) => i.kind === 'action'))
      once((await get(`/api/telemetry/actions?${scope}`)) as { id: string }[], 'action');
    if (ids.some((i) => i.kind === 'metric'))
      once(
        (await get(`/api/telemetry/metrics?${scope}`)) as { event_id: string }[],
        'metric',
        'event_id',
      );
    if (ids.some((i) => i.kind === 'trace_span')) {
      const traces = new Set(
        itemsOf(body)
          .filter((i) => i.kind === 'trace_span')
          .map(({ item }) => String(item.trace_id)),
      );
      const spans: Record<string, unknown>[] = [];
      for (const t of traces)
        spans.push(...(await get(`/api/telemetry/traces/${t}?project_id=${projectId}`)));
      once(spans as { id: string }[], 'trace_span');
    }
    if (ids.some((i) => i.kind === 'issue')) {
      const issues = await get(`/api/telemetry/issues?${scope}`);
      const events: Record<string, unknown>[] = [];
      for (const issue of issues)
        events.push(...(await get(`/api/telemetry/issues/${String(issue.id)}/events?limit=1000`)));
      once(events as { id: string }[], 'issue');
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Known-invalid values: each breaks exactly one documented rule of one item.

type Breaker = {
  name: string;
  /** Breaks `item` in place; the exact error text when the spec fixes it, or 'skip'. */
  apply: (item: Item, noise: string, kind: Kind) => { text?: string } | 'skip';
};

const SDK_TYPE_TEXT = 'SDK event type is not supported by this ingest route';

function invalidations(route: Route): Breaker[] {
  const common: Breaker[] = [
    {
      name: 'id is not a UUID',
      apply: (item, noise) => {
        item.id = /^[0-9a-f-]{36}$/i.test(noise) ? `${noise}x` : noise;
        return {};
      },
    },
    { name: 'id is a number', apply: (item) => ((item.id = 42), {}) },
    { name: 'id is missing', apply: (item) => (delete item.id, {}) },
    {
      name: 'an unknown key on the item',
      apply: (item, noise) => {
        const key = `x_${noise}`;
        Object.defineProperty(item, key, { value: 1, enumerable: true, writable: true });
        return {};
      },
    },
    {
      name: 'a __proto__ key on the item',
      apply: (item) => {
        Object.defineProperty(item, '__proto__', { value: { polluted: true }, enumerable: true });
        return {};
      },
    },
    {
      name: 'an unknown severity',
      apply: (item, noise, kind) => {
        if (kind !== 'log' && kind !== 'issue') return 'skip';
        item.severity = SEVERITY_INPUTS.includes(noise) ? `${noise}!` : noise;
        return {};
      },
    },
    {
      name: 'severity and level that conflict',
      apply: (item, _n, kind) => {
        if (kind !== 'log' && kind !== 'issue') return 'skip';
        item.severity = 'info';
        item.level = 'fatal';
        return {};
      },
    },
    {
      name: 'a blank release on the item',
      apply: (item, noise) => {
        item.release = noise.trim() === '' ? noise || ' ' : ' \t ';
        return {};
      },
    },
    {
      name: 'a time that is not RFC3339 UTC',
      apply: (item, noise, kind) => {
        const bad = /^\d{4}-\d{2}-\d{2}T/.test(noise) ? 'yesterday' : noise;
        item[kind === 'trace_span' ? 'started_at' : 'occurred_at'] = bad;
        return {};
      },
    },
    {
      name: 'an upper-case trace_id',
      apply: (item) => {
        item.trace_id = 'A'.repeat(32);
        item.span_id = 'b'.repeat(16);
        return {};
      },
    },
    {
      name: 'a message of the wrong JSON type',
      apply: (item, _n, kind) => {
        if (kind === 'trace_span') item.name = { text: 'x' };
        else if (kind === 'log' || kind === 'issue') item.message = ['x'];
        else item.name = 7;
        return {};
      },
    },
    {
      name: 'a span duration out of range',
      apply: (item, _n, kind) => {
        if (kind !== 'trace_span') return 'skip';
        item.duration_ms = -1;
        return {};
      },
    },
    {
      name: 'a span that is its own parent',
      apply: (item, _n, kind) => {
        if (kind !== 'trace_span') return 'skip';
        item.parent_span_id = item.span_id;
        return {};
      },
    },
    {
      name: 'a field longer than its limit',
      apply: (item, _n, kind) => {
        if (kind === 'log' || kind === 'issue') item.release = 'r'.repeat(201);
        else item.name = 'n'.repeat(kind === 'trace_span' ? 1025 : 257);
        return {};
      },
    },
    {
      name: 'attributes that are not an object',
      apply: (item, _n, kind) => {
        item[kind === 'action' ? 'properties' : 'attributes'] = ['a', 'b'];
        return {};
      },
    },
  ];
  if (route === NATIVE) return common;
  return [
    ...common,
    {
      name: 'a metric value that is not a number',
      apply: (item, _n, kind) => {
        if (kind !== 'metric') return 'skip';
        item.value = '12';
        return {};
      },
    },
    {
      name: 'an unsupported event type',
      apply: (item, noise) => {
        item.type = ['issue', 'log', 'trace_span', 'action', 'metric'].includes(noise)
          ? `${noise}s`
          : noise;
        return { text: SDK_TYPE_TEXT };
      },
    },
    {
      name: 'an event without a type',
      apply: (item) => (delete item.type, { text: SDK_TYPE_TEXT }),
    },
  ];
}
