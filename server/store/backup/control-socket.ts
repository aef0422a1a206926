import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { FrozenTelemetry } from '../telemetry/clickhouse/freeze';
import { FREEZE_NAME } from '../telemetry/clickhouse/freeze';

/**
 * How `npm run service -- backup` reaches the running service: the embedded ClickHouse engine
 * binds its folder to one process (the service), so the backup command asks the service to
 * take the telemetry snapshot. A Unix socket in the data directory, readable and writable by
 * its owner only (mode 0600): nothing listens on the network, and an account's credentials
 * reach nothing here. It answers one request, `POST /telemetry/freeze {"name"}`: hard links
 * of every telemetry table's parts under the engine folder (see freeze.ts), which the
 * command copies and then removes.
 */
export const CONTROL_SOCKET = 'control.sock';

/** Unix socket paths are limited to 107 bytes on Linux (`sun_path`). */
const MAX_SOCKET_PATH = 107;

export const controlSocketPath = (dataDir: string): string =>
  path.join(path.resolve(dataDir), CONTROL_SOCKET);

export type ControlSocket = { close(): Promise<void> };

/** Serves the control socket of `dataDir`; null when its path is too long for a socket. */
export async function serveControlSocket(
  dataDir: string,
  freeze: (name: string) => Promise<FrozenTelemetry>,
  log: { error(message: string): void },
): Promise<ControlSocket | null> {
  const file = controlSocketPath(dataDir);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) {
    log.error(
      `control socket: ${file} is longer than a Unix socket path may be; the backup command cannot reach this service (use a shorter LOOKOUT_DATA_DIR)`,
    );
    return null;
  }
  // A socket left by a process that ended without closing it (kill -9): nobody listens.
  fs.rmSync(file, { force: true });
  const server = http.createServer((req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/telemetry/freeze') {
      answer(404, { error: 'unknown request' });
      return;
    }
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > 1000) req.destroy();
    });
    req.on('end', () => {
      let name: unknown;
      try {
        name = (JSON.parse(text) as { name?: unknown }).name;
      } catch {
        name = null;
      }
      if (typeof name !== 'string' || !FREEZE_NAME.test(name)) {
        answer(400, { error: 'not a snapshot name' });
        return;
      }
      freeze(name).then(
        (frozen) => answer(200, frozen),
        (e: unknown) => {
          log.error(`control socket: telemetry snapshot failed (${String(e)})`);
          answer(500, { error: String(e) });
        },
      );
    });
  });
  const previous = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(file, () => resolve());
    });
  } finally {
    process.umask(previous);
  }
  fs.chmodSync(file, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Asks the service on `dataDir` for a telemetry snapshot named `name`. Null when no service
 * listens there (no socket, or one a killed process left).
 */
export function askServiceToFreeze(dataDir: string, name: string): Promise<FrozenTelemetry | null> {
  const socketPath = controlSocketPath(dataDir);
  if (!fs.existsSync(socketPath)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        socketPath,
        method: 'POST',
        path: '/telemetry/freeze',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          if (res.statusCode === 200) resolve(JSON.parse(text) as FrozenTelemetry);
          else reject(new Error(`the service answered ${String(res.statusCode)}: ${text}`));
        });
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ECONNREFUSED' || e.code === 'ENOENT') resolve(null);
      else reject(e);
    });
    req.end(JSON.stringify({ name }));
  });
}
