/**
 * Release health reads at scale: a world of 1M events (metric samples through the SDK route
 * `POST /v1/events`; spans, logs and a few hundred issue events through
 * `POST /api/telemetry/ingest`) over 14 days, six services with four releases each in two
 * environments, then the release list, the metric series and the volume summary through HTTP
 * as the console calls them (account bearer).
 *
 * The world is sent in time order (slice by slice, as live SDKs deliver it), each request a
 * batch of about 5,000 items (the routes' maximum) for one project.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { spawnBenchService } from './spawn-bench-service';

export type SeriesCase = {
  name: string;
  runs: number;
  p50_ms: number;
  p95_ms: number;
  /** Rows (release list) or buckets × series (series, volume) of the answer. */
  size: number;
};
export type ReleaseSeriesReport = {
  events: number;
  metric_samples: number;
  spans: number;
  traces: number;
  logs: number;
  issue_events: number;
  projects: number;
  release_rows: number;
  senders: number;
  batches: number;
  seed_seconds: number;
  seed_events_per_second: number;
  database_bytes: number;
  wal_bytes: number;
  storage: { name: string; bytes: number }[];
  cases: SeriesCase[];
};

const DAY = 86_400_000;
const HOUR = 3_600_000;
const SPAN_DAYS = 14;
const BATCH = 5000;
// Measured at 200k events in alternating runs (2026-11-22, load 5 to 6 from other sessions):
// 2 senders about 6% faster than 1 (14.8k vs 13.9k and 8.4k vs 7.9k events/s; the generator
// builds the next batch while the service stores one); 3 no better than 2.
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

const SERVICES = [
  { name: 'storefront-web', app: 'web', major: 1, minor: 8 },
  { name: 'checkout-api', app: 'checkout', major: 2, minor: 14 },
  { name: 'catalog-api', app: 'catalog', major: 3, minor: 2 },
  { name: 'payments-worker', app: 'payments', major: 1, minor: 21 },
  { name: 'search-api', app: 'search', major: 0, minor: 9 },
  { name: 'pricing-api', app: 'pricing', major: 4, minor: 0 },
] as const;
type Service = (typeof SERVICES)[number];
const RELEASES_PER_SERVICE = 4;
const ENVIRONMENTS = ['production', 'staging'] as const;
const ROUTES = ['/api/cart/{id}', '/api/checkout', '/api/products', '/api/search', '/api/orders'];
const DB_OPS = ['SELECT orders', 'SELECT products', 'UPDATE carts', 'INSERT payments'];

/**
 * Releases follow each other over the 14 days (a service-specific offset, so deployments do
 * not line up); staging gets each release six hours before production.
 */
function releaseAt(
  service: Service,
  index: number,
  environment: string,
  at: number,
  start: number,
) {
  const lead = environment === 'staging' ? 6 * HOUR : 0;
  const length = (SPAN_DAYS * DAY) / RELEASES_PER_SERVICE;
  const offset = (index * 7 * HOUR) % length;
  const r = Math.min(
    RELEASES_PER_SERVICE - 1,
    Math.max(0, Math.floor((at - start + lead + offset) / length)),
  );
  return `${service.app}@${service.major}.${service.minor + r}.0`;
}

const hex = (r: () => number, n: number) => {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(r() * 16).toString(16);
  return s;
};

type World = {
  start: number;
  metrics: number;
  spans: number;
  logs: number;
  issues: number;
};

