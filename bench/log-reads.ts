/**
 * Log reads at scale: 1M logs with structured attributes, sent through the real ingest route
 * into the embedded store, then list, attribute-filter and catalog latency through HTTP as
 * the console calls them (account bearer, cursor pages of 100).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { spawnBenchService, benchOnClickHouse } from './spawn-bench-service';

export type ReadCase = {
  name: string;
  runs: number;
  p50_ms: number;
  p95_ms: number;
  rows_p50: number;
};
export type LogReadsReport = {
  logs: number;
  projects: number;
  seed_seconds: number;
  seed_events_per_second: number;
  /** The database file after seeding, and its write-ahead log (not yet checkpointed). */
  database_bytes: number;
  wal_bytes: number;
  /** Bytes by table and index (SQLite's dbstat), largest first. */
  storage: { name: string; bytes: number }[];
  /** Where logs were: the state store, or ClickHouse (LOOKOUT_TELEMETRY=clickhouse). */
  telemetry: 'state' | 'clickhouse';
  /**
   * With embedded ClickHouse: its directory on disk after the reads (parts replaced by merges
   * stay on disk until cleanup), and the bytes of its active parts (what stays).
   */
  clickhouse?: { directory_bytes: number; active_part_bytes: number; active_parts: number };
  cases: ReadCase[];
};

/** Bytes of every file under `dir`. */
export function directoryBytes(dir: string): number {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) total += fs.statSync(path.join(e.parentPath, e.name)).size;
  return total;
}

/** The active parts of the embedded engine's files in `dir` (read once no service holds them). */
export async function activeParts(dir: string): Promise<{ bytes: number; parts: number }> {
  const { openClickHouse } = await import('../server/store/telemetry/clickhouse/clickhouse-db');
  const { sql } = await import('../server/store/rows/sql');
  const db = await openClickHouse({ url: null, database: 'lookout', embeddedPath: dir });
  try {
    const row = await db.one<{ bytes: number; parts: number }>(
      sql`SELECT toUInt64(sum(bytes_on_disk)) AS bytes, toUInt32(count()) AS parts
        FROM system.parts WHERE active AND database = 'lookout'`,
    );
    return { bytes: row?.bytes ?? 0, parts: row?.parts ?? 0 };
  } finally {
    await db.close();
  }
}

