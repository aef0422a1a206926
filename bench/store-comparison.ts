/**
 * The same service on its two deployments (issues 12 and 26), SQLite state with ClickHouse
 * telemetry and PostgreSQL only: logs sent through the real ingest
 * route (throughput), then the logs explorer's list and attribute-filter pages (p50/p95), at
 * each size. Logs arrive `live` unless told (moving through 14 days batch by batch, as
 * services send them); `backfill` spreads every batch over the 14 days, an import's worst
 * case, which writes all over every time index and ingests 2–3.5 times slower. PostgreSQL
 * runs in a throwaway cluster with fsync on and asynchronous commit — the durability SQLite
 * has here (WAL, `synchronous = NORMAL`).
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startThrowawayPostgres } from '../scripts/throwaway-postgres';
import {
  SEED_BATCH,
  logReadCases,
  seedLogs,
  timeLogReads,
  type Arrival,
  type ReadCase,
} from './log-reads';
import { spawnBenchService } from './spawn-bench-service';

/**
 * `clickhouse`: the default deployment (SQLite state, telemetry in the embedded engine);
 * `postgres`: PostgreSQL only. `sqlite` names the runs of versions that kept telemetry in
 * SQLite (kept in stores.json as the figures before; no longer run).
 */
export type StoreName = 'sqlite' | 'clickhouse' | 'postgres';
export type StoreRun = {
  store: StoreName;
  logs: number;
  /** How the seed's times arrived (`backfill` for runs from before it was recorded). */
  arrival?: Arrival;
  /** Runs at 10M take hours, so each (store, size) keeps its own date when results merge. */
  measured_at?: string;
  /** Seeding time through the ingest route, summed over the runs it took (`seed_runs`). */
  seed_seconds: number;
  seed_runs?: number;
  ingest_events_per_second: number;
  /**
   * The rate over the seed's last tenth: ingest into a store already near its size, which the
   * whole seed's average (from an empty store) overstates at 10M.
   */
  ingest_last_tenth_events_per_second?: number;
  cases: ReadCase[];
};

/** The explorer's first pages: a list, one project, and the attribute filters. */
const CASES = new Set([
  'list: all projects, first page',
  'list: one project, first page',
  'list: page at a random depth',
  'attribute eq string (region)',
  'attribute eq number (status 503)',
  'attribute: two filters (503 and plan pro)',
]);

/**
 * A seed that survives its run (`BENCH_STORE_DIR`): 10M logs take longer than one sitting,
 * so the service's data, the time the logs are spread back from and the batches already
 * stored are kept, and the next run carries on from there.
 */
type SeedProgress = {
  anchor: number;
  batches_done: number;
  seconds: number;
  runs: number;
  /** Where the seed's last tenth began: batches stored and seconds taken by then. */
  last_tenth_from?: { batches: number; seconds: number };
};

/**
 * Logs per second since the seed's last tenth began (`last_tenth_from`), counting only the
 * `total` logs really sent; undefined until time has passed in it.
 */
export function lastTenthRate(
  total: number,
  progress: Pick<SeedProgress, 'batches_done' | 'seconds' | 'last_tenth_from'>,
): number | undefined {
  const from = progress.last_tenth_from;
  if (!from || progress.seconds <= from.seconds) return undefined;
  const logs = Math.min(total, progress.batches_done * SEED_BATCH) - from.batches * SEED_BATCH;
  return Math.round(logs / (progress.seconds - from.seconds));
}

