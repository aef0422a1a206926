import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL cluster that lives as long as one test run: initdb in a temporary directory,
 * listening on a free loopback port, fsync off, removed on stop. Needs the PostgreSQL server
 * binaries (Debian: `apt-get install postgresql`); .ci/run installs them when missing.
 */
export type ThrowawayPostgres = { url: string; stop(): void };

export function postgresBinDir(): string | null {
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const candidates = [
    fromConfig.status === 0 ? fromConfig.stdout.trim() : '',
    ...(fs.existsSync('/usr/lib/postgresql')
      ? fs
          .readdirSync('/usr/lib/postgresql')
          .sort((a, b) => Number(b) - Number(a))
          .map((v) => `/usr/lib/postgresql/${v}/bin`)
      : []),
  ];
  return candidates.find((d) => d && fs.existsSync(path.join(d, 'initdb'))) ?? null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * `durable: false` (tests) turns fsync off; `true` (benchmarks) keeps it and only stops
 * commits waiting for the WAL flush, like SQLite's `synchronous = NORMAL` in WAL mode.
 */
export async function startThrowawayPostgres(
  opts: {
    durable?: boolean;
    /** A cluster that outlives its run: created here the first time, started again later, never removed. */
    dir?: string;
  } = {},
): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  if (!bin) {
    throw new Error(
      'PostgreSQL server binaries not found (initdb). Install them: apt-get install -y postgresql',
    );
  }
  const kept = opts.dir !== undefined;
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-pg-'));
  fs.mkdirSync(dir, { recursive: true });
  // initdb refuses to run as root; run the cluster as the postgres system user then.
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], {
          stdio: 'pipe',
        })
      : execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' });
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const data = path.join(dir, 'data');
  if (!fs.existsSync(path.join(data, 'PG_VERSION')))
    run('initdb', ['-D', data, '--locale=C', '--encoding=UTF8', '--auth=trust', '-U', 'lookout']);
  const port = await freePort();
  const options = [
    `-p ${String(port)}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c synchronous_commit=off',
    '-c max_connections=300',
    // Throwaway test data needs no durability; a benchmark keeps it, with SQLite's cache size.
    // Checkpoints a write-heavy deployment would have: the default 1 GB of WAL forces one
    // every few seconds at the 100 MB/s and more a 10M seed writes, and every page written
    // after a checkpoint is logged whole again, so the seed measured checkpoints more than
    // the store.
    ...(opts.durable
      ? ['-c shared_buffers=128MB', '-c max_wal_size=8GB', '-c checkpoint_timeout=15min']
      : ['-c fsync=off', '-c full_page_writes=off']),
  ].join(' ');
  run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
    try {
      // A kept cluster stops cleanly (no recovery at its next start).
      run('pg_ctl', ['-D', data, '-m', kept ? 'fast' : 'immediate', '-w', 'stop']);
    } finally {
      if (!kept) fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  // A run stopped with Ctrl-C or killed (a benchmark of hours) leaves no cluster behind.
  const interrupted = (signal: NodeJS.Signals) => {
    stop();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  return { url: `postgres://lookout@127.0.0.1:${String(port)}/postgres`, stop };
}
