import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openapi from '../openapi.json';
import { call, signIn, type ApiResponse } from '../test-support/api-client';
import { startService, type RunningService } from '../test-support/start-service';
import {
  NATIVE,
  createTenant,
  ingest,
  issueItem,
  nativeBody,
  type Tenant,
} from '../test-support/telemetry';

/**
 * The drift test of issue 25: the committed OpenAPI document and the handlers accept the same
 * query values. For every GET route with query keys, each declared key is sent with values
 * generated from a seeded corpus and classified by the key's declared schema alone (enum,
 * pattern, format date-time, anyOf, and the x-minimum, x-maximum and x-distinct-items this
 * service adds to digit and list strings). A value the document accepts must not be refused
 * with 422; a value it refuses must be `422 validation_failed` with `fix_request`. Nothing may
 * answer 5xx.
 *
 * What one key's schema cannot say is supplied here, as the spec's prose states it: a cursor
 * field goes with `pagination=cursor` and the rest of its set, `until` with an earlier
 * `since`, and absolute times stay within a day of the service clock (31-day ranges and
 * "not in the future" are rules across keys and the clock). `attribute_filters` is JSON: its
 * document states the shape as a `contentSchema`, which the verdict applies.
 *
 * LOOKOUT_FUZZ_SEED picks another corpus; LOOKOUT_FUZZ_RUNS the values per key and verdict.
 */
const SEED = Number(process.env.LOOKOUT_FUZZ_SEED ?? 25);
const PER_VERDICT = Number(process.env.LOOKOUT_FUZZ_RUNS ?? 4);

type Schema = {
  type?: string;
  const?: unknown;
  contentMediaType?: string;
  contentSchema?: Json;
  enum?: string[];
  pattern?: string;
  format?: string;
  anyOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  'x-minimum'?: number;
  'x-maximum'?: number;
  'x-distinct-items'?: boolean;
  'x-max-bytes'?: number;
};
type Param = { name: string; in: string; required?: boolean; schema: Schema };
type Route = { path: string; keys: Param[] };

/** Keys whose accepted values the document gives in prose only. */
const PROSE_ONLY = new Set<string>();
/** The live feed is a WebSocket upgrade, not a read. */
const SKIPPED_PATHS = new Set(['/api/feed/live']);

const doc = openapi as unknown as {
  paths: Record<string, { get?: { parameters?: Param[] } }>;
};
const ROUTES: Route[] = Object.entries(doc.paths)
  .filter(([path, ops]) => ops.get && !SKIPPED_PATHS.has(path))
  .map(([path, ops]) => ({
    path,
    keys: (ops.get?.parameters ?? []).filter((p) => p.in === 'query'),
  }))
  .filter((r) => r.keys.length > 0);

// ---------------------------------------------------------------------------------------------
// The document's verdict on one value, from the key's schema alone

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** JSON Schema `format: date-time` (RFC 3339 `date-time`; a leap second is not a time here). */
function isDateTime(v: string): boolean {
  const m = RFC3339.exec(v);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as number[];
  const days = new Date(Date.UTC(y ?? 0, mo ?? 0, 0)).getUTCDate();
  const offsetOk = m[9] === undefined || (Number(m[9]) <= 23 && Number(m[10]) <= 59);
  return (
    (mo ?? 0) >= 1 &&
    (mo ?? 0) <= 12 &&
    (d ?? 0) >= 1 &&
    (d ?? 0) <= days &&
    (h ?? 0) <= 23 &&
    (mi ?? 0) <= 59 &&
    (s ?? 0) <= 59 &&
    offsetOk
  );
}

/** The JSON Schema subset a `contentSchema` here uses (attribute_filters). */
type Json = {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: Json;
  oneOf?: Json[];
  required?: string[];
  properties?: Record<string, Json>;
  additionalProperties?: boolean;
  'x-max-bytes'?: number;
};

function jsonAccepts(s: Json, v: unknown): boolean {
  const kind = Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v;
  if (s.type !== undefined && s.type !== kind) return false;
  if ('const' in s && s.const !== v) return false;
  if (s.enum && !s.enum.includes(v)) return false;
  if (s.oneOf && s.oneOf.filter((o) => jsonAccepts(o, v)).length !== 1) return false;
  if (typeof v === 'string') {
    if (s.pattern !== undefined && !new RegExp(s.pattern).test(v)) return false;
    if (s.minLength !== undefined && [...v].length < s.minLength) return false;
    if (s['x-max-bytes'] !== undefined && Buffer.byteLength(v) > s['x-max-bytes']) return false;
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return false;
    if (s.minimum !== undefined && v < s.minimum) return false;
    if (s.maximum !== undefined && v > s.maximum) return false;
  }
  if (Array.isArray(v)) {
    if (s.minItems !== undefined && v.length < s.minItems) return false;
    if (s.maxItems !== undefined && v.length > s.maxItems) return false;
    if (s.items && !v.every((x) => jsonAccepts(s.items as Json, x))) return false;
  }
  if (kind === 'object') {
    const o = v as Record<string, unknown>;
    if (s.required?.some((k) => !(k in o))) return false;
    if (s.additionalProperties === false && Object.keys(o).some((k) => !s.properties?.[k]))
      return false;
    for (const [k, sub] of Object.entries(s.properties ?? {}))
      if (k in o && !jsonAccepts(sub, o[k])) return false;
  }
  return true;
}

