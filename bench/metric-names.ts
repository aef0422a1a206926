/**
 * The metric name catalog (`GET /api/telemetry/metrics/names`) at scale: 1M samples of one
 * project over 14 days (40 names, a few very common, one seen only once, 13 days ago), then
 * `store.metrics.names` for 24 h, 7 d and 14 d on PostgreSQL (a throwaway cluster; the
 * ClickHouse tier's catalog is measured by bench/clickhouse.ts). Rows are written straight into `metric_samples` (the catalog reads
 * only that table), so the seed takes seconds instead of a minute of ingest.
 *
 * `npx tsx bench/metric-names.ts [--samples N] [--names N]` (`--names`: common names,
 * default 39; many names measure a project that sends ids as metric names)
 */
import { startThrowawayPostgres } from '../scripts/throwaway-postgres';
import type { Store } from '../server/core/store/store';
import { ensurePartitions } from '../server/store/postgres/pg-partitions';
import { openPostgresStore } from '../server/store/postgres-store';
import { raw as rawText, sql } from '../server/store/rows/sql';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-26T12:00:00Z');
const PROJECT = '00000000-0000-4000-8000-0000000000aa';
const argv = process.argv.slice(2);
const samplesAt = argv.indexOf('--samples');
const SAMPLES = samplesAt === -1 ? 1_000_000 : Number(argv[samplesAt + 1]);
const RUNS = 30;
const namesAt = argv.indexOf('--names');
const NAME_COUNT = namesAt === -1 ? 39 : Number(argv[namesAt + 1]);
const NAMES = Array.from(
  { length: NAME_COUNT },
  (_, i) => `svc${String(i % 6)}.metric_${String(i)}`,
);
const RARE = 'queue.rare_stall';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

async function measure(engine: string, store: Store) {
  for (const [label, days] of [
    ['24 h', 1],
    ['7 d', 7],
    ['14 d', 14],
  ] as const) {
    const q = { projectId: PROJECT, from: NOW - days * DAY, to: NOW, limit: 1001 };
    const times: number[] = [];
    let names = 0;
    let rare = false;
    for (let run = 0; run < RUNS; run++) {
      const t = performance.now();
      const rows = await store.metrics.names(q);
      times.push(performance.now() - t);
      names = rows.length;
      rare = rows.some((r) => r.name === RARE);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${engine} ${label}: ${String(names)} names (rare ${rare ? 'found' : 'absent'}), p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms`,
    );
  }
}

const COLUMNS = `id, event_id, project_id, occurred_at, name, kind, value, unit, temporality,
  attributes, environment, release, service_name, sdk_name, sdk_version, bytes, received_at`;

async function postgres() {
  const pg = await startThrowawayPostgres({ durable: false });
  try {
    const store = await openPostgresStore(pg.url);
    const times = Array.from({ length: 15 }, (_, d) => NOW - d * DAY);
    await ensurePartitions(store.pg.db, store.pg.schema, 'metric_samples', times);
    const t = performance.now();
    const names = `ARRAY[${NAMES.map((n) => `'${n}'`).join(',')}]`;
    // The same skew in SQL: the cube of a uniform draw picks the name.
    await store.pg.db.run(sql`INSERT INTO metric_samples (${rawText(COLUMNS)})
      SELECT 'm' || i, 'e' || i, ${PROJECT}, ${NOW - 14 * DAY}::bigint + (i::bigint * ${14 * DAY}::bigint / ${SAMPLES}::bigint),
        (${rawText(names)})[1 + floor(power(random(), 3) * ${NAMES.length})::int], 'gauge', 1, 'ms', NULL, '{}',
        'production', 'r1', 'svc', 'bench', '1', 40, ${NOW}::bigint
      FROM generate_series(0, ${SAMPLES - 1}) AS i`);
    await store.pg.db.run(sql`INSERT INTO metric_samples (${rawText(COLUMNS)})
      VALUES ('rare', 'rare', ${PROJECT}, ${NOW - 13 * DAY}::bigint, ${RARE}, 'gauge', 1, 'ms', NULL, '{}',
        'production', 'r1', 'svc', 'bench', '1', 40, ${NOW}::bigint)`);
    await store.pg.db.run(sql`ANALYZE metric_samples`);
    console.log(
      `postgres: ${String(SAMPLES + 1)} samples written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    await measure('postgres', store);
    await store.close();
  } finally {
    pg.stop();
  }
}

await postgres();
