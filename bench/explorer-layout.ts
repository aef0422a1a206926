/**
 * The logs explorer's pages at 10M on stores of the same rows in two layouts (issue 26): the
 * copied store (each copy of the seed one insert over all 14 days, so every part spans the
 * range) and a time-ordered one (the copies of each hour inserted hour by hour, as a store
 * ingested live receives them: bench/log-copies.ts). Each data directory is served by its own
 * bench service; the pages are read through HTTP, each case on every store in turn, with the
 * wall time per read and the service's CPU per read (its processes' user and system time).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from '../server/store/rows/sql';
import { openClickHouse, type ChDb } from '../server/store/telemetry/clickhouse/clickhouse-db';
import { copyLogsByHour } from './log-copies';
import { logReadCases, timeLogReads, type ReadCase } from './log-reads';
import { spawnBenchService, type BenchService } from './spawn-bench-service';

export type LogsPart = {
  name: string;
  rows: number;
  level: number;
  min_time: string;
  max_time: string;
};

export type LayoutCase = ReadCase & { cpu_ms_per_read: number };

export type ExplorerLayoutRun = {
  dir: string;
  parts: LogsPart[];
  cases: LayoutCase[];
};

export type ExplorerLayoutReport = {
  stores: ExplorerLayoutRun[];
  load_average_before: number[];
  load_average_after: number[];
};

const loadAverage = () => os.loadavg().map((l) => Math.round(l * 10) / 10);

/** The logs table's active parts, oldest range first. */
export async function logsParts(db: ChDb): Promise<LogsPart[]> {
  return db.rows<LogsPart>(
    sql`SELECT name, toUInt64(rows) AS rows, toUInt32(level) AS level,
        toString(min_time) AS min_time, toString(max_time) AS max_time
      FROM system.parts WHERE active AND database = currentDatabase() AND table = 'logs'
      ORDER BY min_time, name`,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Rewrites the logs of the store at `chDir` hour by hour (`copies` copies of its seed), then
 * lets the engine's background merges run until none has run for a while (at most `waitMs`),
 * as they would have in the days a live store took to fill; the parts left.
 */
export async function layOutByHour(
  chDir: string,
  copies: number,
  waitMs = 10 * 60_000,
): Promise<LogsPart[]> {
  const db = await openClickHouse({ url: null, database: 'lookout', embeddedPath: chDir });
  try {
    const started = performance.now();
    await copyLogsByHour(db, copies, (done, hours) => {
      if (done % 24 === 0 || done === hours)
        console.error(`  ${String(done)} / ${String(hours)} hours written`);
    });
    console.error(`  written in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    const until = performance.now() + waitMs;
    let quiet = 0;
    while (quiet < 5 && performance.now() < until) {
      const running = await db.one<{ n: number }>(
        sql`SELECT toUInt32(count()) AS n FROM system.merges WHERE database = currentDatabase()`,
      );
      quiet = running?.n ? 0 : quiet + 1;
      await sleep(2_000);
    }
    return await logsParts(db);
  } finally {
    await db.close();
  }
}

/** User and system CPU (ms) of `pid` and every process below it, from /proc. */
export function processTreeCpuMs(pid: number): number {
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  let total = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop() as number;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${String(p)}/stat`, 'utf8');
    } catch {
      continue; // gone already
    }
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    total += (Number(fields[11]) + Number(fields[12])) * tick;
    for (const task of fs.readdirSync(`/proc/${String(p)}/task`)) {
      const children = fs.readFileSync(`/proc/${String(p)}/task/${task}/children`, 'utf8').trim();
      if (children) for (const c of children.split(' ')) stack.push(Number(c));
    }
  }
  return total;
}

/**
 * Waits until a freshly started service is idle: on a 10M store it first fills the ledger's
 * filter (about 9 s of CPU, docs/architecture.md) and the engine may merge, which the first
 * case's CPU per read would otherwise count. Idle: under 50 ms of CPU in a second, three
 * seconds running, or two minutes at most.
 */
async function settled(pid: number): Promise<void> {
  const until = performance.now() + 120_000;
  let quiet = 0;
  while (quiet < 3 && performance.now() < until) {
    const cpu = processTreeCpuMs(pid);
    await sleep(1_000);
    quiet = processTreeCpuMs(pid) - cpu < 50 ? quiet + 1 : 0;
  }
}

/**
 * Serves each data directory and reads the explorer's pages on each, case by case and store
 * by store in turn (so both see the same load), `runs` times each after a warm-up.
 */
export async function measureExplorerLayouts(
  dirs: string[],
  runs = 30,
): Promise<ExplorerLayoutReport> {
  const before = loadAverage();
  const stores: ExplorerLayoutRun[] = [];
  for (const dir of dirs) {
    const db = await openClickHouse({
      url: null,
      database: 'lookout',
      embeddedPath: path.join(dir, 'clickhouse'),
    });
    try {
      stores.push({ dir, parts: await logsParts(db), cases: [] });
    } finally {
      await db.close();
    }
  }
  const services: BenchService[] = [];
  try {
    for (const dir of dirs) {
      const service = await spawnBenchService({ LOOKOUT_DATA_DIR: dir }, { keep: true });
      services.push(service);
      await settled(service.pid);
    }
    // Every store holds the same seed: the same project and the same time for each case.
    const first = services[0];
    if (!first) return { stores, load_average_before: before, load_average_after: before };
    const cases = logReadCases(first.creds.projects[0]?.id ?? '');
    for (const c of cases)
      for (const [i, service] of services.entries()) {
        const cpu = processTreeCpuMs(service.pid);
        const [read] = await timeLogReads(service.baseUrl, service.creds.account_token, [c], runs);
        // The warm-up read is one more request.
        const perRead = (processTreeCpuMs(service.pid) - cpu) / (runs + 1);
        if (read) stores[i]?.cases.push({ ...read, cpu_ms_per_read: Math.round(perRead) });
        console.error(
          `  ${c[0].padEnd(46)} store ${String(i)}: p50 ${String(read?.p50_ms)} p95 ${String(read?.p95_ms)} ms, ${perRead.toFixed(0)} ms CPU (load ${loadAverage().join(' ')})`,
        );
      }
  } finally {
    for (const s of services) await s.stop();
  }
  return { stores, load_average_before: before, load_average_after: loadAverage() };
}
