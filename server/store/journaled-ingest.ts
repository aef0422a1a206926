import { randomUUID } from 'node:crypto';
import type { Batch, IssueEvent } from '../core/batch';
import type { Logger } from '../core/logger';
import type {
  IngestCommitStore,
  ItemsElsewhere,
  KindElsewhere,
} from '../core/store/state/ingest-commits';
import type { AcceptResult, IngestStore } from '../core/store/telemetry/ingest';
import type {
  IdsByKind,
  ItemKind,
  TelemetryWrites,
} from '../core/store/telemetry/telemetry-writes';
import { QuotaExceededError } from '../core/store/telemetry/ingest';
import { storedItems, usageAdded } from './rows/accepted-items';

/** Retention recorded when the caller names none (the longest plan's). */
const DEFAULT_RETENTION_DAYS = 90;

/**
 * Ingest across two stores (state, with the kinds it still keeps, beside the `kinds` kept in
 * ClickHouse) that loses no acknowledged item and stores none twice, whatever moment a crash
 * (`kill -9`) picks:
 *
 * 1. the batch's ids of those kinds are looked up in ClickHouse's id ledger: those found are
 *    already accepted; each new occurrence is given its issue group's id (the group found by
 *    fingerprint in the state store, or a new id for the group the commit will create);
 * 2. the state store journals the batch (`begin`), before any ClickHouse row exists;
 * 3. the new items go to ClickHouse, every row carrying the batch id, each table's insert
 *    with a deduplication token derived from it (a transport retry adds nothing);
 * 4. one state transaction stores the other kinds, checks the quota exactly, counts usage and
 *    rollups, grows the issue groups (keeping each group's first and latest occurrence for the
 *    issue reads) and marks the journal entry committed (`commit`; it stays an hour as the
 *    ledger a restore checks, see store/backup/backup-store.ts); only then is the batch
 *    acknowledged (and published to the live feed).
 *
 * A crash before 4 leaves the entry begun: on start (`recover`) the batch's ClickHouse rows
 * are removed and the entry ended, so the unacknowledged batch left nothing and its re-send
 * is stored whole. A crash after 4 leaves it committed: its re-send is all already accepted.
 * A failure at 3 or 4 in a running service takes the rows back the same way at once.
 *
 * Batches of one project are written one after another in this process, so two of them never
 * both find an id new, nor both choose a new group for one fingerprint. Several instances on
 * one state store (PostgreSQL) also take the state store's lock per project across them
 * (`exclusive`) from 1 to 4, and `recover` takes it for each unfinished batch, so a starting
 * instance never removes what another is still writing.
 */
