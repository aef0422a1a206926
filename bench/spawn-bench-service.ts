import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readyLine } from '../scripts/ready-line';

/**
 * Whether the bench service keeps telemetry in ClickHouse, as the service chooses: always
 * with SQLite state; with DATABASE_URL only when LOOKOUT_TELEMETRY=clickhouse.
 */
export const benchOnClickHouse = (env: NodeJS.ProcessEnv = process.env): boolean =>
  !env.DATABASE_URL || env.LOOKOUT_TELEMETRY === 'clickhouse';

export type BenchService = {
  baseUrl: string;
  /** The service's data directory (removed by `stop`). */
  dir: string;
  /** The process started (tsx, whose child runs the service): for sampling memory. */
  pid: number;
  /** With BENCH_DIAGNOSTICS=1 in `env`: the loopback address of bench-service.ts's diagnostics. */
  diagnosticsUrl: string | null;
  creds: {
    email: string;
    password: string;
    account_token: string;
    projects: { id: string; ingest_key: string }[];
  };
  stop(): Promise<void>;
};

const root = path.resolve(import.meta.dirname, '..');

/** Starts bench/bench-service.ts in a child process and waits for its `{port, dir}` line. */
export async function spawnBenchService(
  env: Record<string, string> = {},
  /** `keep`: the data directory outlives `stop` (a seed resumed by a later run). */
  opts: { keep?: boolean } = {},
): Promise<BenchService> {
  const child = spawn(
    path.join(root, 'node_modules/.bin/tsx'),
    [
      // BENCH_CPU_PROF=<dir>: a CPU profile of the service's main thread, written at its exit.
      ...(process.env.BENCH_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`]
        : []),
      path.join(root, 'bench/bench-service.ts'),
    ],
    {
      cwd: root,
      env: { ...process.env, LOOKOUT_LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  // Seeding a large demo world can take minutes before the service listens.
  const first = await readyLine(child, 'bench service', 30 * 60_000);
  const { port, dir, diagnostics_port } = JSON.parse(first) as {
    port: number;
    dir: string;
    diagnostics_port?: number;
  };
  const creds = JSON.parse(
    fs.readFileSync(path.join(dir, 'demo-credentials.json'), 'utf8'),
  ) as BenchService['creds'];
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    dir,
    pid: child.pid ?? 0,
    diagnosticsUrl: diagnostics_port ? `http://127.0.0.1:${diagnostics_port}` : null,
    creds,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          // BENCH_KEEP_DATA=1 keeps the data directory for a look at plans and sizes.
          if (process.env.BENCH_KEEP_DATA === '1') console.error(`kept ${dir}`);
          else if (!opts.keep) fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