const DAY = 86_400_000;
const SPAN_DAYS = 14;
const SENDERS = 2;
const BATCH = 1000;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/** A small deterministic generator, so every run reads the same world. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export const ROUTES = [
  '/api/cart/{id}',
  '/api/checkout',
  '/api/products',
  '/api/search',
  '/api/orders/{id}',
];
export const REGIONS = ['eu-west-1', 'us-east-1', 'ap-south-1'];
export const PLANS = ['free', 'pro', 'scale'];

/** Ids fixed by the seed's anchor, batch and place, so a resumed or retried batch repeats them. */
function idOf(anchor: number, batch: number, n: number): string {
  const h = createHash('sha256').update(`${anchor}:${batch}:${n}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * How the seed's times arrive. `backfill`: each log anywhere in the span, as an import of old
 * data sends them (every batch writes all over the time indexes). `live`: batch after batch
 * moves through the span, each log at a random time within its batch's slice, as services
 * send what just happened (their clocks and buffering shuffle it within the slice).
 */
export type Arrival = 'backfill' | 'live';

/** The seed's batch `batch`: 1,000 logs with structured attributes (also bench/ingest-throughput.ts). */
export function logsFor(
  batch: number,
  now: number,
  spanMs: number,
  arrival: Arrival = 'backfill',
  batches = 1,
) {
  const r = rng(batch + 1);
  const slice = spanMs / batches;
  const at = () =>
    arrival === 'live'
      ? now - spanMs + Math.floor((batch + r()) * slice)
      : now - Math.floor(r() * spanMs);
  return Array.from({ length: BATCH }, (_, n) => {
    const status = r() < 0.04 ? 503 : r() < 0.08 ? 404 : 200;
    const route = ROUTES[Math.floor(r() * ROUTES.length)] ?? '/';
    const duration = Math.round(5 + r() * r() * 2000);
    return {
      id: idOf(now, batch, n),
      occurred_at: new Date(at()).toISOString(),
      severity: status === 503 ? 'error' : status === 404 ? 'warn' : 'info',
      message: `${status === 503 ? 'POST' : 'GET'} ${route} ${status} in ${duration}ms`,
      attributes: {
        http: { method: status === 503 ? 'POST' : 'GET', status, route },
        duration_ms: duration,
        region: REGIONS[Math.floor(r() * REGIONS.length)],
        user: { plan: PLANS[Math.floor(r() * PLANS.length)], id: `u-${Math.floor(r() * 50_000)}` },
        cache: { hit: r() < 0.7 },
      },
    };
  });
}

export type SeedOptions = {
  spanMs?: number;
  /** `backfill` unless told. */
  arrival?: Arrival;
  /** Batches an earlier run of the same seed already stored (resuming); 0 by default. */
  from?: number;
  /** The time logs are spread back from (and their ids derive from): a resumed run keeps it. */
  anchor?: number;
  /** Told after each batch how many batches from the first are all stored. */
  onProgress?: (batchesDone: number) => void;
};

/** Logs per ingest request of `seedLogs`. */
export const SEED_BATCH = BATCH;

/**
 * Sends `total` logs spread over `spanMs` before the anchor, round-robin over the projects;
 * seconds taken. Every log is fixed by the anchor and its batch, so a run resumed `from` a
 * batch (or a batch sent again) adds each log once.
 */
export async function seedLogs(
  baseUrl: string,
  projects: { ingest_key: string }[],
  total: number,
  opts: SeedOptions = {},
): Promise<number> {
  const now = opts.anchor ?? Date.now();
  const spanMs = opts.spanMs ?? SPAN_DAYS * DAY;
  const batches = Math.ceil(total / BATCH);
  let next = opts.from ?? 0;
  // The batches finished out of order past the first unfinished one.
  let prefix = next;
  const finished = new Set<number>();
  const started = performance.now();
  const sender = async () => {
    for (;;) {
      const b = next++;
      if (b >= batches) return;
      const project = projects[b % projects.length];
      // Built once: a retry sends the same ids, which the service stores once.
      const body = JSON.stringify({
        release: 'shop@3.1.0',
        environment: 'production',
        service_name: 'storefront-api',
        logs: logsFor(b, now, spanMs, opts.arrival, batches),
      });
      const send = () =>
        fetch(`${baseUrl}/api/telemetry/ingest`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${project?.ingest_key ?? ''}`,
            'Content-Type': 'application/json',
          },
          body,
        });
      // A connection can be reset (a keep-alive connection closed by the service just as it
      // is reused, under load): resend, as any client of an idempotent route would.
      let res: Response | null = null;
      for (let attempt = 1; res === null; attempt += 1) {
        try {
          res = await send();
        } catch (e) {
          if (attempt >= 5) throw e;
          console.error(`  batch ${b}: ${(e as Error).message}; sending it again`);
          await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
        }
      }
      if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      finished.add(b);
      while (finished.delete(prefix)) prefix += 1;
      opts.onProgress?.(prefix);
    }
  };
  await Promise.all(Array.from({ length: SENDERS }, sender));
  return (performance.now() - started) / 1000;
}

/** A read the benchmark times: its name, and the URL of its `run`-th request. */
export type LogReadCase = [name: string, query: (run: number) => string];

/**
 * The reads the logs explorer makes, as the console calls them (cursor pages of 100 over the
 * seeded 14 days): lists, attribute filters and the attribute catalog.
 */
