/**
 * The same service on SQLite and on PostgreSQL (issue 12): logs sent through the real ingest
 * route (throughput), then the logs explorer's list and attribute-filter pages (p50/p95), at
 * each size. PostgreSQL runs in a throwaway cluster with fsync on and asynchronous commit —
 * the durability SQLite has here (WAL, `synchronous = NORMAL`).
 */
import pg from 'pg';
import { startThrowawayPostgres } from '../scripts/throwaway-postgres';
import { logReadCases, seedLogs, timeLogReads, type ReadCase } from './log-reads';
import { spawnBenchService } from './spawn-bench-service';

export type StoreName = 'sqlite' | 'postgres';
export type StoreRun = {
  store: StoreName;
  logs: number;
  /** Runs at 10M take hours, so each (store, size) keeps its own date when results merge. */
  measured_at?: string;
  seed_seconds: number;
  ingest_events_per_second: number;
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

async function runOne(
  store: StoreName,
  total: number,
  env: Record<string, string>,
  runs: number,
): Promise<StoreRun> {
  const service = await spawnBenchService(env);
  try {
    const projects = service.creds.projects;
    const seconds = await seedLogs(service.baseUrl, projects, total, undefined, (sent) =>
      console.error(
        `  ${store}: ${sent.toLocaleString('en')} of ${total.toLocaleString('en')} logs sent`,
      ),
    );
    const cases = logReadCases(projects[0]?.id ?? '').filter(([name]) => CASES.has(name));
    return {
      store,
      logs: total,
      measured_at: new Date().toISOString(),
      seed_seconds: Number(seconds.toFixed(1)),
      ingest_events_per_second: Math.round(total / seconds),
      cases: await timeLogReads(service.baseUrl, service.creds.account_token, cases, runs),
    };
  } finally {
    await service.stop();
  }
}

/**
 * Each size on each store named, in turn; `onResult` hears each run as it ends, so a run of
 * hours keeps what it measured if a later one fails.
 */
export async function measureStores(
  sizes: number[],
  stores: StoreName[],
  runs: number,
  onResult: (run: StoreRun) => void,
): Promise<void> {
  const cluster = stores.includes('postgres')
    ? await startThrowawayPostgres({ durable: true })
    : null;
  const admin = cluster ? new pg.Client({ connectionString: cluster.url }) : null;
  await admin?.connect();
  try {
    for (const total of sizes) {
      if (stores.includes('sqlite')) onResult(await runOne('sqlite', total, {}, runs));
      if (!cluster || !admin) continue;
      const name = `bench_${String(total)}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const url = cluster.url.replace(/\/postgres$/, `/${name}`);
      onResult(await runOne('postgres', total, { DATABASE_URL: url }, runs));
      await admin.query(`DROP DATABASE ${name}`);
    }
  } finally {
    await admin?.end();
    cluster?.stop();
  }
}

/** `earlier` with each of `now` put in place of the run of the same store and size. */
export function mergeStoreRuns(earlier: StoreRun[], now: StoreRun[]): StoreRun[] {
  const key = (r: StoreRun) => `${String(r.logs)} ${r.store}`;
  const replaced = new Set(now.map(key));
  return [...earlier.filter((r) => !replaced.has(key(r))), ...now].sort(
    (a, b) => a.logs - b.logs || a.store.localeCompare(b.store),
  );
}
