import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readyLine } from '../../scripts/ready-line';
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

/** How long a hook that starts a service of its own may take: the start, with room to spare. */
export const OWN_SERVICE_START_MS = START_TIMEOUT_MS + 30_000;

/** `env` adds settings of this instance, e.g. `LOOKOUT_PLAN_QUOTAS` for tiny allowances. */
export async function startOwnService(
  options: { env?: Record<string, string> } = {},
): Promise<OwnService> {
  // The first start lets the system pick a free port; a restart takes the same one back.
  let port = 0;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-e2e-own-'));
  let child: ChildProcess | null = null;
  let stderr = '';

  const start = async () => {
    stderr = '';
    // `node --import tsx` rather than the tsx CLI: the CLI runs the script in a grandchild,
    // which a SIGKILL of the CLI would leave running (and holding the port).
    const proc = spawn(process.execPath, ['--import', 'tsx', 'e2e/support/serve-once.ts'], {
      env: { ...process.env, ...options.env, PORT: String(port), LOOKOUT_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child = proc;
    try {
      // The child says the port once it holds it: polling a port probed beforehand raced other
      // workers, whose service could bind it first and answer for a child that never started.
      const ready = await readyLine(proc, 'service', START_TIMEOUT_MS);
      port = (JSON.parse(ready) as { port: number }).port;
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
    baseUrl: `http://127.0.0.1:${String(port)}`,
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
