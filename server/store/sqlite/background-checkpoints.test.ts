import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { databaseFile, openDatabase } from './database';
import { startBackgroundCheckpoints } from './background-checkpoints';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function writeAMegabyte(dir: string) {
  const db = openDatabase(dir);
  db.exec('CREATE TABLE blobs (v TEXT)');
  const insert = db.prepare('INSERT INTO blobs (v) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < 256; i++) insert.run('x'.repeat(4096));
  })();
  return db;
}

describe('background checkpoints', () => {
  it('copy committed pages into the database file without a commit paying for it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-ckpt-'));
    dirs.push(dir);
    const db = openDatabase(dir);
    const stop = startBackgroundCheckpoints(db, databaseFile(dir), 20);
    const before = fs.statSync(databaseFile(dir)).size;
    db.exec('CREATE TABLE blobs (v TEXT)');
    const insert = db.prepare('INSERT INTO blobs (v) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 256; i++) insert.run('x'.repeat(4096));
    })();
    // Every 20 ms; a machine busy with other work may take a while to run the timer.
    await vi.waitFor(
      () => expect(fs.statSync(databaseFile(dir)).size).toBeGreaterThan(before + 1024 * 1024),
      { timeout: 10_000, interval: 50 },
    );
    await stop();
    db.close();
  });

  it('without them, a small write stays in the WAL (so the test above can fail)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-ckpt-'));
    dirs.push(dir);
    const db = writeAMegabyte(dir);
    await new Promise((r) => setTimeout(r, 100));
    expect(fs.statSync(databaseFile(dir)).size).toBeLessThan(1024 * 1024);
    db.close();
  });
});
