import { raw } from '../../rows/sql';
import { AcceptedIdFilter, LEDGER_HASHES, addLedgerHashes } from './accepted-id-filter';
import type { ChDb } from './clickhouse-db';

/**
 * The id ledger's filter (accepted-id-filter.ts) of a database on the engine in this process,
 * or null on a ClickHouse server (other instances write its ledger too: every id is looked up).
 *
 * The embedded engine's files belong to this process (embedded-engine.ts), so the writers of
 * its ledger are the telemetry writes of this process: each service's, and in tests several
 * services on one database. They share one filter per database, built from the ledger when
 * the first opens and dropped when the last handle using it closes, so a database written
 * while no service held it (a restore, a migration) is read again at the next open.
 */
export async function ledgerFilter(db: ChDb): Promise<AcceptedIdFilter | null> {
  const key = db.embeddedKey;
  if (key === null) return null;
  const shared = registry();
  let entry = shared.get(key);
  if (!entry) {
    const created: Entry = { users: 0, filter: loadLedgerFilter(db) };
    entry = created;
    shared.set(key, created);
    // A load that fails is not kept: the next open reads the ledger again.
    created.filter.catch(() => {
      if (shared.get(key) === created) shared.delete(key);
    });
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

/**
 * A filter holding every key of the ledger, sized for half as many keys again (at least a
 * minimum; it grows past that): ClickHouse hashes each key, 8 bytes a row reach this process.
 */
export async function loadLedgerFilter(db: ChDb): Promise<AcceptedIdFilter> {
  const counted = await db.one<{ n: number }>(
    raw('SELECT toUInt64(count()) AS n FROM accepted_ids'),
  );
  const n = counted?.n ?? 0;
  const filter = new AcceptedIdFilter(n + Math.max(n / 2, MIN_HEADROOM));
  addLedgerHashes(filter, await db.bytes(raw(LEDGER_HASHES)));
  return filter;
}

/** Keys a filter takes before it grows, beyond the ledger's: 4 MB. */
const MIN_HEADROOM = 1_000_000;

type Entry = { users: number; filter: Promise<AcceptedIdFilter> };

// On globalThis, as the embedded engine's holder: test runners evaluate modules again for each
// file, while the engine (and the services sharing a database on it) stay in the process.
const KEY = Symbol.for('lookout.ledger-filters');
const registry = (): Map<string, Entry> => {
  const g = globalThis as { [KEY]?: Map<string, Entry> };
  g[KEY] ??= new Map();
  return g[KEY];
};
