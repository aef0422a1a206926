import { raw } from '../../rows/sql';
import { AcceptedIdFilter, LEDGER_HASHES, addLedgerHashes } from './accepted-id-filter';
import type { ChDb } from './clickhouse-db';

/**
 * The id ledger's filter (accepted-id-filter.ts) of a database on the engine in this process,
 * or null on a ClickHouse server (other instances write its ledger too: every id is looked up).
 *
 * The embedded engine's files belong to this process (embedded-engine.ts), so the writers of
 * its ledger are the telemetry writes of this process: each service's, and in tests several
 * services on one database. They share one filter per database, created when the first opens
 * and dropped when the last handle using it closes, so a database written while none held it
 * (a restore, a migration) is read again at the next open.
 *
 * The ledger's keys are added in the background (10M take seconds): writes add theirs from the
 * start, and the filter answers only once the ledger's are all in (`ready`); until then, or if
 * reading them failed, every id is looked up. Keys a write adds while the ledger is read are in
 * the filter whether or not the read saw their rows.
 */
export async function ledgerFilter(db: ChDb): Promise<LedgerFilter | null> {
  const key = db.embeddedKey;
  if (key === null) return null;
  const shared = registry();
  let entry = shared.get(key);
  if (!entry) {
    const created: Entry = { users: 0, filter: sizedFilter(db) };
    entry = created;
    shared.set(key, created);
    // Not kept when it cannot even be sized: the next open tries again.
    created.filter.catch(() => {
      if (shared.get(key) === created) shared.delete(key);
    });
    // A read that fails leaves it never ready: every id looked up. The handle reading closes
    // only once the read is over (a statement cut off by its session's end can kill the
    // process as it exits).
    const filling = created.filter
      .then(async (f) => {
        await fillFromLedger(db, f.filter);
        f.ready = true;
      })
      .catch(() => undefined);
    db.onClose(() => filling);
  }
  const held = entry;
  held.users += 1;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    held.users -= 1;
    if (held.users === 0 && shared.get(key) === held) shared.delete(key);
  };
  db.onClose(release);
  try {
    return await held.filter;
  } catch (e) {
    release();
    throw e;
  }
}

/** A database's shared filter; `ready` once it holds every key of the ledger. */
export type LedgerFilter = { filter: AcceptedIdFilter; ready: boolean };

/** An empty filter sized for the ledger and half as many keys again (it grows past that). */
async function sizedFilter(db: ChDb): Promise<LedgerFilter> {
  const counted = await db.one<{ n: number }>(
    raw('SELECT toUInt64(count()) AS n FROM accepted_ids'),
  );
  const n = counted?.n ?? 0;
  return { filter: new AcceptedIdFilter(n + Math.max(n / 2, MIN_HEADROOM)), ready: false };
}

/**
 * Adds every key of the ledger: ClickHouse hashes each, 8 bytes a row reach this process. The
 * rows are added a slice at a time, letting requests in between (10M rows take seconds).
 */
async function fillFromLedger(db: ChDb, filter: AcceptedIdFilter): Promise<void> {
  const rows = await db.bytes(raw(LEDGER_HASHES));
  for (let at = 0; at < rows.length; at += SLICE_BYTES) {
    addLedgerHashes(filter, rows.subarray(at, at + SLICE_BYTES));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Rows of the ledger added between two turns of the event loop: 128 Ki (a few ms). */
const SLICE_BYTES = 8 << 17;

/** A filter holding every key of the ledger (as the shared one once ready). */
export async function loadLedgerFilter(db: ChDb): Promise<AcceptedIdFilter> {
  const { filter } = await sizedFilter(db);
  await fillFromLedger(db, filter);
  return filter;
}

/** Keys a filter takes before it grows, beyond the ledger's: 4 MB. */
const MIN_HEADROOM = 1_000_000;

type Entry = { users: number; filter: Promise<LedgerFilter> };

// On globalThis, as the embedded engine's holder: test runners evaluate modules again for each
// file, while the engine (and the services sharing a database on it) stay in the process.
const KEY = Symbol.for('lookout.ledger-filters');
const registry = (): Map<string, Entry> => {
  const g = globalThis as { [KEY]?: Map<string, Entry> };
  g[KEY] ??= new Map();
  return g[KEY];
};