function readProgress(file: string | null): SeedProgress {
  if (file && fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as SeedProgress;
  return { anchor: Date.now(), batches_done: 0, seconds: 0, runs: 0 };
}

async function runOne(
  store: StoreName,
  total: number,
  arrival: Arrival,
  env: Record<string, string>,
  runs: number,
): Promise<StoreRun> {
  const keepDir = process.env.BENCH_STORE_DIR
    ? path.resolve(process.env.BENCH_STORE_DIR, `${store}-${String(total)}-${arrival}`)
    : null;
  const progressFile = keepDir ? path.join(keepDir, 'progress.json') : null;
  if (keepDir) fs.mkdirSync(path.join(keepDir, 'data'), { recursive: true });
  const progress = readProgress(progressFile);
  progress.runs += 1;
  const service = await spawnBenchService(
    keepDir ? { ...env, LOOKOUT_DATA_DIR: path.join(keepDir, 'data') } : env,
    { keep: keepDir !== null },
  );
  const earlier = progress.seconds;
  const started = performance.now();
  const lastTenth = Math.floor((Math.ceil(total / SEED_BATCH) * 9) / 10);
  try {
    const projects = service.creds.projects;
    if (progress.batches_done > 0)
      console.error(
        `  ${store}: resuming after ${(progress.batches_done * SEED_BATCH).toLocaleString('en')} logs`,
      );
    await seedLogs(service.baseUrl, projects, total, {
      from: progress.batches_done,
      anchor: progress.anchor,
      arrival,
      onProgress: (done) => {
        const before = progress.batches_done;
        progress.batches_done = done;
        progress.seconds = earlier + (performance.now() - started) / 1000;
        if (!progress.last_tenth_from && done >= lastTenth)
          progress.last_tenth_from = { batches: done, seconds: progress.seconds };
        if (progressFile && done % 10 === 0)
          fs.writeFileSync(progressFile, JSON.stringify(progress));
        if (Math.floor((done * SEED_BATCH) / 1e6) > Math.floor((before * SEED_BATCH) / 1e6))
          console.error(
            `  ${store}: ${(done * SEED_BATCH).toLocaleString('en')} of ${total.toLocaleString('en')} logs sent`,
          );
      },
    });
    progress.seconds = earlier + (performance.now() - started) / 1000;
    if (progressFile) fs.writeFileSync(progressFile, JSON.stringify(progress));
    const cases = logReadCases(projects[0]?.id ?? '', progress.anchor).filter(([name]) =>
      CASES.has(name),
    );
    const result: StoreRun = {
      store,
      logs: total,
      arrival,
      measured_at: new Date().toISOString(),
      seed_seconds: Number(progress.seconds.toFixed(1)),
      seed_runs: progress.runs,
      ingest_events_per_second: Math.round(total / progress.seconds),
      ingest_last_tenth_events_per_second: lastTenthRate(total, progress),
      cases: await timeLogReads(service.baseUrl, service.creds.account_token, cases, runs),
    };
    await service.stop();
    // Measured: the seed has served its purpose (10M logs are tens of GB).
    if (keepDir && process.env.BENCH_KEEP_DATA !== '1')
      fs.rmSync(keepDir, { recursive: true, force: true });
    return result;
  } catch (e) {
    await service.stop();
    throw e;
  }
}

/**
 * Each size on each store named, in turn; `onResult` hears each run as it ends, so a run of
 * hours keeps what it measured if a later one fails.
 */
export async function measureStores(
  sizes: number[],
  stores: StoreName[],
  arrival: Arrival,
  runs: number,
  onResult: (run: StoreRun) => void,
): Promise<void> {
  const keep = process.env.BENCH_STORE_DIR;
  const cluster = stores.includes('postgres')
    ? await startThrowawayPostgres({
        durable: true,
        ...(keep ? { dir: path.resolve(keep, 'postgres') } : {}),
      })
    : null;
  const admin = cluster ? new pg.Client({ connectionString: cluster.url }) : null;
  // An interrupted run stops the cluster under this connection (its seed resumes later): the
  // 'Connection terminated' that follows is expected, not an unhandled error.
  admin?.on('error', () => undefined);
  await admin?.connect();
  try {
    for (const total of sizes) {
      if (stores.includes('clickhouse'))
        onResult(await runOne('clickhouse', total, arrival, {}, runs));
      if (!cluster || !admin) continue;
      const name = `bench_${String(total)}_${arrival}`;
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      // A kept seed resumes in its database.
      if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
      const url = cluster.url.replace(/\/postgres$/, `/${name}`);
      onResult(await runOne('postgres', total, arrival, { DATABASE_URL: url }, runs));
      if (process.env.BENCH_KEEP_DATA !== '1') await admin.query(`DROP DATABASE ${name}`);
    }
  } finally {
    await admin?.end();
    cluster?.stop();
  }
}

/** `earlier` with each of `now` put in place of the run of the same store, size and arrival. */
export function mergeStoreRuns(earlier: StoreRun[], now: StoreRun[]): StoreRun[] {
  const key = (r: StoreRun) => `${String(r.logs)} ${r.store} ${r.arrival ?? 'backfill'}`;
  const replaced = new Set(now.map(key));
  return [...earlier.filter((r) => !replaced.has(key(r))), ...now].sort(
    (a, b) => a.logs - b.logs || a.store.localeCompare(b.store),
  );
}
