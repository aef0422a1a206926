import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateStore } from './migrate-store';
import { migrations } from './sqlite/migrations';
import { pgMigrations } from './postgres/pg-migrations';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

describe('npm run service -- migrate', () => {
  const dirs: string[] = [];
  const databases: TestDatabase[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-migrate-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
    for (const db of databases.splice(0)) await db.drop();
  });

  it('migrates a new SQLite file to the newest version, then has nothing to do', async () => {
    const dataDir = tempDir();
    expect(await migrateStore({ dataDir, databaseUrl: null })).toEqual({
      store: 'sqlite',
      from: 0,
      to: migrations.length,
    });
    expect(await migrateStore({ dataDir, databaseUrl: null })).toEqual({
      store: 'sqlite',
      from: migrations.length,
      to: migrations.length,
    });
  });

  it.skipIf(!process.env.LOOKOUT_TEST_DATABASE_URL)(
    'migrates a new PostgreSQL schema once, however many run at once',
    async () => {
      const database = await createTestDatabase();
      databases.push(database);
      const config = { dataDir: tempDir(), databaseUrl: database.url };
      // Instances starting together: one migrates, the others wait and find nothing to do.
      const together = await Promise.all([migrateStore(config), migrateStore(config)]);
      expect(together.map((r) => r.from).sort()).toEqual([0, pgMigrations.length]);
      expect(together.map((r) => r.to)).toEqual([pgMigrations.length, pgMigrations.length]);
      expect(await migrateStore(config)).toEqual({
        store: 'postgres',
        from: pgMigrations.length,
        to: pgMigrations.length,
      });
    },
  );

  it('the service command with `migrate` prints the versions and exits 0 without serving', async () => {
    const dataDir = tempDir();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      LOOKOUT_DATA_DIR: dataDir,
      // A port the service would fail to listen on: migrate must not try.
      PORT: '1',
    };
    // The SQLite store, whatever the environment running the tests says.
    delete env.DATABASE_URL;
    const first = await run(process.execPath, ['--import', 'tsx', 'server/main.ts', 'migrate'], {
      cwd: ROOT,
      env,
    });
    expect(first.stdout).toBe(
      `Migrated the sqlite store from schema version 0 to ${migrations.length}.\n`,
    );
    await expect(
      run(process.execPath, ['--import', 'tsx', 'server/main.ts', 'migrat'], { cwd: ROOT, env }),
    ).rejects.toMatchObject({ code: 2 });
  }, 60_000);
});
