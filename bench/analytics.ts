/**
 * Product analytics reads at scale: a shop's product actions (about 1M over 30 days in one
 * project, 2% of that in a second) sent through `POST /api/telemetry/ingest` in time order,
 * then the analytics routes through HTTP as the console calls them (account bearer): funnel,
 * overview, properties, retention, lifecycle, paths and the segment comparison.
 *
 * The shop: about 200,000 sessions of about 5 actions (Home → Product → Add to cart →
 * Checkout → Place order with drop-off at every step, plus side actions such as Search,
 * Category and more Product views) by about 60,000 users; each user's first session is spread
 * evenly over the 30 days, and most later sessions are returning users of the last few days.
 * 85% of sessions are the web shop (page views), 15% the iOS app (screen views); 90% of
 * sessions are in production, 10% in staging.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { activeParts, directoryBytes } from './log-reads';
import { spawnBenchService, benchOnClickHouse } from './spawn-bench-service';

export type AnalyticsCase = {
  name: string;
  runs: number;
  p50_ms: number;
  p95_ms: number;
  /** Steps, buckets, keys, cohorts, periods, paths or segments of the answer. */
  size: number;
  /** Bytes of the JSON answer. */
  bytes: number;
};
export type AnalyticsReport = {
  actions: number;
  sessions: number;
  users: number;
  projects: number;
  days: number;
  senders: number;
  batches: number;
  seed_seconds: number;
  seed_events_per_second: number;
  database_bytes: number;
  wal_bytes: number;
  storage: { name: string; bytes: number }[];
  /** Where actions were: the state store, or ClickHouse (LOOKOUT_TELEMETRY=clickhouse). */
  telemetry: 'state' | 'clickhouse';
  /** With embedded ClickHouse: its directory, and its active parts once the service stopped. */
  clickhouse?: { directory_bytes: number; active_part_bytes: number; active_parts: number };
  /** The load average (1 min) before the seed and after the reads: the machine is shared. */
  load_average: [before: number, after: number];
  cases: AnalyticsCase[];
};

const DAY = 86_400_000;
const HOUR = 3_600_000;
const DAYS = 30;
/** The ingest route's maximum items per request. */
const BATCH = 5000;
/** Three-hour slices: about 4,200 actions of the main project each. */
const SLICES = DAYS * 8;
const ACTIONS_PER_SESSION = 5;
const SESSIONS_PER_USER = 200_000 / 60_000;
/** The second project's share of the main one's sessions. */
const SMALL_SHARE = 0.02;
// As in release-series: 2 senders (the generator builds the next batch while the service
// stores one); more only load the machine.
const SENDERS = Number(process.env.BENCH_SENDERS ?? 2);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/** A small deterministic generator, so every run builds the same world. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type Kind = 'page_view' | 'screen_view' | 'interaction';
/** The funnel the shop is built around, in order; page steps are screen views in the app. */
export const SHOP_FUNNEL: { name: string; page: boolean }[] = [
  { name: 'Home', page: true },
  { name: 'Product', page: true },
  { name: 'Add to cart', page: false },
  { name: 'Checkout', page: true },
  { name: 'Place order', page: false },
];
/** Chance of going on from step i to step i + 1. */
const GO_ON = [0.7, 0.35, 0.6, 0.7];
const SIDE = [
  { name: 'Search', page: false },
  { name: 'Category', page: true },
  { name: 'Product', page: true },
  { name: 'Add to wishlist', page: false },
  { name: 'Help', page: true },
] as const;
const CATEGORIES = ['shoes', 'shirts', 'bags', 'hats', 'jackets', 'socks'];
const REFERRERS = ['google', 'direct', 'newsletter', 'instagram', 'partner'];

type World = { start: number; sessions: number; users: number };

/** Web release of the day: a new minor version every 5 days; the app every 10. */
const releaseOf = (app: boolean, at: number, start: number) => {
  const day = Math.floor((at - start) / DAY);
  return app ? `ios@3.${Math.floor(day / 10)}.0` : `web@1.${8 + Math.floor(day / 5)}.0`;
};

