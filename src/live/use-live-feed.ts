import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, call, refreshSession } from '../api/client';
import { useSessionStatus, useSessionStore } from '../api/session-store';
import { createLiveConnection, liveFeedUrl, type Visibility } from './live-connection';
import type { LiveEvent } from './live-message';
import { parseLiveMessage } from './live-message';
import { useLiveStore } from './live-store';
import { onReconnected } from './on-reconnected';

/** Events are handed to the store at most this often, so a burst renders once, not per message. */
const FLUSH_MS = 100;
/**
 * After close code 4001, how long to let a sign-out of this very tab finish before checking
 * whether the sign-in still holds (another client signed the account out everywhere).
 */
const SIGNED_OUT_CHECK_MS = 2_000;

const browserTimers = {
  setTimeout: (run: () => void, ms: number) => window.setTimeout(run, ms),
  clearTimeout: (handle: unknown) => window.clearTimeout(handle as number),
};

const documentVisibility: Visibility = {
  isHidden: () => document.visibilityState === 'hidden',
  subscribe: (listener) => {
    document.addEventListener('visibilitychange', listener);
    return () => document.removeEventListener('visibilitychange', listener);
  },
};

/**
 * Owns the live-feed connection while this tab is signed in: starts it on sign-in, stops it
 * on sign-out or unmount (the store then forgets what it received). Mount once.
 */
export function useLiveFeed(): void {
  const status = useSessionStatus();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (status !== 'signed-in') return;
    const store = useLiveStore.getState();
    let pending: LiveEvent[] = [];
    let flushTimer: number | null = null;
    let signedOutCheck: number | null = null;

    const flush = () => {
      flushTimer = null;
      const batch = pending;
      pending = [];
      store.messageReceived(batch);
    };

    store.feedStarted();
    const connection = createLiveConnection({
      fetchTicket: async () => (await call(api.POST('/api/feed/ticket'))).ticket,
      url: (ticket) => liveFeedUrl(window.location, ticket),
      WebSocket: window.WebSocket,
      timers: browserTimers,
      now: Date.now,
      random: Math.random,
      visibility: documentVisibility,
      listener: {
        attemptStarted: store.attemptStarted,
        connectionOpened: store.connectionOpened,
        connectionLost: store.connectionLost,
        retryScheduled: store.retryScheduled,
        feedPaused: store.feedPaused,
        message: (data) => {
          const event = parseLiveMessage(data);
          if (!event) return;
          pending.push(event);
          flushTimer ??= window.setTimeout(flush, FLUSH_MS);
        },
        reconnected: () => void onReconnected(queryClient),
        feedStopped: (reason) => {
          if (flushTimer !== null) window.clearTimeout(flushTimer);
          flushTimer = null;
          pending = [];
          store.feedStopped();
          if (reason !== 'signed-out-everywhere') return;
          signedOutCheck = window.setTimeout(async () => {
            signedOutCheck = null;
            if (useSessionStore.getState().status !== 'signed-in') return;
            const stillSignedIn = await refreshSession();
            if (!stillSignedIn && useSessionStore.getState().status === 'signed-in') {
              useSessionStore.getState().signedOut('expired');
            }
          }, SIGNED_OUT_CHECK_MS);
        },
      },
    });
    connection.start();

    return () => {
      // Stopping reports `feedStopped`, which empties the store.
      connection.stop();
      if (signedOutCheck !== null) window.clearTimeout(signedOutCheck);
    };
  }, [status, queryClient]);
}