/** What one time slice of one project sends: one SDK batch (metrics), one native batch. */
function sliceBodies(
  world: World,
  slice: number,
  slices: number,
  project: number,
  projects: number,
  counts: { traces: number },
) {
  const r = rng(slice * 7919 + project * 104_729 + 1);
  const sliceMs = (SPAN_DAYS * DAY) / slices;
  const from = world.start + slice * sliceMs;
  const services = SERVICES.map((s, i) => ({ s, i })).filter((x) => x.i % projects === project);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const env = () => ENVIRONMENTS[r() < 0.75 ? 0 : 1];
  const share = (total: number) =>
    Math.floor(total / (slices * projects)) +
    (slice * projects + project < total % (slices * projects) ? 1 : 0);

  const metricEvents: unknown[] = [];
  for (let n = share(world.metrics); n > 0; n--) {
    const { s, i } = pick(services);
    const environment = env();
    const at = from + Math.floor(r() * sliceMs);
    const release = releaseAt(s, i, environment, at, world.start);
    const which = r();
    const base = {
      id: randomUUID(),
      type: 'metric',
      occurred_at: new Date(at).toISOString(),
      service_name: s.name,
      release,
      environment,
    };
    if (which < 0.5)
      metricEvents.push({
        ...base,
        name: 'http.server.duration',
        kind: 'histogram',
        value: Math.round(20 + r() * r() * 900 + (release.endsWith('.2.0') ? 150 : 0)),
        unit: 'ms',
        attributes: { route: pick(ROUTES), method: r() < 0.8 ? 'GET' : 'POST' },
      });
    else if (which < 0.75)
      metricEvents.push({
        ...base,
        name: 'http.server.requests',
        kind: 'counter',
        temporality: 'delta',
        value: 1 + Math.floor(r() * 40),
        attributes: { route: pick(ROUTES), status: r() < 0.03 ? 500 : 200 },
      });
    else if (which < 0.9)
      metricEvents.push({
        ...base,
        name: 'process.memory.rss',
        kind: 'gauge',
        value: Math.round(180e6 + r() * 60e6),
        unit: 'bytes',
      });
    else
      metricEvents.push({
        ...base,
        name: 'queue.depth',
        kind: 'gauge',
        value: Math.floor(r() * r() * 500),
      });
  }

  const spans: unknown[] = [];
  const traceIds: { trace: string; span: string; at: number; s: Service; i: number }[] = [];
  for (let budget = share(world.spans); budget > 0;) {
    const size = Math.min(budget, 5 + Math.floor(r() * 16));
    budget -= size;
    counts.traces += 1;
    const trace = hex(r, 32);
    const environment = env();
    const t0 = from + Math.floor(r() * sliceMs);
    const root = pick(services);
    const downstream = pick(services);
    const failing = r() < 0.08 ? 1 + Math.floor(r() * (size - 1)) : -1;
    const ids: string[] = [];
    let cursor = t0;
    for (let k = 0; k < size; k++) {
      const { s, i } = k === 0 || k % 3 !== 0 ? root : downstream;
      const spanId = hex(r, 16);
      const parent = k === 0 ? null : (ids[Math.floor(r() * Math.min(k, 3))] ?? null);
      const duration = k === 0 ? 40 + r() * 900 : 1 + r() * 60;
      const started = k === 0 ? t0 : cursor;
      cursor += Math.floor(r() * 20);
      ids.push(spanId);
      spans.push({
        id: randomUUID(),
        trace_id: trace,
        span_id: spanId,
        parent_span_id: parent,
        name: k === 0 ? `GET ${pick(ROUTES)}` : k % 2 === 0 ? pick(DB_OPS) : 'call downstream',
        operation: k === 0 ? 'http.server' : k % 2 === 0 ? 'db.query' : 'http.client',
        kind: k === 0 ? 'server' : 'client',
        started_at: new Date(started).toISOString(),
        duration_ms: Number(duration.toFixed(3)),
        status: k === failing ? 'error' : 'ok',
        ...(k === failing ? { status_message: 'upstream timed out' } : {}),
        attributes: { 'http.route': pick(ROUTES) },
        service_name: s.name,
        release: releaseAt(s, i, environment, started, world.start),
        environment,
      });
      if (k === 0) traceIds.push({ trace, span: spanId, at: t0, s, i });
    }
  }

  const logs: unknown[] = [];
  for (let n = share(world.logs); n > 0; n--) {
    const linked = traceIds.length > 0 && r() < 0.5 ? pick(traceIds) : null;
    const { s, i } = linked ?? pick(services);
    const environment = env();
    const at = linked ? linked.at + Math.floor(r() * 200) : from + Math.floor(r() * sliceMs);
    const status = r() < 0.04 ? 503 : 200;
    const route = pick(ROUTES);
    logs.push({
      id: randomUUID(),
      occurred_at: new Date(at).toISOString(),
      severity: status === 503 ? 'error' : r() < 0.1 ? 'warn' : 'info',
      message: `GET ${route} ${status} in ${Math.round(5 + r() * r() * 2000)}ms`,
      attributes: { http: { route, status }, region: r() < 0.5 ? 'eu-west-1' : 'us-east-1' },
      trace_id: linked?.trace ?? null,
      span_id: linked?.span ?? null,
      service_name: s.name,
      release: releaseAt(s, i, environment, at, world.start),
      environment,
    });
  }

  const issues: unknown[] = [];
  for (let n = share(world.issues); n > 0; n--) {
    const linked = traceIds.length > 0 ? pick(traceIds) : null;
    const { s, i } = linked ?? pick(services);
    const environment = env();
    const at = linked?.at ?? from + Math.floor(r() * sliceMs);
    const kind = Math.floor(r() * r() * 6);
    issues.push({
      id: randomUUID(),
      occurred_at: new Date(at).toISOString(),
      severity: 'error',
      message: `${['TimeoutError', 'TypeError', 'RangeError', 'PaymentDeclined', 'DbDeadlock', 'NotFound'][kind]} in ${s.name}`,
      exception: { type: `E${kind}`, value: 'something went wrong' },
      fingerprint: `${s.name}-${kind}`,
      trace_id: linked?.trace ?? null,
      span_id: linked?.span ?? null,
      service_name: s.name,
      release: releaseAt(s, i, environment, at, world.start),
      environment,
    });
  }

  const bodies: { route: string; body: string; events: number }[] = [];
  for (let k = 0; k < metricEvents.length; k += BATCH) {
    const events = metricEvents.slice(k, k + BATCH);
    bodies.push({
      route: '/v1/events',
      events: events.length,
      body: JSON.stringify({
        sdk: { name: 'lookout.bench', version: '1.0.0' },
        // As an SDK sends it: the context of its app; every event names its own row too.
        context: {
          release: (events[0] as { release: string }).release,
          environment: (events[0] as { environment: string }).environment,
          service_name: (events[0] as { service_name: string }).service_name,
        },
        events,
      }),
    });
  }
  const native = [
    ...spans.map((x) => ['trace_spans', x] as const),
    ...logs.map((x) => ['logs', x] as const),
    ...issues.map((x) => ['issues', x] as const),
  ];
  for (let k = 0; k < native.length; k += BATCH) {
    const part = native.slice(k, k + BATCH);
    const of = (kind: string) => part.filter(([t]) => t === kind).map(([, x]) => x);
    bodies.push({
      route: '/api/telemetry/ingest',
      events: part.length,
      body: JSON.stringify({
        trace_spans: of('trace_spans'),
        logs: of('logs'),
        issues: of('issues'),
      }),
    });
  }
  return bodies;
}

