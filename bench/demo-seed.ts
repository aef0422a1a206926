/**
 * `npm run bench -- demo` (issue 26): the demo world seeded as `npm start` seeds it, on the
 * default tier (SQLite state, the embedded ClickHouse engine), each run in a fresh process on
 * a fresh data directory: how long and how much CPU the start takes, how much of it the seed
 * (generating the world and sending it through the ingest routes), and the ClickHouse parts
 * the seed's inserts wrote. The machine is shared, so every run carries its load average.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

export type DemoSeedRun = {
  scale: number;
  /** Load average (1, 5, 15 min) before and after the run. */
  load_before: number[];
  load_after: number[];
  /** From calling createService to its return: accounts, seed and what follows it. */
  start_seconds: number;
  /** CPU of the whole process over that time (all threads, user + system). */
  start_cpu_seconds: number;
  /** The main thread's share of it (null without /proc). */
  start_main_thread_cpu_seconds: number | null;
  /** Generating the world and sending it, as the seed logs it. */
  seed_seconds: number;
  /** CPU of generating the world alone, measured again after the start. */
  generate_cpu_seconds: number;
  items: number;
  requests: number;
  /** Parts written (inserts) per ClickHouse table, and those still active after merges. */
  parts: { table: string; written: number; active: number }[];
  parts_written: number;
};

export type DemoSeedReport = { runs: DemoSeedRun[] };

const root = path.resolve(import.meta.dirname, '..');
const load = () => os.loadavg().map((l) => Math.round(l * 100) / 100);

type SeedLine = {
  msg?: string;
  seconds?: number;
  requests?: number;
  issues?: number;
  logs?: number;
  trace_spans?: number;
  actions?: number;
  metrics?: number;
};
type ResultLine = {
  result?: Pick<
    DemoSeedRun,
    | 'start_seconds'
    | 'start_cpu_seconds'
    | 'start_main_thread_cpu_seconds'
    | 'generate_cpu_seconds'
    | 'parts'
  >;
};

async function runOnce(scale: number): Promise<DemoSeedRun> {
  const load_before = load();
  const child = spawn(
    path.join(root, 'node_modules/.bin/tsx'),
    [path.join(root, 'bench/demo-seed-service.ts')],
    {
      cwd: root,
      env: { ...process.env, LOOKOUT_DEMO_SCALE: String(scale) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`bench demo service exited with ${String(code)}:\n${out}`);
  const lines = out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as SeedLine & ResultLine);
  const seeded = lines.find((l) => l.msg?.startsWith('Seeded the demo world'));
  const result = lines.find((l) => l.result)?.result;
  if (!seeded || !result) throw new Error(`no seed figures in the bench demo service's output`);
  const items =
    (seeded.issues ?? 0) +
    (seeded.logs ?? 0) +
    (seeded.trace_spans ?? 0) +
    (seeded.actions ?? 0) +
    (seeded.metrics ?? 0);
  return {
    scale,
    load_before,
    load_after: load(),
    ...result,
    seed_seconds: seeded.seconds ?? 0,
    items,
    requests: seeded.requests ?? 0,
    parts_written: result.parts.reduce((n, p) => n + p.written, 0),
  };
}

/** `runs` starts one after another (BENCH_DEMO_RUNS), at `scale` (BENCH_DEMO_SCALE). */
export async function measureDemoSeed(scale = 1, runs = 2): Promise<DemoSeedReport> {
  const out: DemoSeedRun[] = [];
  for (let i = 0; i < runs; i++) out.push(await runOnce(scale));
  return { runs: out };
}

export function printDemoSeed(r: DemoSeedReport): void {
  console.log('Demo world seeded at start (default tier: SQLite + embedded ClickHouse)');
  for (const run of r.runs)
    console.log(
      `  scale ${run.scale}: ${run.items.toLocaleString('en')} items in ${run.requests} requests; ` +
        `seed ${run.seed_seconds.toFixed(1)} s, start ${run.start_seconds.toFixed(1)} s, ` +
        `${run.start_cpu_seconds.toFixed(1)} s of CPU (main thread ${run.start_main_thread_cpu_seconds?.toFixed(1) ?? '?'} s; ` +
        `generating ${run.generate_cpu_seconds.toFixed(1)} s); ` +
        `${run.parts_written} ClickHouse parts written; load ${run.load_before.join(' ')} → ${run.load_after.join(' ')}`,
    );
}
