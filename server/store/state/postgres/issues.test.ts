import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestSchema } from '../../../test-support/pg-test-schema';
import type { Sql } from '../../postgres/pg-database';
import { pgIssues } from './issues';
import { sql, raw } from '../../rows/sql';

const T0 = Date.parse('2025-03-03T09:00:00.000Z');
const PROJECT = 'p-1';
const ISSUES = Array.from({ length: 30 }, (_, i) => `issue-${String(i).padStart(2, '0')}`);

/** One project with issues (no occurrences: bulk changes only read and write `issues`). */
async function seed(tx: Sql): Promise<void> {
  await tx.run(sql`INSERT INTO accounts (id, email, password_hash, created_at)
    VALUES ('acc-a', 'a@example.test', 'x', 0), ('acc-b', 'b@example.test', 'x', 0)`);
  await tx.run(
    sql`INSERT INTO organizations (id, slug, name, created_at) VALUES ('o-1', 'o', 'O', 0)`,
  );
  await tx.run(sql`INSERT INTO projects (id, organization_id, slug, name, created_at)
    VALUES ('${raw(PROJECT)}', 'o-1', 'p', 'P', 0)`);
  await tx.run(sql`INSERT INTO issues (id, project_id, fingerprint, occurrence_count, first_seen_at,
       last_seen_at, latest_occurrence_seq)
     SELECT id, ${PROJECT}, id, 1, 0, 0, 0 FROM unnest(${ISSUES}::text[]) AS t(id)`);
}

describe.skipIf(!process.env.LOOKOUT_TEST_DATABASE_URL)('PostgreSQL issue changes', () => {
  let schema: Awaited<ReturnType<typeof openTestSchema>>;
  beforeEach(async () => {
    schema = await openTestSchema();
    await seed(schema.instance());
  });
  afterEach(async () => {
    await schema.close();
  });

  it('bulk changes from two instances at once each apply whole, and every change is recorded once', async () => {
    const a = pgIssues(schema.instance());
    const b = pgIssues(schema.instance());
    const reversed = [...ISSUES].reverse();
    const statuses = ['resolved', 'archived', 'unresolved'] as const;
    // Overlapping ids in opposite orders, and the same target from both sides: without
    // locking in a stable order they deadlock, without locking at all both record a change.
    const runs = Array.from({ length: 12 }, (_, n) => {
      const store = n % 2 === 0 ? a : b;
      return store.change({
        projectId: PROJECT,
        issueIds: n % 2 === 0 ? ISSUES : reversed,
        status: statuses[Math.floor(n / 2) % statuses.length],
        actorId: n % 2 === 0 ? 'acc-a' : 'acc-b',
        at: T0 + n,
      });
    });
    const outcomes = await Promise.all(runs);
    // Each run is whole: all of its ids updated, or all unchanged.
    for (const o of outcomes) expect(new Set(o).size).toBe(1);
    const updated = outcomes.filter((o) => o[0] === 'updated').length;

    const db = schema.instance();
    const activity = await db.rows<{ issue_id: string; n: number }>(
      sql`SELECT issue_id, COUNT(*)::int AS n FROM issue_activity GROUP BY issue_id ORDER BY issue_id`,
    );
    expect(activity).toEqual(ISSUES.map((id) => ({ issue_id: id, n: updated })));
    // Replayed in order, every entry is a real transition and ends at the stored status: two
    // changes that both read the old status would record the same transition twice.
    const entries = await db.rows<{
      issue_id: string;
      value: string;
      status: string;
    }>(sql`SELECT x.issue_id, x.value, i.status FROM issue_activity x
       JOIN issues i ON i.id = x.issue_id ORDER BY x.issue_id, x.seq`);
    const replayed = new Map<string, string>();
    for (const e of entries) {
      expect(e.value, e.issue_id).not.toBe(replayed.get(e.issue_id) ?? 'unresolved');
      replayed.set(e.issue_id, e.value);
    }
    for (const e of entries) expect(replayed.get(e.issue_id)).toBe(e.status);
  });

  it('a repeated id in one change sees the change already made to it', async () => {
    const store = pgIssues(schema.instance());
    const [first, second] = ISSUES;
    const outcomes = await store.change({
      projectId: PROJECT,
      issueIds: [first ?? '', second ?? '', first ?? '', 'missing'],
      status: 'resolved',
      actorId: 'acc-a',
      at: T0,
    });
    expect(outcomes).toEqual(['updated', 'updated', 'unchanged', 'not_found']);
  });

  it('of the same severity rule set from two instances at once, one changes it and records it', async () => {
    const stores = [pgIssues(schema.instance()), pgIssues(schema.instance())];
    const issueId = ISSUES[0] ?? '';
    const changed = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        stores[n % 2]?.setRule({
          projectId: PROJECT,
          issueId,
          severity: 'critical',
          actorId: n % 2 === 0 ? 'acc-a' : 'acc-b',
          at: T0 + n,
        }),
      ),
    );
    expect(changed.filter((c) => c === true)).toHaveLength(1);
    const entries = await schema
      .instance()
      .rows<{ n: number }>(
        sql`SELECT COUNT(*)::int AS n FROM issue_activity WHERE type = 'severity_rule' AND issue_id = ${issueId}`,
      );
    expect(entries[0]?.n).toBe(1);
  });
});
