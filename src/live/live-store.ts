import { useMemo } from 'react';
import { create } from 'zustand';
import { useStableValue } from '../lib/use-stable-value';
import {
  countUnseen,
  emptyLiveEvents,
  markSeen,
  mergeEvents,
  selectEvents,
  type EventFilter,
  type LiveEntry,
  type LiveEvents,
  type ProjectFilter,
} from './live-events';
import type { LiveEvent } from './live-message';

/**
 * The live feed of this tab: the connection's state and the recent events it delivered.
 * Actions are named after what happened; the transforms are the pure functions of
 * `live-events.ts`. Everything received is kept (a ticket does not select a project);
 * views filter by `project_id` through the selectors.
 */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'paused' | 'stopped';

export type LiveState = LiveEvents & {
  status: LiveStatus;
  /** When the next attempt starts (epoch ms), while waiting to reconnect; else null. */
  nextRetryAt: number | null;
  /** Successful reconnects after the first connection of this sign-in. */
  reconnects: number;
  /** Whether a connection has been open since the feed started (the next open is a reconnect). */
  connectedBefore: boolean;

  feedStarted: () => void;
  attemptStarted: () => void;
  connectionOpened: () => void;
  connectionLost: () => void;
  retryScheduled: (at: number) => void;
  /** Events that arrived together (the connection hands them over in small batches). */
  messageReceived: (events: readonly LiveEvent[]) => void;
  feedPaused: () => void;
  /** The feed ended with its sign-in: nothing it received stays in memory. */
  feedStopped: () => void;
  eventsSeen: (projectIds: ProjectFilter) => void;
};

const initial = {
  ...emptyLiveEvents,
  status: 'connecting' as LiveStatus,
  nextRetryAt: null,
  reconnects: 0,
  connectedBefore: false,
};

export function createLiveStore() {
  return create<LiveState>()((set) => ({
    ...initial,
    feedStarted: () => set({ ...initial }),
    attemptStarted: () =>
      set((s) => ({
        status: s.connectedBefore || s.status !== 'connecting' ? 'reconnecting' : 'connecting',
        nextRetryAt: null,
      })),
    connectionOpened: () =>
      set((s) => ({
        status: 'live',
        nextRetryAt: null,
        connectedBefore: true,
        reconnects: s.connectedBefore ? s.reconnects + 1 : s.reconnects,
      })),
    connectionLost: () => set({ status: 'reconnecting', nextRetryAt: null }),
    retryScheduled: (at) => set({ status: 'reconnecting', nextRetryAt: at }),
    messageReceived: (events) =>
      set((s) => {
        const next = mergeEvents(s, events);
        return next === s ? s : { entries: next.entries, unseen: next.unseen };
      }),
    feedPaused: () => set({ status: 'paused', nextRetryAt: null }),
    feedStopped: () => set({ ...initial, status: 'stopped' }),
    eventsSeen: (projectIds) =>
      set((s) => {
        const next = markSeen(s, projectIds);
        return next === s ? s : { entries: next.entries, unseen: next.unseen };
      }),
  }));
}

export const useLiveStore = createLiveStore();

export const useLiveStatus = () => useLiveStore((s) => s.status);
export const useNextRetryAt = () => useLiveStore((s) => s.nextRetryAt);
export const useReconnects = () => useLiveStore((s) => s.reconnects);
export const useUnseenCount = (projectIds: ProjectFilter) =>
  useLiveStore((s) => countUnseen(s, projectIds));

/** Events by type and project, newest first; a new array only when the events or filter change. */
export function useLiveEvents(filter: EventFilter = {}): LiveEntry[] {
  const entries = useLiveStore((s) => s.entries);
  const { type, projectIds, limit } = filter;
  const stableIds = useStableValue(projectIds ?? null);
  return useMemo(
    () => selectEvents({ entries, unseen: {} }, { type, projectIds: stableIds, limit }),
    [entries, type, stableIds, limit],
  );
}
