import { ConfigError, readConfig, type ServiceConfig } from './core/config';
import { listen } from './listen';
import { migrateStore } from './store/migrate-store';
import { dropTelemetryBefore } from './store/drop-telemetry-before';
import { BackupError } from './store/backup/backup-error';
import { backupStore } from './store/backup/backup-store';
import { restoreStore } from './store/backup/restore-store';
import type { Manifest } from './store/backup/backup-manifest';
import { createService } from './service';
import { clickhouseExtras } from './store/clickhouse-store';
import { serveControlSocket } from './store/backup/control-socket';
import { SHUTDOWN_GRACE_MS, shutdownService } from './shutdown';

function configOrExit(): ServiceConfig {
  try {
    return readConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}

/** `migrate`: migrate the configured store and exit (the service also migrates on start). */
async function migrate(config: ServiceConfig) {
  // LOOKOUT_MOVE_CHUNK_ROWS: rows moved to ClickHouse per write (5,000 unless set).
  const chunkRows = Number(process.env.LOOKOUT_MOVE_CHUNK_ROWS) || undefined;
  const { store, from, to, moved } = await migrateStore(
    config,
    (table, n) =>
      process.stderr.write(`  ${table}: ${n.toLocaleString('en')} rows moved to ClickHouse\n`),
    chunkRows,
  );
  process.stdout.write(
    from === to
      ? `The ${store} store is at schema version ${to}; nothing to migrate.\n`
      : `Migrated the ${store} store from schema version ${from} to ${to}.\n`,
  );
  for (const m of moved ?? [])
    process.stdout.write(
      m.alreadyMoved
        ? `${m.table}: already in ClickHouse (${m.moved.toLocaleString('en')} rows moved before).\n`
        : `${m.table}: moved ${m.moved.toLocaleString('en')} rows to ClickHouse.\n`,
    );
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
/** The files, with the ClickHouse part files summed up per tier (there are hundreds). */
const listFiles = (m: Manifest) => {
  const parts = m.files.filter((f) => f.copied_by === 'clickhouse-freeze');
  const lines = m.files
    .filter((f) => f.copied_by !== 'clickhouse-freeze')
    .map((f) => `  ${f.path} (${megabytes(f.bytes)}, sha256 ${f.sha256.slice(0, 12)}…)\n`);
  if (parts.length > 0) {
    const bytes = parts.reduce((n, f) => n + f.bytes, 0);
    lines.push(
      `  clickhouse/ (${String(parts.length)} part files, ${megabytes(bytes)}, each with its sha256 in the manifest)\n`,
    );
  }
  return lines.join('');
};

/** `backup <dir>` and `restore <dir> [--force]`: see server/store/backup/. */
async function backupOrRestore(
  config: ServiceConfig,
  command: string,
  dir: string,
  force: boolean,
) {
  const started = Date.now();
  try {
    if (command === 'backup') {
      // Tests only: a pause between the state and telemetry copies (batches commit inside it).
      const pause = Number(process.env.LOOKOUT_BACKUP_TELEMETRY_PAUSE_MS ?? 0) || 0;
      const m = await backupStore(config, dir, { pauseBeforeTelemetryMs: pause });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`Backed up ${m.source} to ${dir} in ${seconds} s:\n${listFiles(m)}`);
      for (const s of m.skipped) process.stdout.write(`  skipped ${s.path}: ${s.reason}\n`);
    } else {
      const m = await restoreStore(config, dir, { force });
      const r = m.recovered;
      process.stdout.write(
        `Restored the backup taken ${m.started_at} into ${config.dataDir}:\n${listFiles(m)}` +
          (r
            ? `Telemetry checked against state: removed ${String(r.uncommitted)} batches committed after the state copy and ${String(r.unfinished)} unfinished ones.\n`
            : '') +
          `Start the service with LOOKOUT_DATA_DIR=${config.dataDir}; it migrates the store if the backup is older.\n`,
      );
    }
  } catch (e) {
    if (!(e instanceof BackupError)) throw e;
    process.stderr.write(`${e.message}\n${e.next}\n`);
    process.exit(2);
  }
}

async function serve(config: ServiceConfig) {
  const service = await createService(config);
  // The embedded ClickHouse engine's folder is this process's alone: the backup command asks
  // for its snapshot over a socket in the data directory (store/backup/control-socket.ts).
  const freeze = clickhouseExtras(service.store)?.freezeTelemetry;
  const control = freeze
    ? await serveControlSocket(config.dataDir, freeze, service.deps.log)
    : null;
  const running = await listen(service.app, config.port, config.host);
  process.stdout.write(`Lookout is running at http://localhost:${running.port}\n`);
  if (service.demoCredentialsFile) {
    process.stdout.write(`Demo sign-in: see ${service.demoCredentialsFile}\n`);
  }

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Should closing hang (a store that does not answer), exit anyway.
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + 5_000).unref();
    Promise.all([shutdownService(running, service), control?.close()]).then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`Stopping failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

const USAGE = `Usage: tsx server/main.ts                                 serve
       tsx server/main.ts migrate                         migrate the store and exit
       tsx server/main.ts drop-telemetry-before <date>    PostgreSQL: drop whole months of telemetry ended by <date> (2025-06-01)
       tsx server/main.ts backup <dir>                    copy the stores, while the service runs, into a new directory
       tsx server/main.ts restore <dir> [--force]         put a backup into the (stopped) data directory
`;

async function main() {
  const [command, ...args] = process.argv.slice(2);
  const force = command === 'restore' && args.includes('--force');
  const rest = force ? args.filter((a) => a !== '--force') : args;
  const valid =
    command === undefined ||
    (command === 'migrate' && rest.length === 0) ||
    (command === 'drop-telemetry-before' && rest.length === 1) ||
    ((command === 'backup' || command === 'restore') &&
      rest.length === 1 &&
      !rest[0]?.startsWith('-'));
  if (!valid) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const config = configOrExit();
  if (command === 'migrate') {
    await migrate(config);
    process.exit(0);
  }
  if (command === 'drop-telemetry-before') {
    const result = await dropTelemetryBefore(config, rest[0] ?? '');
    if (!result.ok) {
      process.stderr.write(`${result.error}\n`);
      process.exit(2);
    }
    process.stdout.write(
      result.dropped.length === 0
        ? 'No whole month of telemetry ended by then; nothing dropped.\n'
        : `Dropped ${String(result.dropped.length)} partitions: ${result.dropped.join(', ')}\n`,
    );
    process.exit(0);
  }
  if (command === 'backup' || command === 'restore') {
    await backupOrRestore(config, command, rest[0] ?? '', force);
    process.exit(0);
  }
  await serve(config);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