export function journaledIngest(
  state: IngestCommitStore,
  telemetry: TelemetryWrites,
  kinds: readonly KindElsewhere[],
  log?: Pick<Logger, 'error'>,
): IngestStore & { recover(): Promise<Recovered> } {
  const queues = new Map<string, Promise<unknown>>();
  /** Batches whose rows are written but could not be removed yet: their ids do not count. */
  const undone = new Set<string>();

  /** Runs `fn` after every earlier call for the same project has settled. */
  function serialized<T>(projectId: string, fn: () => Promise<T>): Promise<T> {
    const before = queues.get(projectId) ?? Promise.resolve();
    const turn = () => (state.exclusive ? state.exclusive(projectId, fn) : fn());
    const run = before.then(turn, turn);
    const tail = run.catch(() => undefined);
    queues.set(projectId, tail);
    void tail.then(() => {
      if (queues.get(projectId) === tail) queues.delete(projectId);
    });
    return run;
  }

  /** Removes batches' rows, then their journal entries; on failure they stay for later. */
  async function takeBack(batchIds: string[]): Promise<void> {
    if (batchIds.length === 0) return;
    for (const id of batchIds) undone.add(id);
    try {
      await telemetry.remove(batchIds);
      for (const id of batchIds) {
        await state.end(id);
        undone.delete(id);
      }
    } catch (e) {
      log?.error(`ingest: could not remove unacknowledged batches yet (${String(e)})`);
    }
  }

  async function accept(
    batch: Batch,
    receivedAt: number,
    quota: Parameters<IngestStore['accept']>[2],
  ): Promise<AcceptResult> {
    if (undone.size > 0) await takeBack([...undone]);
    const p = batch.projectId;
    const candidates = candidatesOf(batch, kinds);
    const wanted = { ...NO_IDS };
    for (const kind of kinds) wanted[LEDGER_KIND[kind]] = (candidates[kind] ?? []).map((i) => i.id);
    const found = Object.values(wanted).some((ids) => ids.length > 0)
      ? await telemetry.storedIds(p, wanted, undone)
      : NO_IDS;
    const elsewhere = await grouped(p, newOnly(candidates, found));
    const issues = elsewhere.issues ?? [];
    const items = {
      ...NO_ITEMS,
      ...elsewhere,
      issues,
      issueGroups: issues.map((i) => i.groupId),
    };
    if (countOf(elsewhere) === 0)
      return state.commit({ batchId: null, batch, receivedAt, quota, elsewhere });

    // An early no for items over quota, before writing what would be taken back; the commit
    // decides exactly (with the other kinds, and other projects of the account meanwhile).
    const exceeded = await state.quotaExceeded(quota, usageAdded(storedItems(items)));
    if (exceeded) throw new QuotaExceededError(exceeded);

    const batchId = randomUUID();
    await state.begin({ batchId, projectId: p, startedAt: receivedAt });
    try {
      await telemetry.write({
        batchId,
        projectId: p,
        receivedAt,
        retentionDays: quota.retentionDays ?? DEFAULT_RETENTION_DAYS,
        items,
      });
    } catch (e) {
      await takeBack([batchId]);
      throw e;
    }
    try {
      return await state.commit({ batchId, batch, receivedAt, quota, elsewhere });
    } catch (e) {
      // A commit whose answer was lost (a server's state store) may have happened: its entry
      // is ended then, and the batch is stored; it is not known which items were new, so the
      // client's retry tells it (all already accepted).
      if (!(e instanceof QuotaExceededError) && !(await isBegunOr(batchId, true))) throw e;
      await takeBack([batchId]);
      throw e;
    }
  }

  /** Each new occurrence with its group's id: the existing group's, or a new one's. */
  async function grouped(projectId: string, c: Candidates): Promise<ItemsElsewhere> {
    const { issues, ...rest } = c;
    if (!issues) return rest;
    const ids = await state.groupIds(
      projectId,
      issues.map((i) => i.fingerprint),
    );
    for (const i of issues) if (!ids.has(i.fingerprint)) ids.set(i.fingerprint, randomUUID());
    return {
      ...rest,
      issues: issues.map((i) => ({ ...i, groupId: ids.get(i.fingerprint) ?? '' })),
    };
  }

  /**
   * A restored pair: the telemetry copy was taken after the state copy, so it may hold rows of
   * batches committed (or begun) only after the state copy. Those are in neither the restored
   * journal's unfinished entries (which `recover` takes back) nor its committed ones, and left
   * alone their ids would answer "already accepted" while no usage counts them. The journal
   * keeps committed entries for an hour (`ingest_ledger.complete_since`: complete since then), so
   * every batch with rows received since then that the restored state has not committed is
   * removed. Rows received before are of batches committed long before the copy.
   */
  async function sweepAfterRestore(): Promise<number> {
    const pending = await state.sweepPending();
    if (!pending) return 0;
    const candidates = await telemetry.batchesSince(pending.completeSince);
    const committed = await state.committedAmong(candidates);
    const orphans = candidates.filter((b) => !committed.has(b));
    await takeBack(orphans);
    if (undone.size > 0) throw new Error('could not remove the telemetry of uncommitted batches');
    await state.sweepDone();
    return orphans.length;
  }

  async function isBegunOr(batchId: string, fallback: boolean): Promise<boolean> {
    try {
      return await state.isBegun(batchId);
    } catch {
      return fallback;
    }
  }

  return {
    accept: (batch, receivedAt, quota) =>
      serialized(batch.projectId, () => accept(batch, receivedAt, quota)),
    /**
     * Removes what batches begun before a crash wrote, and after a restore what batches the
     * restored state never committed wrote (see below); how many of each there were.
     */
    async recover() {
      const entries = await state.unfinished();
      let unfinished = entries.length;
      const { exclusive } = state;
      if (exclusive) {
        unfinished = 0;
        // Another instance may still be writing one: each is taken back under its project's
        // lock, once that instance is done with it, if it is still unfinished then.
        for (const e of entries)
          await exclusive(e.projectId, async () => {
            if (!(await state.isBegun(e.batchId))) return;
            unfinished += 1;
            await takeBack([e.batchId]);
          });
      } else await takeBack(entries.map((e) => e.batchId));
      if (undone.size > 0) throw new Error('could not remove the telemetry of unfinished batches');
      const uncommitted = await sweepAfterRestore();
      return { unfinished, uncommitted };
    },
  };
}

/** Batches `recover` took back: begun before a crash, and (after a restore) never committed. */
export type Recovered = { unfinished: number; uncommitted: number };

const NO_IDS: IdsByKind = { issue: [], log: [], span: [], action: [], metric: [] };
const NO_ITEMS = { issues: [], logs: [], spans: [], actions: [], metrics: [] };

const LEDGER_KIND = {
  issues: 'issue',
  logs: 'log',
  spans: 'span',
  actions: 'action',
  metrics: 'metric',
} as const satisfies Record<KindElsewhere, ItemKind>;

/** The items of the kinds kept elsewhere, occurrences before they are given their groups. */
type Candidates = Omit<ItemsElsewhere, 'issues'> & { issues?: IssueEvent[] };

/** The batch's items of the kinds kept elsewhere, each id once. */
function candidatesOf(batch: Batch, kinds: readonly KindElsewhere[]): Candidates {
  const out: Candidates = {};
  for (const kind of kinds) assign(out, kind, firstOfEachId<{ id: string }>(batch[kind]));
  return out;
}

/** The candidates whose ids were not found stored. */
function newOnly(candidates: Candidates, found: IdsByKind): Candidates {
  const out: Candidates = {};
  for (const kind of Object.keys(candidates) as KindElsewhere[]) {
    const stored = new Set(found[LEDGER_KIND[kind]]);
    assign(
      out,
      kind,
      (candidates[kind] ?? []).filter((i) => !stored.has(i.id)),
    );
  }
  return out;
}

function assign<K extends KindElsewhere>(out: Candidates, kind: K, items: { id: string }[]): void {
  out[kind] = items as Candidates[K];
}

const countOf = (e: ItemsElsewhere) =>
  Object.values(e).reduce((n: number, items: unknown[]) => n + items.length, 0);

/**
 * Each id once (the first): a repeated id in one batch is accepted once and counted as
 * already accepted, as the stores with unique keys do.
 */
function firstOfEachId<T extends { id: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((i) => !seen.has(i.id) && seen.add(i.id) !== undefined);
}
