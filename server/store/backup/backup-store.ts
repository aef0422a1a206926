import fs from 'node:fs';
import path from 'node:path';
import type { ServiceConfig } from '../../core/config';
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
 * holds at least those batches' rows. Telemetry may be newer than state (rows of batches
 * committed after the state copy); a tier kept apart from state journals its batches in the
 * state store and, on start, removes rows whose batch the state store does not have, so the
 * restored pair agrees again. The other order could restore state that names rows the
 * telemetry copy lacks. Today both tiers live in one SQLite file (one snapshot: trivially
 * consistent) or one PostgreSQL database; a separate telemetry engine adds its own step here.
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
const CLICKHOUSE_FOLDER = 'clickhouse';

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
 * Logs kept in ClickHouse (`LOOKOUT_TELEMETRY=clickhouse`, its files in the data directory's
 * `clickhouse/`) have no backup step yet, and the running service holds that folder locked:
 * a copy without them would look whole and lose every log, so the command refuses instead.
 */
function refuseTelemetryElsewhere(dataDir: string): void {
  const folder = path.join(dataDir, CLICKHOUSE_FOLDER);
  if (!fs.existsSync(folder)) return;
  throw new BackupError(
    `This data directory keeps telemetry in ClickHouse (${folder}), which the backup command cannot copy yet; a copy without it would lose those logs.`,
    'Stop the service and copy the whole data directory (a stopped store is consistent), or back up a deployment that keeps telemetry in SQLite or PostgreSQL.',
  );
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

export async function backupStore(
  config: Pick<ServiceConfig, 'dataDir' | 'databaseUrl'>,
  into: string,
): Promise<Manifest> {
  if (config.databaseUrl) throw postgresBackupError(into);
  const dataDir = config.dataDir;
  if (!fs.existsSync(databaseFile(dataDir))) {
    throw new BackupError(
      `There is no Lookout store in ${path.resolve(dataDir)} (no ${path.basename(databaseFile(dataDir))}).`,
      "Set LOOKOUT_DATA_DIR to the running service's data directory (DATABASE_URL for PostgreSQL).",
    );
  }
  refuseTelemetryElsewhere(dataDir);
  prepareTarget(dataDir, into);
  const started_at = now();
  const files: ManifestFile[] = [];
  const tiers: ManifestTier[] = [];
  const steps = sqliteSteps(dataDir);
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
