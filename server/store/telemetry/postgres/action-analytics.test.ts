import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import {
  itAnswersAsTheDomainFunctions,
  itAnswersAsTheSqliteStore,
  openDatabaseWithRows,
  rows,
} from '../../../test-support/action-analytics-cases';
import { createTestDatabase, testDatabaseServer } from '../../../test-support/test-database';
import type { TestDatabase } from '../../../test-support/test-database';
import type { Db } from '../../sqlite/database';
import { pgActions } from './actions';
import { ensurePartitions } from '../../postgres/pg-partitions';
import { openPostgresStore } from '../../postgres-store';
import type { PgContext } from '../../postgres/pg-context';
import { sql } from '../../rows/sql';

/**
 * The PostgreSQL analytics reads answer what the domain functions answer, and what the SQLite
 * store (checked against plain SQL in its own test) answers, over the same random actions.
 * Runs only with LOOKOUT_TEST_DATABASE_URL set.
 */
describe.skipIf(testDatabaseServer() === null)('analytics reads on PostgreSQL', () => {
  let database: TestDatabase;
  let ctx: PgContext;
  let close: () => Promise<void>;
  let dir: string;
  let sqlite: Db;
  const store = () => pgActions(ctx);

  beforeAll(async () => {
    database = await createTestDatabase();
    const opened = await openPostgresStore(database.url ?? '');
    ctx = opened.pg;
    close = opened.close;
    await ensurePartitions(
      ctx.db,
      ctx.schema,
      'actions',
      rows.map((a) => a.at),
    );
    // Stored in generation order: storage order (seq) is not time order.
    await ctx.db
      .run(sql`INSERT INTO actions (seq, id, project_id, occurred_at, name, kind, distinct_id,
         session_id, properties, environment, release, service_name, sdk_name, sdk_version,
         received_at)
       SELECT seq, 'id-' || seq, project, at, name, kind, usr, session, properties, env, rel,
         service, 'sdk', '1', 0
       FROM unnest(${rows.map((a) => a.seq)}::bigint[], ${rows.map((a) => a.project)}::text[],
       ${rows.map((a) => a.at)}::bigint[], ${rows.map((a) => a.name)}::text[],
       ${rows.map((a) => a.kind)}::text[], ${rows.map((a) => a.user)}::text[],
         ${rows.map((a) => a.session)}::text[], ${rows.map((a) => a.properties)}::text[],
         ${rows.map((a) => a.environment)}::text[], ${rows.map((a) => a.release)}::text[],
         ${rows.map((a) => a.service)}::text[])
         AS t(seq, project, at, name, kind, usr, session, properties, env, rel, service)`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-pg-action-analytics-'));
    sqlite = openDatabaseWithRows(dir);
  });

  afterAll(async () => {
    await close();
    await database.drop();
    sqlite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  itAnswersAsTheDomainFunctions(store);

  itAnswersAsTheSqliteStore(store, () => sqlite, ['k\u0000', 'k\ue000']);
});