export function logReadCases(projectId: string, now = Date.now()): LogReadCase[] {
  const f = (filters: unknown[]) =>
    `attribute_filters=${encodeURIComponent(JSON.stringify(filters))}`;
  const since = encodeURIComponent(new Date(now - SPAN_DAYS * DAY).toISOString());
  const list = `/api/logs?pagination=cursor&limit=100&since=${since}`;
  /** Each run reads a page from a different start: the first page, then pages deeper in. */
  return [
    ['list: all projects, first page', () => list],
    ['list: one project, first page', () => `${list}&project_id=${projectId}`],
    ['list: severity=error', () => `${list}&severity=error`],
    [
      'list: page at a random depth',
      (run) =>
        `${list}&until=${encodeURIComponent(new Date(now - (run % 13) * DAY).toISOString())}`,
    ],
    [
      'attribute eq string (region)',
      () =>
        `${list}&${f([{ path: '/region', type: 'string', operator: 'eq', value: 'EU-WEST-1' }])}`,
    ],
    [
      'attribute eq string, rare (user id)',
      (run) =>
        `${list}&${f([{ path: '/user/id', type: 'string', operator: 'eq', value: `u-${run * 97}` }])}`,
    ],
    [
      'attribute eq number (status 503)',
      () => `${list}&${f([{ path: '/http/status', type: 'number', operator: 'eq', value: 503 }])}`,
    ],
    [
      'attribute gte number (duration ≥ 1500)',
      () =>
        `${list}&${f([{ path: '/duration_ms', type: 'number', operator: 'gte', value: 1500 }])}`,
    ],
    [
      'attribute contains (route "check")',
      () =>
        `${list}&${f([{ path: '/http/route', type: 'string', operator: 'contains', value: 'check' }])}`,
    ],
    [
      'attribute: two filters (503 and plan pro)',
      () =>
        `${list}&${f([
          { path: '/http/status', type: 'number', operator: 'eq', value: 503 },
          { path: '/user/plan', type: 'string', operator: 'eq', value: 'pro' },
        ])}`,
    ],
    [
      'attribute: eq + boolean (region, cache miss)',
      () =>
        `${list}&${f([
          { path: '/region', type: 'string', operator: 'eq', value: 'us-east-1' },
          { path: '/cache/hit', type: 'boolean', operator: 'eq', value: false },
        ])}`,
    ],
    ['catalog: 24h', () => '/api/logs/attributes?since=24h'],
    ['catalog: 7d', () => '/api/logs/attributes?since=7d'],
    ['catalog: 14d, mid-hour since', () => `/api/logs/attributes?since=${since}`],
  ];
}

/** Times each case `runs` times through HTTP with the account bearer (after one warm-up). */
export async function timeLogReads(
  baseUrl: string,
  token: string,
  cases: LogReadCase[],
  runs: number,
): Promise<ReadCase[]> {
  const get = async (pathAndQuery: string) => {
    const t = performance.now();
    const res = await fetch(`${baseUrl}${pathAndQuery}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const body = (await res.json()) as unknown;
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${pathAndQuery} answered ${res.status}`);
    return { ms, body };
  };
  const rowsOf = (body: unknown) =>
    Array.isArray(body)
      ? body.length
      : (
          (body as { logs?: unknown[]; attributes?: unknown[] }).logs ??
          (body as { attributes?: unknown[] }).attributes ??
          []
        ).length;
  const report: ReadCase[] = [];
  for (const [name, query] of cases) {
    const times: number[] = [];
    const rows: number[] = [];
    await get(query(0)); // warm the statement and page cache once
    for (let run = 0; run < runs; run++) {
      const { ms, body } = await get(query(run));
      times.push(ms);
      rows.push(rowsOf(body));
    }
    times.sort((a, b) => a - b);
    rows.sort((a, b) => a - b);
    report.push({
      name,
      runs,
      p50_ms: Number(percentile(times, 0.5).toFixed(1)),
      p95_ms: Number(percentile(times, 0.95).toFixed(1)),
      rows_p50: percentile(rows, 0.5),
    });
  }
  return report;
}

export async function measureLogReads(total: number, runs = 40): Promise<LogReadsReport> {
  const onClickHouse = benchOnClickHouse();
  const service = await spawnBenchService({}, { keep: onClickHouse });
  const projects = service.creds.projects;
  const chDir = path.join(service.dir, 'clickhouse');
  let stopped = false;
  try {
    const seconds = await seedLogs(service.baseUrl, projects, total);
    const report = await timeLogReads(
      service.baseUrl,
      service.creds.account_token,
      logReadCases(projects[0]?.id ?? ''),
      runs,
    );
    const dbFile = path.join(service.dir, 'lookout.sqlite');
    const db = new Database(dbFile, { readonly: true });
    const storage = db
      .prepare<[], { name: string; bytes: number }>(
        'SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 8',
      )
      .all();
    db.close();
    const walFile = `${dbFile}-wal`;
    const size = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);
    let clickhouse: LogReadsReport['clickhouse'];
    if (onClickHouse) {
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
      logs: total,
      projects: projects.length,
      seed_seconds: Number(seconds.toFixed(1)),
      seed_events_per_second: Math.round(total / seconds),
      database_bytes: size(dbFile),
      wal_bytes: size(walFile),
      storage,
      telemetry: onClickHouse ? 'clickhouse' : 'state',
      ...(clickhouse ? { clickhouse } : {}),
      cases: report,
    };
  } finally {
    if (!stopped) await service.stop();
    if (onClickHouse) fs.rmSync(service.dir, { recursive: true, force: true });
  }
}
