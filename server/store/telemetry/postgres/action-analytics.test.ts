import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FILTERED,
  itAnswersAsTheDomainFunctions,
  OTHER,
  openDatabaseWithRows,
  PROJECT,
  rows,
  T0,
  DAY,
} from '../../../test-support/action-analytics-cases';
import { createTestDatabase, testDatabaseServer } from '../../../test-support/test-database';
import type { TestDatabase } from '../../../test-support/test-database';
import type { Db } from '../../sqlite/database';
import { sqliteActions } from '../sqlite/actions';
import type { ActionListQuery } from '../../../core/store/telemetry/actions';
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

  it('answer segments, the overview and properties as the SQLite store does', async () => {
    const want = sqliteActions(sqlite);
    const byKey = <T extends { key: string; type: string }>(keys: T[]) =>
      [...keys].sort((a, b) => (a.key + a.type < b.key + b.type ? -1 : 1));
    for (const q of FILTERED) {
      for (const unit of ['session_id', 'distinct_id'] as const)
        for (const [match, topLimit] of [
          [null, 3],
          [{ kind: 'page_view', name: 'Home' }, 0],
          [{ kind: 'interaction', name: '𝌆 astral' }, 2],
          [{ kind: 'screen_view', name: 'nul\u0000name' }, 2],
        ] as const) {
          const s = { ...q, unit, match, topLimit };
          expect(await store().segment(s)).toEqual(await want.segment(s));
        }
      for (const topLimit of [4, 100]) {
        const o = { ...q, bucketFrom: q.from - 1234, stepMs: 3_600_000, topLimit };
        expect(await store().overview(o)).toEqual(await want.overview(o));
      }
      const got = await store().properties(q);
      const expected = await want.properties(q);
      expect({ ...got, keys: byKey(got.keys) }).toEqual({
        ...expected,
        keys: byKey(expected.keys),
      });
      // The unreadable properties (NUL, lone surrogate) are among the rows counted, and a key
      // stored escaped (U+E000) reads back as sent.
      expect(got.keys.some((k) => k.key === 'k\u0000')).toBe(true);
      expect(got.keys.some((k) => k.key === 'k\ue000')).toBe(true);
    }
  });

  it('lists newest first across projects, with filters and a cursor, as SQLite does', async () => {
    const want = sqliteActions(sqlite);
    const base: ActionListQuery = {
      projectIds: [PROJECT, OTHER],
      name: null,
      serviceName: null,
      release: null,
      environment: null,
      distinctId: null,
      since: null,
      after: null,
      limit: 50,
    };
    const queries: ActionListQuery[] = [
      base,
      { ...base, projectIds: [OTHER], since: T0 + DAY },
      { ...base, name: 'Zoë', environment: 'staging', limit: 7 },
      { ...base, name: 'nul\u0000name', limit: 5 },
      { ...base, distinctId: 'u1', serviceName: 'ios', release: 'r1' },
    ];
    for (const q of queries) {
      // Page through to the end: every cursor position, ties in time decided by id.
      let after: ActionListQuery['after'] = null;
      for (let page = 0; page < 200; page++) {
        const got = await store().list({ ...q, after });
        expect(got).toEqual(await want.list({ ...q, after }));
        const last = got[got.length - 1];
        if (!last || got.length < q.limit) break;
        after = { time: last.occurredAt, id: last.id };
      }
    }
  });
});
