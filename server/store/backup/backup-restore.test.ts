import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFile, openDatabase } from '../sqlite/database';
import { migrations } from '../sqlite/migrations';
import { BackupError } from './backup-error';
import { MANIFEST_FILE, readManifest } from './backup-manifest';
import { backupStore } from './backup-store';
import { restoreStore } from './restore-store';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-backup-unit-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A data directory with a migrated store holding one marker row, and a credentials file. */
function dataDirWith(marker: string): string {
  const dataDir = tempDir();
  const db = openDatabase(dataDir);
  db.exec(`CREATE TABLE marker (v TEXT); INSERT INTO marker VALUES ('${marker}')`);
  db.close();
  fs.writeFileSync(path.join(dataDir, 'demo-credentials.json'), '{}');
  return dataDir;
}

const markerOf = (dataDir: string) => {
  const db = new Database(databaseFile(dataDir), { readonly: true });
  try {
    return (db.prepare('SELECT v FROM marker').get() as { v: string }).v;
  } finally {
    db.close();
  }
};

const sqlite = (dataDir: string) => ({ dataDir, databaseUrl: null });

/** The BackupError a call throws (its message and next), or a failure if it does not. */
async function refusal(p: Promise<unknown>): Promise<BackupError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (!(e instanceof BackupError)) throw new Error(`expected a BackupError, got ${String(e)}`);
  return e;
}

describe('backup and restore', () => {
  it('copies the store and the data directory files with a manifest, and restores them', async () => {
    const source = dataDirWith('one');
    const into = path.join(tempDir(), 'backup');
    const manifest = await backupStore(sqlite(source), into);
    expect(manifest.tiers.map((t) => [t.tier, t.engine, t.kept_in])).toEqual([
      ['state', 'sqlite', undefined],
      ['telemetry', 'sqlite', 'state'],
    ]);
    expect(manifest.tiers[0]?.schema_version).toBe(migrations.length);
    expect(manifest.files.map((f) => [f.path, f.copied_by])).toEqual([
      ['lookout.sqlite', 'sqlite-online-backup'],
      ['demo-credentials.json', 'file-copy'],
    ]);
    // One self-contained file: nothing beside it that its checksum would not cover.
    expect(fs.readdirSync(into).sort()).toEqual([
      'demo-credentials.json',
      MANIFEST_FILE,
      'lookout.sqlite',
    ]);
    expect(readManifest(into)).toEqual(manifest);

    const target = path.join(tempDir(), 'restored');
    await restoreStore(sqlite(target), into, { force: false });
    expect(markerOf(target)).toBe('one');
    expect(fs.readFileSync(path.join(target, 'demo-credentials.json'), 'utf8')).toBe('{}');
  });

  it('refuses a backup directory that is not empty, and PostgreSQL with what to run', async () => {
    const source = dataDirWith('one');
    const into = tempDir();
    fs.writeFileSync(path.join(into, 'x'), '');
    expect((await refusal(backupStore(sqlite(source), into))).message).toContain('not empty');
    const pg = await refusal(
      backupStore({ dataDir: source, databaseUrl: 'postgres://db/lookout' }, tempDir()),
    );
    expect(pg.next).toContain('pg_dump --format=custom');
    const withClickHouse = dataDirWith('logs elsewhere');
    fs.mkdirSync(path.join(withClickHouse, 'clickhouse'));
    // Run without the service's LOOKOUT_TELEMETRY=clickhouse, the copy would lack the logs.
    const elsewhere = await refusal(backupStore(sqlite(withClickHouse), tempDir()));
    expect(elsewhere.message).toContain('ClickHouse');
    expect(elsewhere.next).toContain('LOOKOUT_TELEMETRY=clickhouse');
    // A ClickHouse server is backed up with its own tools, said in words.
    const server = await refusal(
      backupStore(
        {
          ...sqlite(source),
          telemetry: {
            engine: 'clickhouse',
            url: 'http://clickhouse:8123',
            database: 'lookout',
            embeddedPath: path.join(source, 'clickhouse'),
          },
        },
        tempDir(),
      ),
    );
    expect(server.message).toContain('ClickHouse server');
    expect(server.next).toContain('BACKUP DATABASE');
    const none = await refusal(backupStore(sqlite(tempDir()), path.join(tempDir(), 'b')));
    expect(none.message).toContain('There is no Lookout store');
  });

  it('refuses an unfinished or damaged backup before touching the data directory', async () => {
    const into = path.join(tempDir(), 'backup');
    await backupStore(sqlite(dataDirWith('one')), into);
    const target = path.join(tempDir(), 'restored');

    const file = path.join(into, 'lookout.sqlite');
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 1] = (bytes.at(-1) ?? 0) ^ 0xff;
    fs.writeFileSync(file, bytes);
    const damaged = await refusal(restoreStore(sqlite(target), into, { force: false }));
    expect(damaged.message).toContain('lookout.sqlite does not match its checksum');
    expect(fs.existsSync(target)).toBe(false);

    fs.rmSync(path.join(into, MANIFEST_FILE));
    const unfinished = await refusal(restoreStore(sqlite(target), into, { force: false }));
    expect(unfinished.message).toContain('did not finish');
  });

  it('refuses a backup from a newer schema than this release knows', async () => {
    const source = dataDirWith('one');
    const db = new Database(databaseFile(source));
    db.pragma(`user_version = ${migrations.length + 1}`);
    db.close();
    const into = path.join(tempDir(), 'backup');
    await backupStore(sqlite(source), into);
    const newer = await refusal(restoreStore(sqlite(tempDir()), into, { force: true }));
    expect(newer.message).toContain(`schema version ${migrations.length + 1}, newer`);
  });

  it('refuses a data directory with data unless forced, and one a service has open', async () => {
    const into = path.join(tempDir(), 'backup');
    await backupStore(sqlite(dataDirWith('backed-up')), into);
    const target = dataDirWith('current');

    const full = await refusal(restoreStore(sqlite(target), into, { force: false }));
    expect(full.message).toContain('is not empty');
    expect(full.next).toContain('--force');

    // A service's connection, idle between requests, holds the directory even with --force.
    const service = openDatabase(target);
    const inUse = await refusal(restoreStore(sqlite(target), into, { force: true }));
    expect(inUse.message).toContain('has the store');
    service.close();
    expect(markerOf(target)).toBe('current');

    // A WAL left beside the old file (a crashed service's) must not be replayed into the
    // restored one.
    const crashed = openDatabase(target);
    crashed.pragma('wal_autocheckpoint = 0');
    crashed.exec("UPDATE marker SET v = 'in-the-old-wal'");
    const wal = fs.readFileSync(`${databaseFile(target)}-wal`);
    crashed.close();
    fs.writeFileSync(`${databaseFile(target)}-wal`, wal);
    await restoreStore(sqlite(target), into, { force: true });
    expect(fs.existsSync(`${databaseFile(target)}-wal`)).toBe(false);
    expect(markerOf(target)).toBe('backed-up');
  });
});