/** One session's actions. */
function session(
  r: () => number,
  world: World,
  sessionId: string,
  distinctId: string,
  t0: number,
): object[] {
  const app = r() < 0.15;
  const environment = r() < 0.9 ? 'production' : 'staging';
  const service_name = app ? 'storefront-ios' : 'storefront-web';
  const pageKind: Kind = app ? 'screen_view' : 'page_view';
  const referrer = REFERRERS[Math.floor(r() * r() * REFERRERS.length)] ?? 'direct';
  // The funnel steps reached, then side actions between them (never before the first).
  let reached = 1;
  while (reached < SHOP_FUNNEL.length && r() < (GO_ON[reached - 1] ?? 0)) reached++;
  const steps: { name: string; page: boolean }[] = SHOP_FUNNEL.slice(0, reached);
  for (let n = Math.floor(r() * 6) + (r() < 0.3 ? 1 : 0); n > 0; n--) {
    const side = SIDE[Math.floor(r() * SIDE.length)] ?? SIDE[0];
    steps.splice(1 + Math.floor(r() * steps.length), 0, side);
  }
  const product = Math.floor(r() * r() * 500);
  const category = CATEGORIES[product % CATEGORIES.length] ?? 'shoes';
  const price = 10 + (product % 17) * 5;
  const out: object[] = [];
  let at = t0;
  for (const step of steps) {
    const properties: Record<string, unknown> =
      step.name === 'Home'
        ? { path: '/', referrer }
        : step.name === 'Product'
          ? { path: `/p/${product}`, product_id: `p${product}`, category, price }
          : step.name === 'Add to cart'
            ? { product_id: `p${product}`, quantity: 1 + Math.floor(r() * r() * 4), price }
            : step.name === 'Checkout'
              ? { path: '/checkout', items: 1 + Math.floor(r() * 3) }
              : step.name === 'Place order'
                ? {
                    order_value: price * (1 + Math.floor(r() * 3)),
                    currency: 'EUR',
                    payment: r() < 0.7 ? 'card' : 'paypal',
                    first_order: r() < 0.3,
                  }
                : step.name === 'Search'
                  ? { query_length: 3 + Math.floor(r() * 20) }
                  : step.name === 'Category'
                    ? { path: `/c/${category}`, category }
                    : { path: `/${step.name.toLowerCase().replaceAll(' ', '-')}` };
    out.push({
      id: randomUUID(),
      occurred_at: new Date(at).toISOString(),
      name: step.name,
      kind: step.page ? pageKind : 'interaction',
      distinct_id: distinctId,
      session_id: sessionId,
      properties,
      service_name,
      environment,
      release: releaseOf(app, at, world.start),
    });
    at += 3_000 + Math.floor(r() * r() * 120_000);
  }
  return out;
}

/** One slice of one project: its sessions' actions in time order, in batches of ≤ 5,000. */
function sliceBodies(world: World, slice: number, project: number): string[] {
  const r = rng(slice * 7919 + project * 104_729 + 1);
  const sliceMs = (DAYS * DAY) / SLICES;
  const from = world.start + slice * sliceMs;
  const share = (total: number) => Math.floor(total / SLICES) + (slice < total % SLICES ? 1 : 0);
  const sessions = share(world.sessions);
  // Users first seen in this slice are numbered on from those of the earlier slices.
  const firstNew = Math.floor((world.users * slice) / SLICES);
  const news = Math.floor((world.users * (slice + 1)) / SLICES) - firstNew;
  const actions: object[] = [];
  for (let j = 0; j < sessions; j++) {
    let user: number;
    if (j < news || firstNew === 0) user = firstNew + (j % Math.max(1, news));
    else {
      // Returning: mostly users first seen in the last few days (mean about 4 days back).
      const back = Math.floor(-Math.log(1 - r()) * 4 * (world.users / DAYS));
      user = firstNew - 1 - (back % firstNew);
    }
    const t0 = from + Math.floor(r() * sliceMs);
    actions.push(...session(r, world, `s${project}-${slice}-${j}`, `u${project}-${user}`, t0));
  }
  actions.sort(
    (a, b) =>
      Date.parse((a as { occurred_at: string }).occurred_at) -
      Date.parse((b as { occurred_at: string }).occurred_at),
  );
  const bodies: string[] = [];
  for (let k = 0; k < actions.length; k += BATCH)
    bodies.push(JSON.stringify({ actions: actions.slice(k, k + BATCH) }));
  return bodies;
}

