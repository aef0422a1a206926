/**
 * The ClickHouse analytics reads timed in this process, on a data directory the analytics
 * bench kept (`BENCH_KEEP_DATA=1 npm run bench -- analytics` prints `kept <dir>`):
 *
 *   BENCH_ANALYTICS_DIR=<dir> npx tsx bench/analytics-reads.ts
 *
 * For each read as the bench's routes ask it (30 days, the main project): wall time and this
 * process's CPU time per call (the engine runs in this process, so its threads count; the
 * embedded engine keeps no `system.query_log`). The machine is shared: CPU per call moves far
 * less with the load than wall time does.
 */
import os from 'node:os';
import path from 'node:path';
import { openClickHouse } from '../server/store/telemetry/clickhouse/clickhouse-db';
import { clickhouseActions } from '../server/store/telemetry/clickhouse/actions';
import { sql } from '../server/store/rows/sql';
import type { FunnelStepDef } from '../server/domain/funnel';
import { SHOP_FUNNEL } from './analytics';

const DAY = 86_400_000;
const HOUR = 3_600_000;

const dir = process.env.BENCH_ANALYTICS_DIR;
if (!dir) throw new Error('BENCH_ANALYTICS_DIR: the data directory the analytics bench kept');
const runs = Number(process.env.BENCH_ANALYTICS_RUNS ?? 10);
const only = process.env.BENCH_ANALYTICS_CASES;

const db = await openClickHouse({
  url: null,
  database: 'lookout',
  embeddedPath: path.join(dir, 'clickhouse'),
});
const store = clickhouseActions(db);
const main = await db.one<{ project_id: string; last: number }>(
  sql`SELECT toString(project_id) AS project_id, toUnixTimestamp64Milli(max(occurred_at)) AS last
    FROM actions GROUP BY project_id ORDER BY count() DESC LIMIT 1`,
);
if (!main) throw new Error(`no actions in ${dir}`);
// The 30 days the bench's reads covered: up to the hour after its last action.
const to = Math.ceil((main.last + 1) / HOUR) * HOUR;
const range = {
  projectId: main.project_id,
  from: to - 30 * DAY,
  to,
  environment: null,
  serviceName: null,
  release: null,
};
const funnelSteps: FunnelStepDef[] = SHOP_FUNNEL.map((s) => ({
  kind: s.page ? 'page_view' : 'interaction',
  eventName: s.name,
}));

const cases: [string, () => Promise<unknown>][] = [
  [
    'funnel: 5 steps, 30d, session',
    () =>
      store.funnel({
        ...range,
        unit: 'session_id',
        steps: funnelSteps,
        windowMs: 3_600_000,
      }),
  ],
  [
    'funnel: 5 steps, 30d, identified_user',
    () =>
      store.funnel({
        ...range,
        unit: 'distinct_id',
        steps: funnelSteps,
        windowMs: 7 * DAY,
      }),
  ],
  [
    'overview: 30d, top_limit 50',
    () => store.overview({ ...range, bucketFrom: range.from, stepMs: DAY, topLimit: 50 }),
  ],
  ['properties: 30d', () => store.properties(range)],
  [
    'retention: 30d, day',
    () => store.retention({ ...range, periodMs: DAY, start: null, ret: null }),
  ],
  ['lifecycle: 30d, day', () => store.lifecycle({ ...range, periodMs: DAY, event: null })],
  [
    'paths: 30d, depth 3, session',
    () => store.paths({ ...range, unit: 'session_id', start: null, depth: 3 }),
  ],
  [
    'paths: 30d, depth 3, session, from Product',
    () =>
      store.paths({
        ...range,
        unit: 'session_id',
        start: { kind: 'page_view', eventName: 'Product' },
        depth: 3,
      }),
  ],
  [
    // As the route asks: the project's counts and each segment's top actions in one call.
    'segments: 30d, production vs staging',
    () =>
      store.segments([
        { ...range, unit: 'session_id', match: null, topLimit: 0 },
        ...['production', 'staging'].map((environment) => ({
          ...range,
          environment,
          unit: 'session_id' as const,
          match: null,
          topLimit: 10,
        })),
      ]),
  ],
];

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

console.log(
  `${main.project_id}: 30 days to ${new Date(to).toISOString()}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const [name, read] of cases) {
  if (only && !name.startsWith(only)) continue;
  for (let w = 0; w < 2; w++) await read();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await read();
    walls.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
  }
  walls.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(44)} wall p50 ${pct(walls, 0.5).toFixed(0).padStart(5)} p95 ${pct(walls, 0.95).toFixed(0).padStart(5)} ms; ` +
      `cpu p50 ${pct(cpus, 0.5).toFixed(0).padStart(5)} min ${(cpus[0] ?? 0).toFixed(0).padStart(5)} ms`,
  );
}
console.log(
  `load average after ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await db.close();
