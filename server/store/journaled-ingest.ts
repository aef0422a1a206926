import { randomUUID } from 'node:crypto';
import type { Batch, IssueEvent } from '../core/batch';
import type { Logger } from '../core/logger';
import type {
  IngestCommitStore,
  ItemsElsewhere,
  KindElsewhere,
} from '../core/store/state/ingest-commits';
import type { AcceptResult, IngestStore, QuotaContext } from '../core/store/telemetry/ingest';
import type {
  BatchWrite,
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
 * Group commit: requests of one project that arrive while its previous group is being written
 * wait, then go through 1 to 4 together as the next group: one id lookup, one insert per table
 * (ClickHouse makes a part per insert and table, and merges them again: fewer, larger parts
 * cost much less CPU per item), each request's own journal entry and commit, each answered
 * when its own commit is done. Rows keep their own batch's id, so recovery and take-back stay
 * per batch, and the group's insert token is derived from its batches' ids (a retried write
 * adds nothing). Groups of one project are written one after another in this process, and a
 * request carrying an id of an earlier request of the group waits for the next group, so two
 * requests never both find an id new, nor both choose a new group for one fingerprint (a
 * fingerprint new to several requests of a group gets one new group id). Several instances on
 * one state store (PostgreSQL) also take the state store's lock per project across them
 * (`exclusive`) for each group, from 1 to 4, and `recover` takes it for each unfinished batch,
 * so a starting instance never removes what another is still writing.
 */
export function journaledIngest(
  state: IngestCommitStore,
  telemetry: TelemetryWrites,
  kinds: readonly KindElsewhere[],
  log?: Pick<Logger, 'error'>,
): IngestStore & { recover(): Promise<Recovered>; arriving(projectId: string): () => void } {
  /** Requests waiting for their project's next group, in order of arrival. */
  const waiting = new Map<string, Waiting[]>();
  /** Projects whose groups are being written (one group of a project at a time). */
  const writing = new Set<string>();
  /** Batches whose rows are written but could not be removed yet: their ids do not count. */
  const undone = new Set<string>();
  /**
   * Per project, requests being read whose batch has not arrived yet (`arriving`), oldest
   * first. A batch that arrives takes the oldest off (requests are only counted, not matched).
   */
  const expected = new Map<string, Set<{ over: boolean }>>();
  /** Per project, a group waiting for those: called when one arrives or gives up. */
  const wake = new Map<string, () => void>();
  const expectedCount = (projectId: string) => expected.get(projectId)?.size ?? 0;

  function arriving(projectId: string): () => void {
    const request = { over: false };
    const set = expected.get(projectId) ?? new Set();
    set.add(request);
    expected.set(projectId, set);
    return () => {
      if (!request.over) over(projectId, request);
    };
  }

  /** An expected request is here (or gave up): a lingering group looks again. */
  function over(projectId: string, request?: { over: boolean }): void {
    const set = expected.get(projectId);
    const oldest = request ?? set?.values().next().value;
    if (!set || !oldest) return;
    oldest.over = true;
    set.delete(oldest);
    if (set.size === 0) expected.delete(projectId);
    wake.get(projectId)?.();
  }

  /**
   * Before a group is taken: while requests of the project are being read (and the group has
   * room), waits for them, at most LINGER_MS. Two senders so end up written together, each
   * request's wait bounded by about the time it takes to read one.
   */
  async function linger(projectId: string, queue: Waiting[]): Promise<void> {
    const room = () => queue.reduce((n, w) => n + w.keys.size, 0) < MAX_GROUP_ITEMS;
    if (!room()) return;
    // Requests that reached the service while this one's batch was parsed (a long task of
    // the main thread) announce themselves only once the event loop polls again: the first
    // turn ends before that poll, the second after it.
    for (let turn = 0; turn < 2; turn++) await new Promise<void>((r) => setImmediate(r));
    if (expectedCount(projectId) === 0 || !room()) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, LINGER_MS);
      function done() {
        clearTimeout(timer);
        wake.delete(projectId);
        resolve();
      }
      wake.set(projectId, () => {
        if (expectedCount(projectId) === 0 || !room()) done();
      });
    });
  }

  function enqueue(w: Omit<Waiting, 'keys' | 'candidates'>): void {
    const p = w.batch.projectId;
    const candidates = candidatesOf(w.batch, kinds);
    const queue = waiting.get(p) ?? [];
    queue.push({ ...w, candidates, keys: keysOf(candidates) });
    waiting.set(p, queue);
    // The batch of one of the requests announced (any: they are only counted).
    over(p);
    if (!writing.has(p)) void drain(p);
  }

  /** Writes the project's waiting requests group after group until none waits. */
  async function drain(projectId: string): Promise<void> {
    writing.add(projectId);
    try {
      for (;;) {
        const queue = waiting.get(projectId);
        if (!queue || queue.length === 0) break;
        await linger(projectId, queue);
        const group = nextGroup(queue);
        if (queue.length === 0) waiting.delete(projectId);
        // On a shared state store the group runs under the project's lock across instances;
        // a lock that cannot be had refuses the whole group (each request answered once).
        const run = () => acceptGroup(projectId, group);
        await (state.exclusive ? state.exclusive(projectId, run) : run()).catch((e: unknown) => {
          for (const w of group) w.reject(e);
        });
      }
    } finally {
      writing.delete(projectId);
    }
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

  /**
   * Steps 1 to 4 for a group of the project's requests: one id lookup, one insert per table,
   * then each request's own commit, each answered once its commit is done (or failed).
   */
  async function acceptGroup(p: string, group: Waiting[]): Promise<void> {
    const settled = new Set<Waiting>();
    const answer = (w: Waiting, r: { ok: AcceptResult } | { error: unknown }) => {
      if (settled.has(w)) return;
      settled.add(w);
      if ('ok' in r) w.resolve(r.ok);
      else w.reject(r.error);
    };
    try {
      if (undone.size > 0) await takeBack([...undone]);
      const wanted = { ...NO_IDS };
      for (const kind of kinds)
        wanted[LEDGER_KIND[kind]] = group.flatMap((w) =>
          (w.candidates[kind] ?? []).map((i) => i.id),
        );
      const found = Object.values(wanted).some((ids) => ids.length > 0)
        ? await telemetry.storedIds(p, wanted, undone)
        : NO_IDS;
      const elsewheres = await grouped(
        p,
        group.map((w) => newOnly(w.candidates, found)),
      );
      const writes: { w: Waiting; elsewhere: ItemsElsewhere; write: BatchWrite }[] = [];
      for (const [k, w] of group.entries()) {
        const elsewhere = elsewheres[k] ?? {};
        try {
          if (countOf(elsewhere) === 0) {
            const { batch, receivedAt, quota } = w;
            answer(w, {
              ok: await state.commit({ batchId: null, batch, receivedAt, quota, elsewhere }),
            });
            continue;
          }
          const issues = elsewhere.issues ?? [];
          const items = {
            ...NO_ITEMS,
            ...elsewhere,
            issues,
            issueGroups: issues.map((i) => i.groupId),
          };
          // An early no for items over quota, before writing what would be taken back; the
          // commit decides exactly (with the other kinds, and other projects of the account
          // meanwhile).
          const exceeded = await state.quotaExceeded(w.quota, usageAdded(storedItems(items)));
          if (exceeded) throw new QuotaExceededError(exceeded);
          const batchId = randomUUID();
          await state.begin({ batchId, projectId: p, startedAt: w.receivedAt });
          writes.push({
            w,
            elsewhere,
            write: {
              batchId,
              projectId: p,
              receivedAt: w.receivedAt,
              retentionDays: w.quota.retentionDays ?? DEFAULT_RETENTION_DAYS,
              items,
            },
          });
        } catch (e) {
          answer(w, { error: e });
        }
      }
      if (writes.length === 0) return;
      try {
        await telemetry.writeGroup(writes.map((x) => x.write));
      } catch (e) {
        await takeBack(writes.map((x) => x.write.batchId));
        throw e;
      }
      for (const { w, elsewhere, write } of writes) {
        const { batchId } = write;
        try {
          const { batch, receivedAt, quota } = w;
          answer(w, { ok: await state.commit({ batchId, batch, receivedAt, quota, elsewhere }) });
        } catch (e) {
          // A commit whose answer was lost (a server's state store) may have happened: its
          // entry is ended then, and the batch is stored; it is not known which items were
          // new, so the client's retry tells it (all already accepted).
          if (e instanceof QuotaExceededError || (await isBegunOr(batchId, true)))
            await takeBack([batchId]);
          answer(w, { error: e });
        }
      }
    } catch (e) {
      for (const w of group) answer(w, { error: e });
    }
  }

  /**
   * Each new occurrence with its group's id: the existing group's, or a new one's, the same
   * new one for a fingerprint new to several requests of the group.
   */
  async function grouped(projectId: string, cs: Candidates[]): Promise<ItemsElsewhere[]> {
    const fingerprints = cs.flatMap((c) => (c.issues ?? []).map((i) => i.fingerprint));
    const ids = fingerprints.length > 0 ? await state.groupIds(projectId, fingerprints) : new Map();
    for (const f of fingerprints) if (!ids.has(f)) ids.set(f, randomUUID());
    return cs.map(({ issues, ...rest }) =>
      issues
        ? { ...rest, issues: issues.map((i) => ({ ...i, groupId: ids.get(i.fingerprint) ?? '' })) }
        : rest,
    );
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
    arriving,
    accept: (batch, receivedAt, quota) =>
      new Promise((resolve, reject) => enqueue({ batch, receivedAt, quota, resolve, reject })),
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

/** The most items a group holds (its inserts' size: a few MB of rows). */
const MAX_GROUP_ITEMS = 10_000;

/**
 * The longest a group waits for requests still being read: about the time one batch of 1,000
 * logs takes to parse on a busy machine, so a second sender's batch joins the first's.
 */
const LINGER_MS = 100;

/** A request waiting for its group. */
type Waiting = {
  batch: Batch;
  receivedAt: number;
  quota: QuotaContext;
  candidates: Candidates;
  /** Its candidates' ids by kind (`kind:id`). */
  keys: Set<string>;
  resolve(r: AcceptResult): void;
  reject(e: unknown): void;
};

/**
 * Takes the next group off the front of `queue`: requests in order of arrival, up to
 * MAX_GROUP_ITEMS items (at least one request), stopping before one that carries an id an
 * earlier one of the group carries: that one waits for the next group, whose lookup sees the
 * earlier one's ids stored (or taken back), so `already_accepted` stays exact.
 */
function nextGroup(queue: Waiting[]): Waiting[] {
  const group: Waiting[] = [];
  const keys = new Set<string>();
  let items = 0;
  for (const w of queue) {
    if (group.length > 0 && items + w.keys.size > MAX_GROUP_ITEMS) break;
    let clash = false;
    for (const k of w.keys) if (keys.has(k)) clash = true;
    if (clash) break;
    group.push(w);
    items += w.keys.size;
    for (const k of w.keys) keys.add(k);
  }
  queue.splice(0, group.length);
  return group;
}

function keysOf(c: Candidates): Set<string> {
  const out = new Set<string>();
  for (const kind of Object.keys(c) as KindElsewhere[])
    for (const i of c[kind] ?? []) out.add(`${kind}:${i.id}`);
  return out;
}

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