async function seed(
  baseUrl: string,
  projects: { ingest_key: string }[],
  worlds: World[],
): Promise<{ seconds: number; batches: number; actions: number }> {
  const jobs: [number, number][] = [];
  for (let s = 0; s < SLICES; s++) for (let p = 0; p < projects.length; p++) jobs.push([s, p]);
  let next = 0;
  let batches = 0;
  let actions = 0;
  const started = performance.now();
  const sender = async () => {
    for (;;) {
      const job = jobs[next++];
      if (job === undefined) return;
      const [slice, p] = job;
      const world = worlds[p];
      if (world === undefined) continue;
      for (const body of sliceBodies(world, slice, p)) {
        const res = await fetch(`${baseUrl}/api/telemetry/ingest`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${projects[p]?.ingest_key ?? ''}`,
            'Content-Type': 'application/json',
          },
          body,
        });
        const text = await res.text();
        if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${text}`);
        actions += (JSON.parse(text) as { actions: number }).actions;
        batches += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: SENDERS }, sender));
  return { seconds: (performance.now() - started) / 1000, batches, actions };
}

const sizeOf = (body: unknown): number => {
  const b = body as Record<string, unknown>;
  for (const key of ['steps', 'buckets', 'properties', 'cohorts', 'periods', 'paths', 'segments'])
    if (Array.isArray(b[key])) return (b[key] as unknown[]).length;
  return 0;
};

