import { useMemo } from 'react';
import type { Log } from '../../api/queries/logs';
import { useLiveEvents } from '../../live/live-store';
import { liveLogOf, matchesTail, type TailFilter } from './live-logs';

/**
 * Live logs of the feed that belong to the list on screen, newest first; none while `tail`
 * is null (the range is closed or the list is not shown).
 */
export function useLiveLogs(tail: TailFilter | null): Log[] {
  const entries = useLiveEvents({ type: 'native_log', projectIds: tail?.projectIds ?? null });
  return useMemo(() => {
    if (tail === null) return [];
    const out: Log[] = [];
    for (const entry of entries) {
      const log = liveLogOf(entry.data);
      if (log !== null && matchesTail(log, tail)) out.push(log);
    }
    return out;
  }, [entries, tail]);
}
