import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ServiceConfig, TelemetryConfig } from '../../core/config';
import { openClickHouse, type ChDb } from '../telemetry/clickhouse/clickhouse-db';
import { freezeTelemetry, type FrozenTelemetry } from '../telemetry/clickhouse/freeze';
import { clickhouseServerBackupError } from './clickhouse-server-backup';
import { askServiceToFreeze, CONTROL_SOCKET } from './control-socket';
import { databaseFile } from '../sqlite/database';
import { BackupError } from './backup-error';
import {
  MANIFEST_FILE,
  MANIFEST_FORMAT,
  sha256File,
  writeManifest,
  type Manifest,
  type ManifestFile,
  type ManifestTier,
} from './backup-manifest';
import { backupSqliteFile, COMPANIONS, sqliteHeader } from './sqlite-files';
import { postgresBackupError } from './postgres-backup';
import { SERVICE_VERSION } from './service-version';

/**
 * `npm run service -- backup <dir>`: a consistent copy of the deployment's stores, taken
 * while the service runs, into a new or empty directory, with a manifest written last.
 *
 * One step per tier, state first, then telemetry. The rule that makes the pair consistent:
 * an item is acknowledged only after its batch is committed in the state store, so a state
 * copy holds every batch acknowledged before it started, and a telemetry copy taken after it
 * holds at least those batches' rows. The other order could restore state that names rows
 * the telemetry copy lacks. With both tiers in one SQLite file (one snapshot) or one
 * PostgreSQL database the pair is trivially consistent.
 *
 * Telemetry in ClickHouse (`LOOKOUT_TELEMETRY=clickhouse`, the embedded engine) is copied
 * second, from a snapshot of every table (ALTER TABLE … FREEZE, hard links) that the running
 * service takes when asked over its control socket (control-socket.ts: the engine's folder
 * is bound to the service's process), with its ClickHouse writes held for those
 * milliseconds, so each batch is in the snapshot whole or not at all. With no service
 * running, this command opens the engine and takes the snapshot itself.
 *
 * That copy may be newer than the state copy: it can hold rows of batches begun or
 * committed after the state copy. Begun ones are in the restored journal and removed by the
 * start-up check as after a crash, but committed ones are not: the restored state never saw
 * them (no usage counted, no journal entry). So the journal keeps committed entries for an
 * hour (the ledger, `ingest_journal.committed_at`, complete since `ingest_ledger.
 * complete_since`), restore marks the state `sweep_pending`, and the first start (which
 * restore runs itself) removes every batch with rows received since then that the restored
 * state has not committed (journaled-ingest.ts). Then every id the telemetry holds is of a
 * batch the state counted, and a re-send of a batch acknowledged after the backup is
 * stored and counted again rather than answered "already accepted".
 *
 * With CLICKHOUSE_URL (a server) the command refuses: the server's own backup (BACKUP … TO
 * Disk/S3, or clickhouse-backup) is the operator's, see clickhouse-server-backup.ts.
 */
type TierStep = {
  tier: ManifestTier['tier'];
  /** Entries of the data directory the step covers (a ClickHouse step: its folder). */
  owns: string[];
  /** Copies the tier into `into`: the files it wrote and the tier's manifest entry. */
  run: (into: string) => Promise<{ files: ManifestFile[]; tier: ManifestTier }>;
};

const now = () => new Date().toISOString();

/** Where the embedded ClickHouse engine keeps its files (server/core/config.ts). */
export const CLICKHOUSE_FOLDER = 'clickhouse';

async function fileEntry(
  into: string,
  name: string,
  copiedBy: ManifestFile['copied_by'],
): Promise<ManifestFile> {
  const file = path.join(into, name);
  return {
    path: name,
    bytes: fs.statSync(file).size,
    sha256: await sha256File(file),
    copied_by: copiedBy,
  };
}

/** Online-backs-up one SQLite file of the data directory; its `user_version`. */
async function copySqlite(
  dataDir: string,
  into: string,
  name: string,
): Promise<{ file: ManifestFile; version: number }> {
  const partial = path.join(into, `${name}.partial`);
  const version = await backupSqliteFile(path.join(dataDir, name), partial);
  fs.renameSync(partial, path.join(into, name));
  return { file: await fileEntry(into, name, 'sqlite-online-backup'), version };
}

