import { spawnSync } from 'node:child_process';
import { startThrowawayPostgres } from './throwaway-postgres';

/**
 * `npm run test:pg`: the service's contract suite again, on PostgreSQL — every test service
 * in its own schema of a throwaway cluster — then a selection with PostgreSQL state beside
 * ClickHouse telemetry, and the end-to-end tests that need PostgreSQL (two service
 * instances). Extra arguments narrow the vitest run (LOOKOUT_TEST_TELEMETRY=clickhouse runs
 * them beside ClickHouse).
 */
const CONTRACT_SUITE = [
  'server/routes',
  'server/http',
  'server/ingest',
  'server/feed',
  'server/demo',
  'server/store/postgres',
  'server/store/state/postgres',
  'server/store/telemetry/postgres',
  'server/app.test.ts',
];

/**
 * Run again with PostgreSQL state beside telemetry in ClickHouse (the embedded engine, or
 * CLICKHOUSE_URL): where the two tiers meet — the journaled ingest, the kill -9 crash tests,
 * both ingest routes and OTLP (quota and usage), issue groups and triage (their first and
 * latest occurrence kept in PostgreSQL), log triage rules, alert evaluation. The folders these
 * come from (ingest, issues, logs, alerts) took about 10 minutes more on a loaded 2-core
 * machine; this selection took 2 (106 s in vitest at a load average of 7). The rest reads
 * ClickHouse the same whichever store keeps the state.
 */
const BESIDE_CLICKHOUSE = [
  'server/store/journaled-ingest.test.ts',
  'server/ingest/crash-recovery.test.ts',
  'server/routes/ingest/ingest.test.ts',
  'server/routes/ingest/otlp.test.ts',
  'server/routes/ingest/write-crash-recovery.test.ts',
  'server/routes/issues/issues.test.ts',
  'server/routes/issues/issue-changes.test.ts',
  'server/routes/issues/issue-histograms.test.ts',
  'server/routes/logs/log-triage.test.ts',
  'server/alerts/alert-evaluator.test.ts',
];

const pg = await startThrowawayPostgres();
const stop = () => pg.stop();
process.on('SIGINT', () => {
  stop();
  process.exit(130);
});
process.on('SIGTERM', () => {
  stop();
  process.exit(143);
});

let status = 1;
try {
  const env = { ...process.env, LOOKOUT_TEST_DATABASE_URL: pg.url };
  const args = process.argv.slice(2);
  process.stdout.write(`Contract suite on PostgreSQL (${pg.url})\n`);
  const unit = spawnSync(
    'npx',
    // Two workers: one alone left the cores half idle, waiting on PostgreSQL's round trips.
    // Each test service holds connections of its own (the cluster allows 300).
    [
      'vitest',
      'run',
      '--project',
      'server',
      '--maxWorkers=2',
      ...(args.length > 0 ? args : CONTRACT_SUITE),
    ],
    { stdio: 'inherit', env },
  );
  status = unit.status ?? 1;
  if (status === 0 && args.length === 0) {
    process.stdout.write('PostgreSQL state beside ClickHouse telemetry\n');
    const beside = spawnSync(
      'npx',
      ['vitest', 'run', '--project', 'server', '--maxWorkers=2', ...BESIDE_CLICKHOUSE],
      { stdio: 'inherit', env: { ...env, LOOKOUT_TEST_TELEMETRY: 'clickhouse' } },
    );
    status = beside.status ?? 1;
  }
  if (status === 0 && args.length === 0) {
    const e2e = spawnSync('npx', ['playwright', 'test', '--project', 'postgres'], {
      stdio: 'inherit',
      env,
    });
    status = e2e.status ?? 1;
  }
} finally {
  stop();
}
process.exit(status);
