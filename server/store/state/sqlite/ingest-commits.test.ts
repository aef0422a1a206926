import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../sqlite/database';
import { LEDGER_KEEP_MS, sqliteIngestCommits } from './ingest-commits';

/**
 * The journal as the ledger of committed batches a restore checks a newer telemetry copy
 * against (store/backup/backup-store.ts): committed entries stay an hour, then go oldest first
 * while `complete_since` moves up, so the ledger always names every batch begun since then
 * and committed; begun entries are never pruned (the start-up check takes them back).
 */

const HOUR = 60 * 60 * 1000;
let db: Db | null = null;
let dir = '';
afterEach(() => {
  db?.close();
  db = null;
  fs.rmSync(dir, { recursive: true, force: true });
});

function journal(now: { t: number }) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-ledger-'));
  const d = openDatabase(dir);
  db = d;
  const commitMark = d.prepare('UPDATE ingest_journal SET committed_at = ? WHERE batch_id = ?');
  const commits = sqliteIngestCommits(
    d,
    (c) => {
      commitMark.run(now.t, c.batchId);
      return { issues: 0, logs: 0, trace_spans: 0, actions: 0, already_accepted: 0 } as never;
    },
    () => now.t,
  );
  const commit = (batchId: string) =>
    commits.commit({
      batchId,
      batch: {} as never,
      receivedAt: now.t,
      quota: {} as never,
      elsewhere: {},
    });
  return { d, commits, commit };
}

describe('the ingest journal kept as a ledger', () => {
  it('keeps committed batches an hour, moves complete_since as it prunes, never prunes begun ones', async () => {
    const now = { t: Date.now() + 2 * 24 * HOUR };
    const t0 = now.t;
    const { d, commits, commit } = journal(now);
    const b = (id: string) => `00000000-0000-4000-8000-00000000000${id}`;
    await commits.begin({ batchId: b('1'), projectId: 'p', startedAt: t0 });
    await commit(b('1'));
    await commits.begin({ batchId: b('2'), projectId: 'p', startedAt: t0 });
    // Committed: no longer begun or unfinished, but in the ledger.
    expect(await commits.isBegun(b('1'))).toBe(false);
    expect((await commits.unfinished()).map((e) => e.batchId)).toEqual([b('2')]);
    expect(await commits.committedAmong([b('1'), b('2'), b('3')])).toEqual(new Set([b('1')]));
    // `end` takes back a begun entry only (a committed batch's rows are not removed).
    await commits.end(b('1'));
    expect(await commits.committedAmong([b('1')])).toEqual(new Set([b('1')]));

    now.t = t0 + LEDGER_KEEP_MS + HOUR;
    await commits.begin({ batchId: b('3'), projectId: 'p', startedAt: now.t });
    await commit(b('3'));
    expect(await commits.committedAmong([b('1'), b('3')])).toEqual(new Set([b('3')]));
    expect((await commits.unfinished()).map((e) => e.batchId)).toEqual([b('2')]);

    // No check pending until a restore marks it; then it names how far back the ledger goes.
    expect(await commits.sweepPending()).toBeNull();
    d.exec('UPDATE ingest_ledger SET sweep_pending = 1');
    expect(await commits.sweepPending()).toEqual({ completeSince: t0 + HOUR });
    await commits.sweepDone();
    expect(await commits.sweepPending()).toBeNull();
  });
});
