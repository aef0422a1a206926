import fs from 'node:fs';
import Database from 'better-sqlite3';

/** The 16 bytes every SQLite database file starts with. */
const MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
/** Files SQLite keeps beside a database; never copied on their own. */
export const COMPANIONS = ['-wal', '-shm', '-journal'];

/** The header fields restore checks, read without opening the file with SQLite. */
export function sqliteHeader(file: string): { userVersion: number; wal: boolean } | null {
  const header = Buffer.alloc(100);
  const fd = fs.openSync(file, 'r');
  try {
    if (fs.readSync(fd, header, 0, 100, 0) < 100) return null;
  } finally {
    fs.closeSync(fd);
  }
  if (!header.subarray(0, 16).equals(MAGIC)) return null;
  // Bytes 18 and 19: the write and read format versions, 2 in WAL mode; 60: user_version.
  return { userVersion: header.readUInt32BE(60), wal: header[18] === 2 };
}

/**
 * An online copy of a SQLite database that other processes may be writing: SQLite's backup
 * API with every page in one step, so the copy is one read transaction's snapshot (in WAL
 * mode readers never block the writers, nor they the reader). In smaller steps a write by
 * another connection between two steps restarts the copy, which under steady ingest never
 * ends. The copy is switched to a rollback journal (one self-contained file whose checksum
 * holds; the service turns WAL back on when it opens it) and quick-checked.
 */
export async function backupSqliteFile(source: string, dest: string): Promise<number> {
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    await db.backup(dest, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  const copy = new Database(dest, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true }) as string;
    if (check !== 'ok') throw new Error(`the copy of ${source} fails SQLite's check: ${check}`);
    return copy.pragma('user_version', { simple: true }) as number;
  } finally {
    copy.close();
  }
}

/**
 * Whether another connection (a running service) has the database open. Leaving WAL mode
 * needs the only connection, and a WAL connection holds its claim even while idle, when a
 * plain lock would not show. An unused file is switched back at once.
 */
export function sqliteInUse(file: string): boolean {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    const mode = db.pragma('journal_mode', { simple: true }) as string;
    if (mode !== 'wal') {
      db.exec('BEGIN EXCLUSIVE');
      db.exec('ROLLBACK');
      return false;
    }
    db.pragma('journal_mode = DELETE');
    db.pragma('journal_mode = WAL');
    return false;
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw e;
  } finally {
    db.close();
  }
}
