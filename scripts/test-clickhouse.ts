import { spawnSync } from 'node:child_process';

/**
 * `npm run test:clickhouse`: the service's contract suite again with telemetry on ClickHouse
 * (LOOKOUT_TELEMETRY=clickhouse): every test service keeps its telemetry in a database of its
 * own, on the server at CLICKHOUSE_URL when one is given, else on the engine in the test
 * process (chdb, one directory per process). `npm run test:clickhouse -- moved` runs only the
 * areas already on ClickHouse (with ingest and the crash tests), as `npm test` does; other
 * arguments narrow the vitest run.
 */
const CONTRACT_SUITE = [
  'server/routes',
  'server/http',
  'server/ingest',
  'server/feed',
  'server/demo',
  'server/store/journaled-ingest.test.ts',
  'server/app.test.ts',
  // Fuzzers that count stored rows in the state store's own tables (logs are not there).
  '--exclude',
  '**/*.fuzz.test.ts',
];
/** The areas whose reads are on ClickHouse (clickhouse-store.ts), with ingest and crash tests. */
const MOVED_SUITE = [
  'server/routes/logs',
  'server/routes/actions',
  'server/routes/analytics',
  'server/routes/metrics',
  'server/routes/issues',
  'server/routes/investigations',
  'server/routes/releases',
  'server/routes/traces',
  'server/routes/ingest/ingest.test.ts',
  'server/routes/ingest/otlp.test.ts',
  'server/routes/ingest/otlp-mapping.test.ts',
  'server/ingest/crash-recovery.test.ts',
  'server/store/journaled-ingest.test.ts',
  'server/store/backup/backup-clickhouse.test.ts',
  'server/store/telemetry/clickhouse/retention.test.ts',
  'server/store/move-telemetry.test.ts',
];

const args = process.argv.slice(2);
const suite = args[0] === 'moved' ? MOVED_SUITE : args.length > 0 ? args : CONTRACT_SUITE;
const env = { ...process.env, LOOKOUT_TEST_TELEMETRY: 'clickhouse' };
process.stdout.write(
  `Contract suite with telemetry on ClickHouse (${process.env.CLICKHOUSE_URL ?? 'the embedded engine'})\n`,
);
const run = spawnSync('npx', ['vitest', 'run', '--project', 'server', ...suite], {
  stdio: 'inherit',
  env,
});
process.exit(run.status ?? 1);
