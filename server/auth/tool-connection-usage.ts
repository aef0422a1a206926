import type { Deps } from '../core/deps';
import type { ToolConnectionUses } from '../core/store/state/tool-connections';

const DAY = 86_400_000;
/** Uses are written at most once a minute per service instance, never once per request. */
export const FLUSH_EVERY_MS = 60_000;

export const epochDay = (ms: number): number => Math.floor(ms / DAY);

type Pending = Map<string, ToolConnectionUses>;
type Recorder = { pending: Pending; since: number | null; flushing: Promise<void> | null };

const recorders = new WeakMap<Deps, Recorder>();

function recorderOf(deps: Deps): Recorder {
  let r = recorders.get(deps);
  if (!r) {
    r = { pending: new Map(), since: null, flushing: null };
    recorders.set(deps, r);
  }
  return r;
}

/**
 * Counts one use of a connection in memory; the counts of a minute go to the store together
 * (one upsert per connection and day), started by the first use after the minute is up.
 */
export function recordToolConnectionUse(deps: Deps, connectionId: string): void {
  const now = deps.now();
  const r = recorderOf(deps);
  const day = epochDay(now);
  const key = `${connectionId}:${String(day)}`;
  const u = r.pending.get(key);
  if (u) {
    u.uses += 1;
    u.lastUsedAt = Math.max(u.lastUsedAt, now);
  } else r.pending.set(key, { id: connectionId, day, uses: 1, lastUsedAt: now });
  r.since ??= now;
  if (now - r.since >= FLUSH_EVERY_MS) {
    void flushToolConnectionUses(deps).catch((err: unknown) => {
      deps.log.error('tool connection uses not recorded', { error: String(err) });
    });
  }
}

/** Writes the pending counts now (the list route calls it so it shows every use so far). */
export async function flushToolConnectionUses(deps: Deps): Promise<void> {
  const r = recorderOf(deps);
  if (r.flushing) await r.flushing;
  if (r.pending.size === 0) return;
  const batch = [...r.pending.values()];
  r.pending = new Map();
  r.since = null;
  r.flushing = deps.store.toolConnections.recordUses(batch).finally(() => {
    r.flushing = null;
  });
  await r.flushing;
}