async function seedWorld(
  baseUrl: string,
  projects: { ingest_key: string }[],
  world: World,
): Promise<{ seconds: number; batches: number; traces: number }> {
  const total = world.metrics + world.spans + world.logs + world.issues;
  // About two batches (one per route) of about 5,000 items per slice and project.
  const slices = Math.max(1, Math.round(total / (2 * BATCH * projects.length)));
  const jobs: [number, number][] = [];
  for (let s = 0; s < slices; s++) for (let p = 0; p < projects.length; p++) jobs.push([s, p]);
  const counts = { traces: 0 };
  let next = 0;
  let batches = 0;
  const started = performance.now();
  const sender = async () => {
    for (;;) {
      const job = jobs[next++];
      if (job === undefined) return;
      const [slice, p] = job;
      const key = projects[p]?.ingest_key ?? '';
      for (const b of sliceBodies(world, slice, slices, p, projects.length, counts)) {
        const res = await fetch(`${baseUrl}${b.route}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: b.body,
        });
        if (res.status !== 200)
          throw new Error(`${b.route} answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
        batches += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: SENDERS }, sender));
  return { seconds: (performance.now() - started) / 1000, batches, traces: counts.traces };
}

export async function measureReleaseSeries(total: number, runs = 50): Promise<ReleaseSeriesReport> {
  const service = await spawnBenchService();
  const token = service.creds.account_token;
  // Each project holds at least one of the six services.
  const projects = service.creds.projects.slice(0, SERVICES.length);
  const issuesTotal = Math.max(30, Math.round((300 * total) / 1_000_000));
  const rest = total - issuesTotal;
  const world: World = {
    // Whole hours, so the 14 days end at the last full hour before the reads.
    start: Math.floor(Date.now() / HOUR) * HOUR - SPAN_DAYS * DAY,
    metrics: Math.round(rest * 0.4),
    spans: Math.round(rest * 0.4),
    logs: rest - 2 * Math.round(rest * 0.4),
    issues: issuesTotal,
  };
  try {
    const seed = await seedWorld(service.baseUrl, projects, world);
    const get = async (pathAndQuery: string) => {
      const t = performance.now();
      const res = await fetch(`${service.baseUrl}${pathAndQuery}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const body = (await res.json()) as unknown;
      const ms = performance.now() - t;
      if (res.status !== 200)
        throw new Error(`${pathAndQuery} answered ${res.status}: ${JSON.stringify(body)}`);
      return { ms, body };
    };
    const sizeOf = (body: unknown) => {
      if (Array.isArray(body)) return body.length;
      const b = body as {
        releases?: unknown[];
        buckets?: unknown[];
        series?: unknown[];
        streams?: unknown[];
      };
      if (b.releases) return b.releases.length;
      if (b.buckets && b.series) return b.buckets.length * b.series.length;
      return b.buckets?.length ?? 0;
    };
    const p0 = projects[0]?.id ?? '';
    const all = await get('/api/telemetry/releases?limit=1000');
    const releaseRows = sizeOf(all.body);
    const first = (await get('/api/telemetry/releases?pagination=cursor&limit=20')).body as {
      next_cursor: {
        time: string;
        project_id: string;
        release: string;
        environment: string;
        service_name: string;
      } | null;
    };
    const c = first.next_cursor;
    const page2 = c
      ? `/api/telemetry/releases?pagination=cursor&limit=20&cursor_time=${encodeURIComponent(c.time)}&cursor_project_id=${c.project_id}&cursor_release=${encodeURIComponent(c.release)}&cursor_environment=${encodeURIComponent(c.environment)}&cursor_service_name=${encodeURIComponent(c.service_name)}`
      : '/api/telemetry/releases?pagination=cursor&limit=20';
    const series = `/api/telemetry/metrics/series?project_id=${p0}&name=http.server.duration&interval=auto`;
    const cases: [string, string][] = [
      ['releases: all projects', '/api/telemetry/releases'],
      ['releases: one project', `/api/telemetry/releases?project_id=${p0}`],
      ['releases: since=7d', '/api/telemetry/releases?since=7d'],
      ['releases: cursor page 2 (limit 20)', page2],
      ['series: histogram, 24h (auto)', `${series}&since=24h`],
      ['series: histogram, 7d (auto)', `${series}&since=7d`],
      ['series: histogram, 14d (auto)', `${series}&since=14d`],
      ['series: histogram, 7d, group_by=release', `${series}&since=7d&group_by=release`],
      [
        'series: counter, 7d (auto)',
        `/api/telemetry/metrics/series?project_id=${p0}&name=http.server.requests&since=7d`,
      ],
      ['volume: all projects, 7d (auto)', '/api/telemetry/summary/volume?since=7d'],
      ['volume: one project, 7d (auto)', `/api/telemetry/summary/volume?project_id=${p0}&since=7d`],
    ];
    const report: SeriesCase[] = [];
    for (const [name, query] of cases) {
      const times: number[] = [];
      let size = 0;
      for (let w = 0; w < 3; w++) await get(query); // warm statements and page cache
      for (let run = 0; run < runs; run++) {
        const { ms, body } = await get(query);
        times.push(ms);
        size = sizeOf(body);
      }
      times.sort((a, b) => a - b);
      report.push({
        name,
        runs,
        p50_ms: Number(percentile(times, 0.5).toFixed(1)),
        p95_ms: Number(percentile(times, 0.95).toFixed(1)),
        size,
      });
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
    return {
      events: total,
      metric_samples: world.metrics,
      spans: world.spans,
      traces: seed.traces,
      logs: world.logs,
      issue_events: world.issues,
      projects: projects.length,
      release_rows: releaseRows,
      senders: SENDERS,
      batches: seed.batches,
      seed_seconds: Number(seed.seconds.toFixed(1)),
      seed_events_per_second: Math.round(total / seed.seconds),
      database_bytes: size(dbFile),
      wal_bytes: size(`${dbFile}-wal`),
      storage,
      cases: report,
    };
  } finally {
    await service.stop();
  }
}
