import { useEffect, useRef } from 'react';
import type { LiveEntry } from './live-events';
import type { LiveEvent } from './live-message';
import { useLiveStore } from './live-store';

/** How long after a matching event the refresh runs, so a burst of events reads once. */
export const LIVE_REFRESH_DELAY_MS = 1_000;
/** At most one refresh this often under a steady stream of events. */
export const LIVE_REFRESH_MIN_INTERVAL_MS = 5_000;

/**
 * The events that arrived in `next` (not in `previous`): an arrival is an unseen entry that was
 * not there before (marking events seen also makes new entries, but seen ones).
 */
export function arrivals(
  previous: ReadonlyMap<string, LiveEntry>,
  next: ReadonlyMap<string, LiveEntry>,
): LiveEntry[] {
  if (previous === next) return [];
  const out: LiveEntry[] = [];
  for (const [key, entry] of next) {
    if (!entry.seen && previous.get(key) !== entry) out.push(entry);
  }
  return out;
}

/**
 * Re-reads what the live feed cannot carry: figures worked out from many records (release
 * rows; spec: "Metrics and releases are not live event types; they are read from list
 * routes"). When an event that `matches` arrives, `refresh` runs after a short pause, at most
 * once per interval; the latest `matches` and `refresh` are used.
 */
export function useLiveRefresh(matches: (event: LiveEvent) => boolean, refresh: () => void): void {
  const latest = useRef({ matches, refresh });
  useEffect(() => {
    latest.current = { matches, refresh };
  });

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastRun = 0;
    const run = () => {
      timer = null;
      lastRun = Date.now();
      latest.current.refresh();
    };
    const unsubscribe = useLiveStore.subscribe((state, previous) => {
      if (timer !== null || state.entries === previous.entries) return;
      if (!arrivals(previous.entries, state.entries).some((e) => latest.current.matches(e))) return;
      const wait = Math.max(
        LIVE_REFRESH_DELAY_MS,
        lastRun + LIVE_REFRESH_MIN_INTERVAL_MS - Date.now(),
      );
      timer = setTimeout(run, wait);
    });
    return () => {
      unsubscribe();
      if (timer !== null) clearTimeout(timer);
    };
  }, []);
}
