/**
 * `npm run bench -- demo`'s child process: the service started as `npm start` starts it on a
 * fresh data directory (SQLite and the embedded ClickHouse engine, the demo world seeded
 * through the ingest routes before it listens), then the figures of that start as one JSON
 * line on stdout after the service's own log lines. Its own process, so the CPU counted
 * (process.cpuUsage: every thread, the engine's included) is the start's alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readConfig } from '../server/core/config';
import { generateDemoWorld } from '../server/demo/generate-world';
import { createService } from '../server/service';
import { clickhouseExtras } from '../server/store/clickhouse-store';
import { sql } from '../server/store/rows/sql';

const cpuSeconds = (since?: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};

/**
 * CPU of the main thread alone (the service's event loop, which the seed is bound by), from
 * /proc (utime + stime of the thread whose id is the process id, in clock ticks of 1/100 s);
 * null where there is no /proc.
 */
const mainThreadCpuSeconds = (): number | null => {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-bench-demo-'));
const config = readConfig({
  LOOKOUT_DATA_DIR: dir,
  LOOKOUT_DEMO: '1',
  LOOKOUT_DEMO_SCALE: process.env.LOOKOUT_DEMO_SCALE ?? '1',
  // The seed's own line (its seconds and counts) is read from the log by bench/demo-seed.ts.
  LOOKOUT_LOG_LEVEL: 'info',
});
const cpu = process.cpuUsage();
const mainCpu = mainThreadCpuSeconds();
const started = performance.now();
const service = await createService(config);
const startSeconds = (performance.now() - started) / 1000;
const startCpu = cpuSeconds(cpu);
const mainCpuAfter = mainThreadCpuSeconds();
const startMainCpu = mainCpu === null || mainCpuAfter === null ? null : mainCpuAfter - mainCpu;
// Parts written per table: a MergeTree numbers every part an insert writes, so the highest
// block number is how many it wrote (the embedded engine keeps no system.part_log).
const parts =
  (await clickhouseExtras(service.store)?.clickhouse.rows<{
    table: string;
    written: number;
    active: number;
  }>(
    sql`SELECT table, toUInt32(max(max_block_number)) AS written, toUInt32(countIf(active)) AS active
      FROM system.parts WHERE database = currentDatabase() GROUP BY table ORDER BY table`,
  )) ?? [];
await service.close();
fs.rmSync(dir, { recursive: true, force: true });
// What generating the world alone costs (the seed above generated it once too).
const generateCpu = process.cpuUsage();
generateDemoWorld({ seed: config.demoSeed, now: Date.now(), scale: config.demoScale });
process.stdout.write(
  `${JSON.stringify({
    result: {
      start_seconds: startSeconds,
      start_cpu_seconds: startCpu,
      start_main_thread_cpu_seconds: startMainCpu,
      generate_cpu_seconds: cpuSeconds(generateCpu),
      parts,
    },
  })}\n`,
);
