import { sessionLocks, type SessionLocks } from './postgres/session-locks';

/**
 * Which ClickHouse keeps the telemetry of the PostgreSQL state at a `DATABASE_URL`, held for
 * as long as a store is open on it. The embedded engine's files belong to one process: another
 * process on the database would keep telemetry the others never see, and take back batches
 * whose rows it cannot remove. So a process with the embedded engine holds the database alone
 * (services within that process share the engine, and the hold); processes on a ClickHouse
 * server share it with each other, never with one on its own engine.
 */
export async function holdTelemetryOwner(
  url: string,
  schema: string,
  embedded: boolean,
): Promise<() => Promise<void>> {
  if (!embedded) return take(url, schema, 'shared');
  const h = holders();
  const held = h.get(url);
  if (held) {
    held.users += 1;
    try {
      await held.release;
    } catch (e) {
      held.users -= 1;
      throw e;
    }
    return once(() => leave(url));
  }
  const release = take(url, schema, 'exclusive');
  // Services of this process starting together wait for the first one's hold.
  const entry = { users: 1, release };
  h.set(url, entry);
  try {
    await release;
  } catch (e) {
    h.delete(url);
    throw e;
  }
  return once(() => leave(url));
}

async function take(
  url: string,
  schema: string,
  mode: 'exclusive' | 'shared',
): Promise<() => Promise<void>> {
  const locks: SessionLocks = sessionLocks(url, 1);
  let taken: boolean;
  try {
    // Advisory locks are the database's: the schema tells apart stores sharing one.
    taken = await locks.hold(`clickhouse-telemetry:${schema}`, mode);
  } catch (e) {
    await locks.close();
    throw e;
  }
  if (!taken) {
    await locks.close();
    throw new Error(
      mode === 'exclusive'
        ? 'another instance already uses this DATABASE_URL; instances sharing one PostgreSQL state need one ClickHouse server for telemetry (set the same CLICKHOUSE_URL on every instance)'
        : 'an instance with its own embedded ClickHouse engine uses this DATABASE_URL; stop it, or give every instance the same CLICKHOUSE_URL',
    );
  }
  return once(() => locks.close());
}

async function leave(url: string): Promise<void> {
  const h = holders();
  const held = h.get(url);
  if (!held || --held.users > 0) return;
  h.delete(url);
  await (
    await held.release
  )();
}

type Holder = { users: number; release: Promise<() => Promise<void>> };

// On globalThis, as the embedded engine's own holder: test runners evaluate modules again for
// each file, while the process (and its engine) stays.
const KEY = Symbol.for('lookout.clickhouse-telemetry-owner');
function holders(): Map<string, Holder> {
  const g = globalThis as { [KEY]?: Map<string, Holder> };
  g[KEY] ??= new Map();
  return g[KEY];
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => (done ??= fn());
}