/** About `total` actions in the main project (2% of that in the second); `runs` calls a case. */
export async function measureAnalytics(total: number, runs = 10): Promise<AnalyticsReport> {
  const onClickHouse = benchOnClickHouse();
  const loadBefore = os.loadavg()[0] ?? 0;
  const service = await spawnBenchService({}, { keep: onClickHouse });
  let stopped = false;
  const token = service.creds.account_token;
  const projects = service.creds.projects.slice(0, 2);
  // Whole hours, so the 30 days end at the last full hour before the reads.
  const start = Math.floor(Date.now() / HOUR) * HOUR - DAYS * DAY;
  const sessions = Math.round(total / ACTIONS_PER_SESSION);
  const worlds: World[] = [
    { start, sessions, users: Math.round(sessions / SESSIONS_PER_USER) },
    {
      start,
      sessions: Math.round(sessions * SMALL_SHARE),
      users: Math.round((sessions * SMALL_SHARE) / SESSIONS_PER_USER),
    },
  ];
  try {
    const seeded = await seed(service.baseUrl, projects, worlds);
    const call = async (method: 'GET' | 'POST', pathAndQuery: string, body?: unknown) => {
      const t = performance.now();
      const res = await fetch(`${service.baseUrl}${pathAndQuery}`, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      const parsed = JSON.parse(text) as unknown;
      const ms = performance.now() - t;
      if (res.status !== 200) throw new Error(`${pathAndQuery} answered ${res.status}: ${text}`);
      return { ms, body: parsed, bytes: Buffer.byteLength(text) };
    };
    const p0 = projects[0]?.id ?? '';
    const steps = SHOP_FUNNEL.map((s) => ({
      kind: s.page ? 'page_view' : 'interaction',
      event_name: s.name,
    }));
    const funnel = (since: string, unit: string) => ({
      project_id: p0,
      since,
      analysis_unit: unit,
      conversion_window_seconds: unit === 'session' ? 3600 : 7 * 86_400,
      steps,
    });
    const q = (since: string, extra = '') =>
      `project_id=${p0}&since=${encodeURIComponent(since)}${extra}`;
    const cases: [string, 'GET' | 'POST', string, unknown][] = [
      [
        'funnel: 5 steps, 7d, session',
        'POST',
        '/api/telemetry/analytics/funnel',
        funnel('7d', 'session'),
      ],
      [
        'funnel: 5 steps, 7d, identified_user',
        'POST',
        '/api/telemetry/analytics/funnel',
        funnel('7d', 'identified_user'),
      ],
      [
        'funnel: 5 steps, 30d, session',
        'POST',
        '/api/telemetry/analytics/funnel',
        funnel('30d', 'session'),
      ],
      [
        'funnel: 5 steps, 30d, identified_user',
        'POST',
        '/api/telemetry/analytics/funnel',
        funnel('30d', 'identified_user'),
      ],
      [
        'overview: 7d, top_limit 50',
        'GET',
        `/api/telemetry/analytics/overview?${q('7d', '&top_limit=50')}`,
        undefined,
      ],
      [
        'overview: 30d, top_limit 50',
        'GET',
        `/api/telemetry/analytics/overview?${q('30d', '&top_limit=50')}`,
        undefined,
      ],
      ['properties: 30d', 'GET', `/api/telemetry/analytics/properties?${q('30d')}`, undefined],
      [
        'retention: 30d, day',
        'POST',
        '/api/telemetry/analytics/retention',
        { project_id: p0, since: '30d', period: 'day' },
      ],
      [
        'lifecycle: 30d, day',
        'POST',
        '/api/telemetry/analytics/lifecycle',
        { project_id: p0, since: '30d', period: 'day' },
      ],
      [
        'paths: 30d, depth 3, session',
        'POST',
        '/api/telemetry/analytics/paths',
        { project_id: p0, since: '30d', depth: 3 },
      ],
      [
        'segments: 30d, production vs staging',
        'POST',
        '/api/telemetry/analytics/segments/compare',
        {
          project_id: p0,
          since: '30d',
          segments: [
            { name: 'production', environment: 'production' },
            { name: 'staging', environment: 'staging' },
          ],
        },
      ],
    ];
    const only = process.env.BENCH_ANALYTICS_CASES;
    const report: AnalyticsCase[] = [];
    for (const [name, method, url, body] of cases) {
      if (only && !name.startsWith(only)) continue;
      const times: number[] = [];
      let size = 0;
      let bytes = 0;
      for (let w = 0; w < 2; w++) await call(method, url, body); // warm statements and cache
      for (let run = 0; run < runs; run++) {
        const res = await call(method, url, body);
        times.push(res.ms);
        size = sizeOf(res.body);
        bytes = res.bytes;
      }
      times.sort((a, b) => a - b);
      const c: AnalyticsCase = {
        name,
        runs,
        p50_ms: Number(percentile(times, 0.5).toFixed(1)),
        p95_ms: Number(percentile(times, 0.95).toFixed(1)),
        size,
        bytes,
      };
      if (process.env.BENCH_VERBOSE === '1') console.error(JSON.stringify(c));
      report.push(c);
    }
    const dbFile = path.join(service.dir, 'lookout.sqlite');
    const db = new Database(dbFile, { readonly: true });
    const storage = db
      .prepare<[], { name: string; bytes: number }>(
        'SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 10',
      )
      .all();
    db.close();
    const size = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);
    const loadAfter = os.loadavg()[0] ?? 0;
    let clickhouse: AnalyticsReport['clickhouse'];
    if (onClickHouse) {
      const chDir = path.join(service.dir, 'clickhouse');
      const directory = directoryBytes(chDir);
      stopped = true;
      await service.stop();
      const active = await activeParts(chDir);
      clickhouse = {
        directory_bytes: directory,
        active_part_bytes: active.bytes,
        active_parts: active.parts,
      };
    }
    return {
      actions: seeded.actions,
      sessions: worlds.reduce((n, w) => n + w.sessions, 0),
      users: worlds.reduce((n, w) => n + w.users, 0),
      projects: projects.length,
      days: DAYS,
      senders: SENDERS,
      batches: seeded.batches,
      seed_seconds: Number(seeded.seconds.toFixed(1)),
      seed_events_per_second: Math.round(seeded.actions / seeded.seconds),
      database_bytes: size(dbFile),
      wal_bytes: size(`${dbFile}-wal`),
      storage,
      telemetry: onClickHouse ? 'clickhouse' : 'state',
      ...(clickhouse ? { clickhouse } : {}),
      load_average: [Number(loadBefore.toFixed(2)), Number(loadAfter.toFixed(2))],
      cases: report,
    };
  } finally {
    if (!stopped) await service.stop();
    if (onClickHouse && process.env.BENCH_KEEP_DATA !== '1')
      fs.rmSync(service.dir, { recursive: true, force: true });
  }
}