function documentAccepts(schema: Schema, v: string): boolean {
  if (schema.contentMediaType === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      return false;
    }
    if (schema.contentSchema && !jsonAccepts(schema.contentSchema, parsed)) return false;
  }
  if (schema.anyOf && !schema.anyOf.some((s) => documentAccepts(s, v))) return false;
  if (schema.enum && !schema.enum.includes(v)) return false;
  if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(v)) return false;
  if (schema.format === 'date-time' && !isDateTime(v)) return false;
  if (schema.minLength !== undefined && v.length < schema.minLength) return false;
  if (schema.maxLength !== undefined && v.length > schema.maxLength) return false;
  if (schema['x-max-bytes'] !== undefined && Buffer.byteLength(v) > schema['x-max-bytes'])
    return false;
  if (schema['x-minimum'] !== undefined && Number(v) < schema['x-minimum']) return false;
  if (schema['x-maximum'] !== undefined && Number(v) > schema['x-maximum']) return false;
  if (schema['x-distinct-items']) {
    const items = v.split(',').map((s) => s.toLowerCase());
    if (new Set(items).size !== items.length) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// The corpus: values of every kind the keys take, near misses, and seeded random text

/** mulberry32: a small seeded generator, so a failure can be replayed with its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function corpus(rand: () => number, now: number, known: { projectId: string; issueId: string }) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const hex = (n: number, chars = '0123456789abcdef') =>
    Array.from({ length: n }, () => pick([...chars])).join('');
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const iso = (ms: number) => new Date(ms).toISOString();
  const u1 = uuid();
  const u2 = uuid();
  const enums = ROUTES.flatMap((r) => r.keys.flatMap((k) => k.schema.enum ?? []));
  const randomText = Array.from({ length: 12 }, () =>
    Array.from({ length: 1 + Math.floor(rand() * 12) }, () =>
      pick([...'aZ09 -_.~/:,%+*é\u0001\t', '\u00a0', '日']),
    ).join(''),
  );
  return [
    // ids
    known.projectId,
    known.projectId.toUpperCase(),
    known.issueId,
    u1,
    u1.toUpperCase(),
    `${u1},${u2}`,
    `${u1},${u1}`,
    `${u1},${u1.toUpperCase()}`,
    `${u1},${u2},${uuid()}`,
    u1.slice(0, -1),
    `${u1}x`,
    hex(32),
    hex(32).toUpperCase(),
    hex(31),
    hex(16),
    `team:${u2}`,
    'team:',
    'me',
    'none',
    'my_teams',
    'dep-1',
    'checkout-api-production-2.14.1-1',
    '-dep',
    'a'.repeat(129),
    // times
    '1h',
    '6h',
    '24h',
    '7d',
    '31d',
    '32d',
    '744h',
    '745h',
    '999999h',
    '1000000h',
    '0h',
    '06h',
    '24H',
    '24',
    'h',
    iso(now - 3_600_000),
    iso(now - 86_400_000),
    iso(now - 7_200_000).replace('Z', '+00:00'),
    iso(now - 7_200_000)
      .replace('T', 't')
      .replace('Z', 'z'),
    iso(now - 3_600_000).replace('.000Z', 'Z'),
    '2026-13-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-11-20T24:00:00Z',
    '2026-11-20T10:00:60Z',
    '2026-11-20 10:00:00Z',
    '2026-11-20',
    'yesterday',
    // digits
    '0',
    '1',
    '2',
    '13',
    '14',
    '20',
    '21',
    '50',
    '51',
    '100',
    '200',
    '201',
    '999',
    '1000',
    '1001',
    '999999',
    '1000000',
    '01',
    '0001',
    '-1',
    '1.5',
    '1e3',
    ' 1',
    '+1',
    // attribute filters (JSON)
    ...filterCorpus(rand),
    // text
    'x',
    'checkout-api',
    'a b',
    '',
    ' ',
    '\t',
    'é',
    '%',
    '/a',
    '/http/status',
    '/a~1b',
    '/a~2',
    'a/b',
    '~',
    '[]',
    '{}',
    ...enums,
    ...enums.map((e) => e.toUpperCase()),
    ...enums.map((e) => `${e} `),
    ...randomText,
  ];
}

/** Filter arrays: valid ones of each shape and near misses of each rule. */
function filterCorpus(rand: () => number): string[] {
  const f = (o: Record<string, unknown>) => ({ path: '/http/status', ...o });
  const shapes: unknown[] = [
    f({ type: 'number', operator: 'eq', value: 503 }),
    f({ type: 'number', operator: 'gte', value: -1.5, case_sensitive: false }),
    f({ type: 'number', operator: 'exists' }),
    f({ type: 'string', operator: 'contains', value: 'pay', case_sensitive: true }),
    f({ type: 'string', operator: 'eq', value: '' }),
    f({ type: 'string', operator: 'exists', case_sensitive: true }),
    f({ type: 'boolean', operator: 'ne', value: false }),
    f({ type: 'boolean', operator: 'exists' }),
    f({ path: '/a~1b/~0c', type: 'string', operator: 'starts_with', value: 'x' }),
    // near misses
    f({ type: 'number', operator: 'eq', value: '503' }),
    f({ type: 'number', operator: 'contains', value: 5 }),
    f({ type: 'number', operator: 'eq', value: 1e16 }),
    f({ type: 'number', operator: 'eq', value: 1, case_sensitive: true }),
    f({ type: 'string', operator: 'contains', value: '' }),
    f({ type: 'string', operator: 'eq', value: 'é'.repeat(513) }),
    f({ type: 'string', operator: 'exists', value: 'x' }),
    f({ type: 'string', operator: 'eq' }),
    f({ type: 'string', operator: 'eq', value: 'x', colour: 'red' }),
    f({ type: 'boolean', operator: 'gt', value: true }),
    f({ type: 'null', operator: 'exists' }),
    f({ path: 'http/status', type: 'number', operator: 'exists' }),
    f({ path: '/a~2', type: 'number', operator: 'exists' }),
    f({ type: 'string', operator: 'eq', value: 'x', case_sensitive: 'yes' }),
  ];
  const valid = shapes.slice(0, 9);
  const pick = () => valid[Math.floor(rand() * valid.length)];
  return [
    ...shapes.map((s) => JSON.stringify([s])),
    JSON.stringify([pick(), pick(), pick(), pick()]),
    JSON.stringify([pick(), pick(), pick(), pick(), pick()]),
    JSON.stringify([pick(), shapes[12]]),
    JSON.stringify(
      [f({ type: 'string', operator: 'eq', value: 'x'.repeat(1000) })].concat(
        Array.from({ length: 3 }, () =>
          f({ type: 'string', operator: 'eq', value: 'y'.repeat(1000) }),
        ),
      ),
    ),
    '[]',
    '{}',
    JSON.stringify(shapes[0]),
    '[1e400]',
    '[{"path":"/a","type":"number","operator":"eq","value":1e400}]',
    'not json',
  ];
}

// ---------------------------------------------------------------------------------------------

describe('the OpenAPI document and the handlers accept the same query values', () => {
  let svc: RunningService<false>;
  let tenant: Tenant;
  let token = '';
  let issueId = '';
  let now = 0;
  const unhandled: string[] = [];

  beforeAll(async () => {
    svc = await startService({
      log: { info: () => undefined, error: (m, f) => unhandled.push(`${m} ${JSON.stringify(f)}`) },
    });
    tenant = await createTenant(svc, { tier: 'scale', password: 'contract-password-1' });
    token = (await signIn(svc.baseUrl, tenant.email, tenant.password)).accessToken;
    const sent = await ingest(svc, NATIVE, tenant.ingestKey, nativeBody({ issues: [issueItem()] }));
    expect(sent.status).toBe(200);
    const issues = await call(svc.baseUrl, 'GET', '/api/telemetry/issues', { token });
    issueId = (issues.body as { id: string }[])[0]?.id ?? '';
    expect(issueId).not.toBe('');
    now = svc.clock.now();
  }, 30_000);
  afterAll(async () => {
    await svc?.close();
    // Anything logged as an unhandled error is a 500 a case should have caught.
    expect(unhandled).toEqual([]);
  });

  /** A valid value for a key the case needs but does not vary. */
  const sample = (route: Route, key: string): string => {
    const schema = route.keys.find((k) => k.name === key)?.schema ?? {};
    if (schema.enum?.[0] !== undefined) return schema.enum[0];
    const hour = new Date(now - 3_600_000).toISOString();
    const byKey: Record<string, string> = {
      project_id: tenant.projectId,
      organization_id: tenant.organizationId,
      since: '6h',
      until: hour,
      cursor_time: hour,
      cursor_id: issueId,
      cursor_project_id: tenant.projectId,
      cursor_trace_id: 'a'.repeat(32),
      cursor_deployment_id: 'dep-1',
      cursor_observed_count: '3',
      cursor_path: '/a',
      issue_ids: issueId,
      baseline_occurrence_id: issueId,
      candidate_deployment_id: 'dep-1',
    };
    return byKey[key] ?? 'x';
  };

  /** The keys a varied key needs beside it (rules across keys, spec "Common read rules"). */
  const companions = (route: Route, key: string): [string, string][] => {
    const has = (k: string) => route.keys.some((p) => p.name === k);
    const out: [string, string][] = [];
    if (key.startsWith('cursor_')) {
      if (has('pagination')) out.push(['pagination', 'cursor']);
      for (const p of route.keys)
        if (p.name.startsWith('cursor_') && p.name !== key)
          out.push([p.name, sample(route, p.name)]);
    }
    if (key === 'until' && has('since'))
      out.push(['since', new Date(now - 2 * 86_400_000).toISOString()]);
    return out;
  };

  const queryOf = (route: Route, key: string, value: string): string => {
    const pairs = new Map<string, string>();
    for (const p of route.keys) if (p.required) pairs.set(p.name, sample(route, p.name));
    for (const [k, v] of companions(route, key)) pairs.set(k, v);
    pairs.set(key, value);
    return [...pairs]
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .join('&');
  };

  const pathOf = (route: Route) =>
    route.path
      .replace('{issue_id}', issueId)
      .replace('{trace_id}', 'a'.repeat(32))
      .replace('{span_id}', 'b'.repeat(16))
      .replace('{deployment_id}', 'dep-1');

  const refused = (res: ApiResponse) =>
    res.status === 422 && (res.body as { code?: string } | null)?.code === 'validation_failed';

  it('covers every GET route that takes query keys', () => {
    expect(ROUTES.length).toBeGreaterThan(30);
  });

  it('the base query of every route (its required keys) is accepted', async () => {
    for (const route of ROUTES) {
      const pairs = route.keys
        .filter((k) => k.required)
        .map((k) => `${k.name}=${encodeURIComponent(sample(route, k.name))}`);
      const res = await call(svc.baseUrl, 'GET', `${pathOf(route)}?${pairs.join('&')}`, { token });
      expect(res.status, `${route.path}: ${res.text}`).toBeLessThan(500);
      expect(refused(res), `${route.path}: ${res.text}`).toBe(false);
    }
  });

  it('each declared key: valid per the document is accepted, invalid is 422', async () => {
    const rand = random(SEED);
    const values = corpus(rand, now, { projectId: tenant.projectId, issueId });
    const drift: string[] = [];
    let cases = 0;
    for (const route of ROUTES) {
      for (const param of route.keys) {
        if (PROSE_ONLY.has(param.name)) continue;
        const valid = values.filter((v) => documentAccepts(param.schema, v));
        const invalid = values.filter((v) => !documentAccepts(param.schema, v));
        // Enum members always; then a seeded draw of the rest.
        const draw = (xs: string[]) => [...xs].sort(() => rand() - 0.5).slice(0, PER_VERDICT);
        const chosen: [string, boolean][] = [
          ...(param.schema.enum ?? []).map((v): [string, boolean] => [v, true]),
          ...draw(valid).map((v): [string, boolean] => [v, true]),
          ...draw(invalid).map((v): [string, boolean] => [v, false]),
        ];
        for (const [value, accepted] of chosen) {
          cases += 1;
          const url = `${pathOf(route)}?${queryOf(route, param.name, value)}`;
          const res = await call(svc.baseUrl, 'GET', url, { token });
          const where = `${route.path} ${param.name}=${JSON.stringify(value)}`;
          if (res.status >= 500) drift.push(`${where}: ${res.status}`);
          else if (accepted && refused(res))
            drift.push(`${where}: the document accepts it, the handler answered ${res.text}`);
          else if (!accepted && !refused(res))
            drift.push(`${where}: the document refuses it, the handler answered ${res.status}`);
          else if (!accepted)
            expect((res.body as { next_action?: unknown }).next_action).toEqual({
              code: 'fix_request',
              target: 'request',
            });
        }
      }
    }
    expect(drift, `seed ${SEED}`).toEqual([]);
    expect(cases).toBeGreaterThan(500);
  }, 240_000);
});
