import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { DemoCredentials } from './demo';

/**
 * A service instance of one test, separate from the shared e2e service: its own port and
 * data directory, in a child process the test can kill (SIGKILL, like a crash) and start
 * again on the same port and data directory, so sign-ins made before survive the restart.
 */
export type OwnService = {
  baseUrl: string;
  dataDir: string;
  credentials: () => DemoCredentials;
  /** Ends the process at once, without a goodbye to its clients. */
  kill: () => Promise<void>;
  start: () => Promise<void>;
  dispose: () => Promise<void>;
};

const START_TIMEOUT_MS = 60_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilHealthy(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`service at ${baseUrl} did not become healthy`);
}

/** `env` adds settings of this instance, e.g. `LOOKOUT_PLAN_QUOTAS` for tiny allowances. */
export async function startOwnService(
  options: { env?: Record<string, string> } = {},
): Promise<OwnService> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-e2e-own-'));
  let child: ChildProcess | null = null;
  let stderr = '';

  const start = async () => {
    stderr = '';
    // `node --import tsx` rather than the tsx CLI: the CLI runs the script in a grandchild,
    // which a SIGKILL of the CLI would leave running (and holding the port).
    const proc = spawn(process.execPath, ['--import', 'tsx', 'e2e/support/serve-once.ts'], {
      env: { ...process.env, ...options.env, PORT: String(port), LOOKOUT_DATA_DIR: dataDir },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    proc.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child = proc;
    try {
      await waitUntilHealthy(baseUrl, proc);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${stderr}`);
    }
  };

  const kill = async () => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGKILL');
    await exited;
  };

  await start();
  return {
    baseUrl,
    dataDir,
    credentials: () =>
      JSON.parse(
        fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8'),
      ) as DemoCredentials,
    kill,
    start,
    dispose: async () => {
      await kill();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