function sqliteSteps(dataDir: string): TierStep[] {
  const name = path.basename(databaseFile(dataDir));
  return [
    {
      tier: 'state',
      owns: [name],
      run: async (into) => {
        const started_at = now();
        const { file, version } = await copySqlite(dataDir, into, name);
        return {
          files: [file],
          tier: {
            tier: 'state',
            engine: 'sqlite',
            files: [name],
            schema_version: version,
            started_at,
            finished_at: now(),
          },
        };
      },
    },
    {
      // The SQLite store keeps telemetry in the state file: copied with it, in its snapshot.
      tier: 'telemetry',
      owns: [],
      run: () => {
        const at = now();
        return Promise.resolve({
          files: [],
          tier: {
            tier: 'telemetry',
            engine: 'sqlite',
            files: [],
            kept_in: 'state',
            started_at: at,
            finished_at: at,
          },
        });
      },
    },
  ];
}

/**
 * The rest of the data directory's top level: other SQLite files (online-backed-up too) and
 * plain files such as demo-credentials.json. Folders are a tier's business (the ClickHouse
 * folder gets its engine's own backup), so unknown ones are listed as skipped.
 */
async function copyOthers(dataDir: string, into: string, taken: Set<string>) {
  const files: ManifestFile[] = [];
  const skipped: Manifest['skipped'] = [];
  for (const entry of fs.readdirSync(dataDir, { withFileTypes: true })) {
    const name = entry.name;
    if (taken.has(name) || COMPANIONS.some((c) => name.endsWith(c))) continue;
    if (!entry.isFile()) {
      skipped.push({ path: name, reason: 'not a file of a store this deployment has' });
      continue;
    }
    const source = path.join(dataDir, name);
    if (sqliteHeader(source)) {
      files.push((await copySqlite(dataDir, into, name)).file);
    } else {
      fs.copyFileSync(source, path.join(into, name));
      files.push(await fileEntry(into, name, 'file-copy'));
    }
  }
  return { files, skipped };
}

/**
 * The ClickHouse tier on the embedded engine: the snapshot (taken by the running service, or
 * here when none runs), its part files copied as `clickhouse/<table>/<part>/<file>`, then
 * the snapshot's hard links removed.
 */
function clickhouseStep(dataDir: string, telemetry: EmbeddedClickHouse, pauseMs: number): TierStep {
  return {
    tier: 'telemetry',
    owns: [CLICKHOUSE_FOLDER, CONTROL_SOCKET],
    run: async (into) => {
      // Tests widen the window between the two copies so batches commit inside it.
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      const started_at = now();
      const name = `lookout_backup_${Date.now()}_${randomBytes(4).toString('hex')}`;
      const frozen =
        (await askServiceToFreeze(dataDir, name).catch((e: unknown) => {
          throw new BackupError(
            `The running service did not take the ClickHouse snapshot (${String(e)}); the state copy is not kept.`,
            "Check the service's log, then run backup again.",
          );
        })) ?? (await freezeHere(telemetry, name));
      const shadowRoot = path.join(telemetry.embeddedPath, 'shadow');
      if (path.dirname(path.resolve(frozen.shadow)) !== path.resolve(shadowRoot))
        throw new Error(`unexpected snapshot folder ${frozen.shadow}`);
      try {
        const files: ManifestFile[] = [];
        for (const table of frozen.tables) {
          if (!fs.existsSync(table.parts)) continue;
          for (const rel of filesUnder(table.parts)) {
            const name = path.posix.join(CLICKHOUSE_FOLDER, table.name, rel);
            fs.mkdirSync(path.dirname(path.join(into, name)), { recursive: true });
            fs.copyFileSync(path.join(table.parts, rel), path.join(into, name));
            files.push(await fileEntry(into, name, 'clickhouse-freeze'));
          }
        }
        return {
          files,
          tier: {
            tier: 'telemetry',
            engine: 'clickhouse',
            files: [CLICKHOUSE_FOLDER],
            schema_version: frozen.schemaVersion,
            database: telemetry.database,
            tables: frozen.tables.map((t) => t.name),
            started_at,
            finished_at: now(),
          },
        };
      } finally {
        fs.rmSync(frozen.shadow, { recursive: true, force: true });
      }
    },
  };
}

