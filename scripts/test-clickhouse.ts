import { spawnSync } from 'node:child_process';

/**
 * `npm run test:clickhouse`: the service's contract suite with telemetry on the ClickHouse
 * server at CLICKHOUSE_URL (every test service in a database of its own). Without one it runs
 * on the embedded engine, as `npm run test:unit` already does (ClickHouse is the default
 * telemetry tier). Arguments narrow the vitest run.
 */
const CONTRACT_SUITE = [
  'server/routes',
  'server/http',
  'server/ingest',
  'server/feed',
  'server/demo',
  'server/store/journaled-ingest.test.ts',
  'server/store/telemetry/clickhouse',
  'server/app.test.ts',
];

const args = process.argv.slice(2);
process.stdout.write(
  `Contract suite with telemetry on ClickHouse (${process.env.CLICKHOUSE_URL ?? 'the embedded engine'})\n`,
);
const run = spawnSync(
  'npx',
  ['vitest', 'run', '--project', 'server', ...(args.length > 0 ? args : CONTRACT_SUITE)],
  { stdio: 'inherit', env: process.env },
);
process.exit(run.status ?? 1);
