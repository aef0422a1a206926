import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FILTERED,
  itAnswersAsTheDomainFunctions,
  openDatabaseWithRows,
} from '../action-analytics-cases';
import type { Db } from '../../store/sqlite/database';
import type { ActionFilteredRange } from '../../core/store/telemetry/actions';
import { sqliteActions } from './actions';

/**
 * The analytics reads (unit-ordered indexes, JavaScript aggregates) answer exactly what the
 * domain functions and plain SQL answer over the same actions (see action-analytics-cases.ts).
 */
let dir: string;
let db: Db;
const store = () => sqliteActions(db);

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-action-analytics-'));
  db = openDatabaseWithRows(dir);
});

afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('analytics reads', () => {
  itAnswersAsTheDomainFunctions(store);

  it('answer segments, the overview and properties as plain SQL over the rows does', async () => {
    const plain = (sql: string, q: ActionFilteredRange, before: number[] = []) => {
      const where = ['project_id = ?', 'occurred_at >= ?', 'occurred_at < ?'];
      const args: (string | number)[] = [q.projectId, q.from, q.to];
      for (const [column, value] of [
        ['environment', q.environment],
        ['service_name', q.serviceName],
        ['release', q.release],
      ] as const)
        if (value !== null) {
          where.push(`${column} = ?`);
          args.push(value);
        }
      return db
        .prepare<unknown[], Record<string, unknown>>(sql.replaceAll('$WHERE', where.join(' AND ')))
        .all(...before, ...args);
    };
    for (const q of FILTERED) {
      for (const unit of ['session_id', 'distinct_id'] as const) {
        const all = await store().segment({ ...q, unit, match: null, topLimit: 3 });
        const [totals] = plain(
          `SELECT COUNT(*) AS events, SUM(${unit} IS NOT NULL) AS unitIdentified,
             COUNT(DISTINCT ${unit}) AS units FROM actions WHERE $WHERE`,
          q,
        ) as { events: number; unitIdentified: number; units: number }[];
        expect(all).toEqual({
          all: totals?.events,
          ...totals,
          top: plain(
            `SELECT name, kind, COUNT(*) AS events, COUNT(DISTINCT ${unit}) AS units
             FROM actions WHERE $WHERE GROUP BY name, kind ORDER BY events DESC, name, kind LIMIT 3`,
            q,
          ),
        });
        const match = { kind: 'page_view', name: 'Home' };
        const one = await store().segment({ ...q, unit, match, topLimit: 0 });
        const [matched] = plain(
          `SELECT COUNT(*) AS events, SUM(${unit} IS NOT NULL) AS unitIdentified,
             COUNT(DISTINCT ${unit}) AS units FROM actions
           WHERE $WHERE AND kind = 'page_view' AND name = 'Home'`,
          q,
        ) as { events: number; unitIdentified: number; units: number }[];
        expect(one).toEqual({ all: totals?.events, ...matched, top: [] });
      }

      const overview = await store().overview({
        ...q,
        bucketFrom: q.from - 1234,
        stepMs: 3_600_000,
        topLimit: 4,
      });
      expect(overview).toEqual({
        totals: plain(
          `SELECT COUNT(*) AS events,
             COALESCE(SUM(trim(name, ' ' || char(9, 10, 13)) <> ''), 0) AS named,
             COALESCE(SUM(session_id IS NOT NULL), 0) AS withSession,
             COUNT(DISTINCT distinct_id) AS users, COUNT(DISTINCT session_id) AS sessions
           FROM actions WHERE $WHERE`,
          q,
        )[0],
        buckets: plain(
          `SELECT CAST((occurred_at - ?) / ? AS INTEGER) AS bucket, COUNT(*) AS events
           FROM actions WHERE $WHERE GROUP BY bucket ORDER BY bucket`,
          q,
          [q.from - 1234, 3_600_000],
        ),
        top: plain(
          `SELECT name, kind, COUNT(*) AS events, COUNT(DISTINCT distinct_id) AS users,
             COUNT(DISTINCT session_id) AS sessions
           FROM actions WHERE $WHERE GROUP BY name, kind
           ORDER BY events DESC, name, kind LIMIT 4`,
          q,
        ),
        actionCount: plain(`SELECT 1 FROM actions WHERE $WHERE GROUP BY name, kind`, q).length,
      });

      const props = await store().properties(q);
      expect({
        ...props,
        keys: [...props.keys].sort((a, b) => (a.key + a.type < b.key + b.type ? -1 : 1)),
      }).toEqual({
        ...(plain(
          `SELECT COUNT(*) AS events, COALESCE(SUM(properties <> '{}'), 0) AS withProperties
           FROM actions WHERE $WHERE`,
          q,
        )[0] ?? {}),
        keys: plain(
          `SELECT p.key AS key, p.type AS type, COUNT(*) AS events
           FROM actions, json_each(actions.properties) p WHERE $WHERE GROUP BY p.key, p.type`,
          q,
        ).sort((a, b) =>
          String(a.key) + String(a.type) < String(b.key) + String(b.type) ? -1 : 1,
        ),
      });
    }
  });
});