/** Relative paths (with `/`) of the files under `dir`, sorted. */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** No service answers on the control socket: the engine's folder is free, or refused. */
async function freezeHere(telemetry: EmbeddedClickHouse, name: string): Promise<FrozenTelemetry> {
  let db: ChDb;
  try {
    db = await openClickHouse({ ...telemetry, url: null });
  } catch (e) {
    throw new BackupError(
      `The ClickHouse folder ${telemetry.embeddedPath} is in use by a process that does not answer on ${CONTROL_SOCKET} (${String(e)}); the state copy is not kept.`,
      'Run backup against the running Lookout service of this release (it serves the control socket), or stop that process and run backup again.',
    );
  }
  try {
    return await freezeTelemetry(db, telemetry.embeddedPath, name);
  } finally {
    await db.close();
  }
}

function prepareTarget(dataDir: string, into: string): void {
  const resolvedData = path.resolve(dataDir);
  const resolvedInto = path.resolve(into);
  if (resolvedInto === resolvedData || resolvedInto.startsWith(`${resolvedData}${path.sep}`)) {
    throw new BackupError(
      `The backup directory ${into} is inside the data directory ${dataDir}.`,
      'Give a directory outside LOOKOUT_DATA_DIR, ideally on another disk.',
    );
  }
  if (fs.existsSync(into) && fs.readdirSync(into).length > 0) {
    throw new BackupError(
      `The backup directory ${into} is not empty.`,
      'Give a new or empty directory (one per backup, e.g. named by date); nothing was written.',
    );
  }
  // The copy holds password and token hashes: readable by its owner only.
  fs.mkdirSync(into, { recursive: true, mode: 0o700 });
}

type EmbeddedClickHouse = Extract<TelemetryConfig, { engine: 'clickhouse' }>;

export async function backupStore(
  config: Pick<ServiceConfig, 'dataDir' | 'databaseUrl'> & { telemetry?: TelemetryConfig },
  into: string,
  options: { pauseBeforeTelemetryMs?: number } = {},
): Promise<Manifest> {
  if (config.databaseUrl) throw postgresBackupError(into);
  const telemetry = config.telemetry ?? { engine: 'state' };
  if (telemetry.engine === 'clickhouse' && telemetry.url !== null)
    throw clickhouseServerBackupError();
  const dataDir = config.dataDir;
  if (!fs.existsSync(databaseFile(dataDir))) {
    throw new BackupError(
      `There is no Lookout store in ${path.resolve(dataDir)} (no ${path.basename(databaseFile(dataDir))}).`,
      "Set LOOKOUT_DATA_DIR to the running service's data directory (DATABASE_URL for PostgreSQL).",
    );
  }
  if (telemetry.engine !== 'clickhouse' && fs.existsSync(path.join(dataDir, CLICKHOUSE_FOLDER)))
    throw new BackupError(
      `This data directory keeps telemetry in ClickHouse (${path.join(dataDir, CLICKHOUSE_FOLDER)}), but LOOKOUT_TELEMETRY is not clickhouse here; a copy without it would lose those logs.`,
      "Run backup with the service's own settings (LOOKOUT_TELEMETRY=clickhouse, CLICKHOUSE_DATABASE).",
    );
  prepareTarget(dataDir, into);
  const started_at = now();
  const files: ManifestFile[] = [];
  const tiers: ManifestTier[] = [];
  const sqlite = sqliteSteps(dataDir);
  const steps =
    telemetry.engine === 'clickhouse'
      ? [
          ...sqlite.filter((step) => step.tier === 'state'),
          clickhouseStep(dataDir, telemetry, options.pauseBeforeTelemetryMs ?? 0),
        ]
      : sqlite;
  for (const step of steps) {
    const done = await step.run(into);
    files.push(...done.files);
    tiers.push(done.tier);
  }
  const others = await copyOthers(dataDir, into, new Set(steps.flatMap((s) => s.owns)));
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    service_version: SERVICE_VERSION,
    source: path.resolve(dataDir),
    started_at,
    finished_at: now(),
    tiers,
    files: [...files, ...others.files],
    skipped: others.skipped.filter((s) => s.path !== MANIFEST_FILE),
  };
  writeManifest(into, manifest);
  return manifest;
}
