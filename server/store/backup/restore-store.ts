import fs from 'node:fs';
import path from 'node:path';
import type { ServiceConfig, TelemetryConfig } from '../../core/config';
import { openClickHouseStore } from '../clickhouse-store';
import type { Recovered } from '../journaled-ingest';
import { CLICKHOUSE_FOLDER } from './backup-store';
import { buildClickHouseFolder, clickhouseTier, markSweepPending } from './clickhouse-restore';
import { clickhouseServerRestoreError } from './clickhouse-server-backup';
import { databaseFile } from '../sqlite/database';
import { migrations } from '../sqlite/migrations';
import { BackupError } from './backup-error';
import { readManifest, sha256File, type Manifest } from './backup-manifest';
import { postgresRestoreError } from './postgres-backup';
import { COMPANIONS, sqliteHeader, sqliteInUse } from './sqlite-files';

/** Every file is there, of its size and checksum: else the backup is damaged. */
async function verifyFiles(from: string, manifest: Manifest): Promise<void> {
  for (const entry of manifest.files) {
    const file = path.join(from, entry.path);
    const damaged = (what: string) =>
      new BackupError(
        `The backup is damaged: ${entry.path} ${what}. Nothing was restored.`,
        'Restore from another backup (and check the disk that held this one).',
      );
    if (!fs.existsSync(file)) throw damaged('is missing');
    if (fs.statSync(file).size !== entry.bytes) throw damaged('is not the size the manifest says');
    if ((await sha256File(file)) !== entry.sha256) throw damaged('does not match its checksum');
  }
}

/** Each SQLite tier is at the level the manifest says, and one this release can migrate. */
function verifySchemas(from: string, manifest: Manifest): void {
  for (const tier of manifest.tiers) {
    if (tier.engine !== 'sqlite' || tier.schema_version === undefined) continue;
    for (const name of tier.files) {
      const header = sqliteHeader(path.join(from, name));
      if (!header || header.userVersion !== tier.schema_version) {
        throw new BackupError(
          `The backup is damaged: ${name} is not the SQLite database at schema version ${tier.schema_version} the manifest says. Nothing was restored.`,
          'Restore from another backup.',
        );
      }
      if (header.userVersion > migrations.length) {
        throw new BackupError(
          `The backup's ${tier.tier} store is at schema version ${header.userVersion}, newer than this release knows (${migrations.length}): it was taken by a newer Lookout (${manifest.service_version}). Nothing was restored.`,
          `Restore it with Lookout ${manifest.service_version} or newer.`,
        );
      }
    }
  }
}

/** The data directory takes the restore: not used by a service; empty unless forced. */
function checkTarget(dataDir: string, force: boolean): void {
  if (!fs.existsSync(dataDir)) return;
  const store = databaseFile(dataDir);
  if (fs.existsSync(store) && sqliteInUse(store)) {
    throw new BackupError(
      `A running Lookout service (or another program) has the store in ${dataDir} open. Nothing was restored.`,
      'Stop every service that uses this LOOKOUT_DATA_DIR, then run restore again; or restore into a new directory.',
    );
  }
  if (!force && fs.readdirSync(dataDir).length > 0) {
    throw new BackupError(
      `The data directory ${dataDir} is not empty. Nothing was restored.`,
      'Restore into a new or empty directory (set LOOKOUT_DATA_DIR to it), or add --force to replace the store there (what it holds now is lost).',
    );
  }
}

/**
 * `npm run service -- restore <dir> [--force]`: checks the backup whole (manifest, sizes,
 * checksums, schema levels) before touching the data directory, then puts each file in place
 * (copied beside it, then renamed). A replaced SQLite file's `-wal` and `-shm` are removed
 * first: an old WAL beside the restored file would be replayed into it.
 */
export async function restoreStore(
  config: Pick<ServiceConfig, 'dataDir' | 'databaseUrl'> & { telemetry?: TelemetryConfig },
  from: string,
  options: { force: boolean },
): Promise<Manifest & { recovered?: Recovered }> {
  if (config.databaseUrl) throw postgresRestoreError(from);
  const manifest = readManifest(from);
  const chTier = clickhouseTier(manifest);
  const telemetry = config.telemetry ?? { engine: 'state' };
  if (chTier && (telemetry.engine !== 'clickhouse' || telemetry.url !== null)) {
    if (telemetry.engine === 'clickhouse') throw clickhouseServerRestoreError();
    throw new BackupError(
      'This backup keeps telemetry in ClickHouse, but LOOKOUT_TELEMETRY is not clickhouse here. Nothing was restored.',
      'Run restore (and then the service) with LOOKOUT_TELEMETRY=clickhouse.',
    );
  }
  await verifyFiles(from, manifest);
  verifySchemas(from, manifest);
  const dataDir = config.dataDir;
  checkTarget(dataDir, options.force);
  fs.mkdirSync(dataDir, { recursive: true });
  const staged: [string, string][] = [];
  let chStaging: string | null = null;
  const chFolder = path.join(dataDir, CLICKHOUSE_FOLDER);
  if (chTier && telemetry.engine === 'clickhouse') {
    // Built beside the data directory's folder and renamed into place with the state files.
    chStaging = `${chFolder}.restoring`;
    fs.rmSync(chStaging, { recursive: true, force: true });
    try {
      await buildClickHouseFolder(from, chTier, telemetry, chStaging);
    } catch (e) {
      fs.rmSync(chStaging, { recursive: true, force: true });
      throw e;
    }
  }
  for (const entry of manifest.files) {
    if (entry.copied_by === 'clickhouse-freeze') continue;
    const target = path.join(dataDir, entry.path);
    const partial = `${target}.restoring`;
    fs.copyFileSync(path.join(from, entry.path), partial);
    const fd = fs.openSync(partial, 'r');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    staged.push([partial, target]);
  }
  if (chStaging) {
    const stateFile = staged.find(([, target]) => target === databaseFile(dataDir));
    if (stateFile) markSweepPending(stateFile[0]);
  }
  for (const [partial, target] of staged) {
    for (const c of COMPANIONS) fs.rmSync(`${target}${c}`, { force: true });
    fs.renameSync(partial, target);
  }
  if (!chStaging || telemetry.engine !== 'clickhouse') return manifest;
  fs.rmSync(chFolder, { recursive: true, force: true });
  fs.renameSync(chStaging, chFolder);
  // The start-up check, run once here: it removes the batches the state copy never committed
  // (and reports how many); should this be cut short, the service's first start runs it.
  const store = await openClickHouseStore({ dataDir, telemetry });
  const recovered = store.recovered;
  await store.close();
  return { ...manifest, recovered };
}
