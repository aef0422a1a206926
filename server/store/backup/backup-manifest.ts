import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { BackupError } from './backup-error';

/**
 * `lookout-backup.json`, written last into a backup directory: a directory without it is an
 * unfinished backup. It names every copied file with its size and SHA-256 (restore checks
 * them) and each tier's engine and schema (migration) level.
 */
export const MANIFEST_FILE = 'lookout-backup.json';
export const MANIFEST_FORMAT = 1;

const fileEntry = z.object({
  /** Relative to the backup directory, and where it goes in the data directory. */
  path: z.string().min(1),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /**
   * `sqlite-online-backup`: SQLite's backup API (one read snapshot); `file-copy`: as is;
   * `clickhouse-freeze`: a file of a ClickHouse part, from the engine's snapshot of every
   * telemetry table (`clickhouse/<table>/<part>/<file>`).
   */
  copied_by: z.enum(['sqlite-online-backup', 'file-copy', 'clickhouse-freeze']),
});
export type ManifestFile = z.infer<typeof fileEntry>;

const tierEntry = z.object({
  /** state: accounts, projects, keys, issues, usage; telemetry: logs, spans, events, metrics. */
  tier: z.enum(['state', 'telemetry']),
  engine: z.enum(['sqlite', 'clickhouse']),
  /**
   * The files that hold the tier; empty when `kept_in` names the tier that holds it. For
   * ClickHouse, the folder its part files are under (`clickhouse`).
   */
  files: z.array(z.string()),
  kept_in: z.enum(['state']).optional(),
  /**
   * The tier's migration level at the copy (SQLite: `user_version`; ClickHouse: the highest
   * version in its `schema_migrations`).
   */
  schema_version: z.number().int().nonnegative().optional(),
  /** ClickHouse: the database copied, and its tables (those without a part have no file). */
  database: z.string().optional(),
  tables: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).optional(),
  started_at: z.string(),
  finished_at: z.string(),
});
export type ManifestTier = z.infer<typeof tierEntry>;

export const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  service_version: z.string(),
  /** The data directory the copy was taken from. */
  source: z.string(),
  started_at: z.string(),
  finished_at: z.string(),
  /** In the order they were copied: state first (see backup-store.ts). */
  tiers: z.array(tierEntry).min(1),
  files: z.array(fileEntry),
  /** Entries of the data directory that are not copied, with why. */
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
});
export type Manifest = z.infer<typeof manifestSchema>;

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export function writeManifest(dir: string, manifest: Manifest): void {
  const tmp = path.join(dir, `${MANIFEST_FILE}.partial`);
  fs.writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
  fs.renameSync(tmp, path.join(dir, MANIFEST_FILE));
}

export function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST_FILE);
  if (!fs.existsSync(dir)) {
    throw new BackupError(
      `There is no backup directory at ${dir}.`,
      'Give the directory that `npm run service -- backup <dir>` wrote.',
    );
  }
  if (!fs.existsSync(file)) {
    throw new BackupError(
      `${dir} has no ${MANIFEST_FILE}: it is not a backup, or the backup did not finish.`,
      'Restore from a backup whose command ended with "Backed up"; take a new one if there is none.',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    throw new BackupError(
      `${file} is not valid JSON: the backup is damaged.`,
      'Restore from another backup.',
    );
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success) {
    throw new BackupError(
      `${file} is not a manifest this version understands (${result.error.issues[0]?.message ?? 'invalid'}).`,
      'Restore it with the Lookout release that wrote it (see its service_version), or from another backup.',
    );
  }
  return result.data;
}
