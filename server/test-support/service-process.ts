import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DemoCredentials } from '../demo/demo-accounts';
import { createTestDatabase } from './test-database';
import { dropTestTelemetry, testTelemetry } from './test-clickhouse';
import type { ClickHouseTarget } from '../store/telemetry/clickhouse/clickhouse-db';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// A loaded 2-core machine (three test workers beside the child) takes a while to start one.
const START_TIMEOUT_MS = 60_000;

/**
 * The real service (`server/main.ts`) in a process of its own, for tests that crash it: a
 * free loopback port and a temporary data directory that both survive `kill()` (SIGKILL, as a
 * crash or the OOM killer would) and the next `start()`. The data directory is seeded with
 * the demo accounts and projects only (no telemetry), so `credentials()` has an account token
 * and ingest keys.
 */
export type ServiceProcess = {
  baseUrl: string;
  dataDir: string;
  /** The service's PostgreSQL schema (with LOOKOUT_TEST_DATABASE_URL set), else null: SQLite in `dataDir`. */
  databaseUrl: string | null;
  /**
   * Where its telemetry lives in ClickHouse; null on PostgreSQL (`npm run test:pg`).
   * The embedded engine's directory is locked by the process using it: read it only while
   * the service is stopped.
   */
  clickhouse: ClickHouseTarget | null;
  credentials: () => DemoCredentials;
  start: () => Promise<void>;
  /** SIGKILL: the process ends at once, mid-request, without closing anything. */
  kill: () => Promise<void>;
  /** SIGTERM: the service's own orderly shutdown. */
  stop: () => Promise<void>;
  /** Ends the process if it runs and removes the data directory. */
  dispose: () => Promise<void>;
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * `node --import tsx server/main.ts` rather than the `tsx` command: the command runs the
 * script in a child of its own, which a SIGKILL of the command would leave running.
 * Resolves once the service prints that it listens (it does after the store is open and
 * the demo accounts are seeded).
 */
function spawnService(port: number, dataDir: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOOKOUT_DATA_DIR: dataDir,
      LOOKOUT_DEMO: '1',
      LOOKOUT_DEMO_SCALE: '0',
      LOOKOUT_STATIC_DIR: path.join(dataDir, 'no-console'),
      LOOKOUT_LOG_LEVEL: 'error',
      // The crash tests send as fast as they can; the rate limit has its own tests.
      LOOKOUT_INGEST_RATE_PER_SECOND: '100000',
      LOOKOUT_INGEST_RATE_BURST: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const listening = new Promise<void>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`service did not start:\n${err}`)),
      START_TIMEOUT_MS,
    );
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Lookout is running at')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`service exited (${code ?? signal}) before it listened:\n${err}`));
    });
  });
  return { child, listening };
}

function endProcess(child: ChildProcess | null, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  return exited;
}

export async function startServiceProcess(
  options: {
    env?: Record<string, string>;
    /** An existing data directory (e.g. a restored backup) instead of a new one. */
    dataDir?: string;
    /**
     * The default deployment (SQLite state and the embedded ClickHouse engine in the data
     * directory) even when the suite runs on PostgreSQL or a ClickHouse server.
     */
    sqlite?: boolean;
  } = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-crash-'));
  const database = options.sqlite
    ? { url: null, drop: async () => undefined }
    : await createTestDatabase();
  // `sqlite`: the data directory holds both tiers, whatever the suite runs on.
  const telemetry = options.sqlite
    ? { url: null, database: options.env?.CLICKHOUSE_DATABASE ?? 'lookout' }
    : testTelemetry();
  const clickhouse: ClickHouseTarget | null = telemetry && {
    url: telemetry.url,
    database: telemetry.database,
    embeddedPath: path.join(dataDir, 'clickhouse'),
  };
  const env = {
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...(clickhouse
      ? {
          LOOKOUT_TELEMETRY: 'clickhouse',
          CLICKHOUSE_DATABASE: clickhouse.database,
          ...(clickhouse.url ? { CLICKHOUSE_URL: clickhouse.url } : {}),
        }
      : {}),
    ...options.env,
  };
  let child: ChildProcess | null = null;

  const start = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      throw new Error('the service is already running');
    }
    const spawned = spawnService(port, dataDir, env);
    child = spawned.child;
    await spawned.listening;
  };
  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    child = null;
    await endProcess(running, signal);
  };

  await start().catch(async (err: unknown) => {
    await database.drop();
    throw err;
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    databaseUrl: database.url,
    clickhouse,
    credentials: () =>
      JSON.parse(
        fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8'),
      ) as DemoCredentials,
    start,
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
    dispose: async () => {
      await end('SIGKILL');
      await database.drop();
      // On a server the database outlives the data directory.
      if (clickhouse?.url) await dropTestTelemetry({ engine: 'clickhouse', ...clickhouse });
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
