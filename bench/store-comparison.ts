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

export type StoreRun = {
  store: 'sqlite' | 'postgres';
  logs: number;
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
  store: StoreRun['store'],
  total: number,
  env: Record<string, string>,
  runs: number,
): Promise<StoreRun> {
  const service = await spawnBenchService(env);
  try {
    const projects = service.creds.projects;
    const seconds = await seedLogs(service.baseUrl, projects, total);
    const cases = logReadCases(projects[0]?.id ?? '').filter(([name]) => CASES.has(name));
    return {
      store,
      logs: total,
      seed_seconds: Number(seconds.toFixed(1)),
      ingest_events_per_second: Math.round(total / seconds),
      cases: await timeLogReads(service.baseUrl, service.creds.account_token, cases, runs),
    };
  } finally {
    await service.stop();
  }
}

export async function measureStores(sizes: number[], runs = 30): Promise<StoreRun[]> {
  const cluster = await startThrowawayPostgres({ durable: true });
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  const results: StoreRun[] = [];
  try {
    for (const total of sizes) {
      results.push(await runOne('sqlite', total, {}, runs));
      const name = `bench_${String(total)}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const url = cluster.url.replace(/\/postgres$/, `/${name}`);
      results.push(await runOne('postgres', total, { DATABASE_URL: url }, runs));
      await admin.query(`DROP DATABASE ${name}`);
    }
  } finally {
    await admin.end();
    cluster.stop();
  }
  return results;
}
