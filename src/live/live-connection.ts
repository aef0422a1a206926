import { ApiError, backoffMs } from '../api/errors';

/**
 * One live-feed connection per signed-in console. Every attempt asks for a fresh ticket (a
 * ticket is single-use and short-lived) and opens the WebSocket with it; the account bearer
 * never goes into the URL. A lost connection is retried with exponential backoff and full
 * jitter; a connection that stayed open a while resets the backoff. Close code 4001 (signed
 * out everywhere) and a ticket refused with 401 stop for good: a new sign-in starts over.
 *
 * A connection can also die without a close: a proxy drops it, a laptop sleeps. The service
 * sends a `heartbeat` message every interval (30 s, or what the message announces), so a
 * connection that hears nothing at all for `SILENT_AFTER_INTERVALS` intervals is treated as
 * lost: closed and reconnected like any other, and the lists re-read.
 *
 * Everything from the outside world is injected (WebSocket, ticket, timers, clock, random,
 * visibility), so tests drive it without globals.
 */

/** What the connection needs of a WebSocket (the browser's satisfies it). */
export interface LiveSocket {
  addEventListener(type: 'open' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { code: number }) => void): void;
  close(code?: number, reason?: string): void;
}

export type LiveSocketConstructor = new (url: string) => LiveSocket;

export type Timers = {
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

export type Visibility = {
  isHidden: () => boolean;
  /** Calls `listener` when the tab is shown or hidden; returns the unsubscribe function. */
  subscribe: (listener: () => void) => () => void;
};

export type StopReason = 'signed-out-everywhere' | 'unauthorized' | 'stopped';

/** What happened, in the store's words (see `live-store.ts`). */
export type LiveConnectionListener = {
  attemptStarted: () => void;
  connectionOpened: () => void;
  connectionLost: () => void;
  retryScheduled: (at: number) => void;
  message: (data: unknown) => void;
  feedPaused: () => void;
  feedStopped: (reason: StopReason) => void;
  /** A connection opened again after one was lost: the feed does not replay, so re-read lists. */
  reconnected: () => void;
};

export type LiveConnectionOptions = {
  fetchTicket: () => Promise<string>;
  /** The feed's URL for a ticket (see `liveFeedUrl`). */
  url: (ticket: string) => string;
  WebSocket: LiveSocketConstructor;
  timers: Timers;
  now: () => number;
  random: () => number;
  visibility?: Visibility | undefined;
  listener: LiveConnectionListener;
};

export type LiveConnection = { start: () => void; stop: () => void };

/** Close code of the service when the account signed out everywhere. */
export const CLOSE_SIGNED_OUT = 4001;
export const RETRY_BASE_MS = 1_000;
export const RETRY_CAP_MS = 30_000;
/** A connection open at least this long was healthy: the next loss starts the backoff over. */
export const STABLE_AFTER_MS = 10_000;
/** The service's heartbeat interval until a `heartbeat` message announces its own. */
export const DEFAULT_HEARTBEAT_MS = 30_000;
/** Silence for this many heartbeat intervals means the connection is gone (one may be late). */
export const SILENT_AFTER_INTERVALS = 2.5;

/**
 * The interval a `heartbeat` message announces (`{"type":"heartbeat","data":{"interval_seconds":30}}`),
 * or null for any other message. Only messages that start like one are parsed, so the events
 * of a busy feed are not parsed twice.
 */
export function heartbeatIntervalMs(data: unknown): number | null {
  if (typeof data !== 'string' || !data.startsWith('{"type":"heartbeat"')) return null;
  try {
    const seconds = (JSON.parse(data) as { data?: { interval_seconds?: unknown } }).data
      ?.interval_seconds;
    return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
      ? seconds * 1000
      : null;
  } catch {
    return null;
  }
}

/** `ws(s)://<same host>/api/feed/live?ticket=<ticket>`: same origin, so `connect-src 'self'` allows it. */
export function liveFeedUrl(location: { protocol: string; host: string }, ticket: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api/feed/live?ticket=${encodeURIComponent(ticket)}`;
}

type Phase = 'idle' | 'connecting' | 'open' | 'waiting' | 'paused' | 'stopped';

export function createLiveConnection(options: LiveConnectionOptions): LiveConnection {
  const { timers, listener, visibility } = options;
  let phase: Phase = 'idle';
  let socket: LiveSocket | null = null;
  let timer: unknown = null;
  let failures = 0;
  let everOpened = false;
  let openedAt = 0;
  // Each attempt has a number; late answers of an abandoned attempt are ignored.
  let attemptId = 0;
  let unsubscribeVisibility: (() => void) | null = null;
  // Fires when the open connection has heard nothing for too long.
  let watchdog: unknown = null;
  let heartbeatMs = DEFAULT_HEARTBEAT_MS;

  function disarmWatchdog() {
    if (watchdog !== null) timers.clearTimeout(watchdog);
    watchdog = null;
  }

  function scheduleRetry(error?: unknown) {
    if (phase === 'stopped') return;
    const jittered = backoffMs(failures, options.random, RETRY_BASE_MS, RETRY_CAP_MS);
    // A rate-limited ticket request says how long to wait at least.
    const floor =
      error instanceof ApiError && error.retryAfterSeconds !== undefined
        ? error.retryAfterSeconds * 1000
        : 0;
    const delay = Math.max(jittered, floor);
    failures++;
    phase = 'waiting';
    listener.retryScheduled(options.now() + delay);
    timer = timers.setTimeout(() => {
      timer = null;
      if (phase !== 'waiting') return;
      // While the tab is hidden nobody is looking: wait until it is shown again.
      if (visibility?.isHidden()) {
        phase = 'paused';
        listener.feedPaused();
        return;
      }
      void attempt();
    }, delay);
  }

  function finish(reason: StopReason) {
    if (phase === 'stopped') return;
    phase = 'stopped';
    attemptId++;
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
    disarmWatchdog();
    const open = socket;
    socket = null;
    try {
      open?.close(1000, 'console closed the feed');
    } catch {
      // Already closing.
    }
    unsubscribeVisibility?.();
    unsubscribeVisibility = null;
    listener.feedStopped(reason);
  }

  async function attempt() {
    const id = ++attemptId;
    phase = 'connecting';
    listener.attemptStarted();
    let ticket: string;
    try {
      ticket = await options.fetchTicket();
    } catch (error) {
      if (id !== attemptId) return;
      // The auth fetch already tried a refresh; a 401 now means the sign-in has ended.
      if (error instanceof ApiError && error.status === 401) return finish('unauthorized');
      return scheduleRetry(error);
    }
    if (id !== attemptId) return;

    let ws: LiveSocket;
    try {
      ws = new options.WebSocket(options.url(ticket));
    } catch {
      return scheduleRetry();
    }
    socket = ws;
    let ended = false;

    const lost = (code: number | undefined) => {
      if (ended || socket !== ws) return;
      ended = true;
      socket = null;
      disarmWatchdog();
      if (phase === 'open' && options.now() - openedAt >= STABLE_AFTER_MS) failures = 0;
      if (code === CLOSE_SIGNED_OUT) return finish('signed-out-everywhere');
      listener.connectionLost();
      scheduleRetry();
    };

    /** (Re)starts the count of silence: any message shows the connection is alive. */
    const heard = () => {
      disarmWatchdog();
      watchdog = timers.setTimeout(() => {
        watchdog = null;
        if (socket !== ws) return;
        // Gone silent: lost now, whenever the browser gets around to its close event.
        lost(undefined);
        try {
          ws.close(1000, 'no heartbeat');
        } catch {
          // Already closing.
        }
      }, heartbeatMs * SILENT_AFTER_INTERVALS);
    };

    ws.addEventListener('open', () => {
      if (socket !== ws) return;
      phase = 'open';
      openedAt = options.now();
      heard();
      const reconnected = everOpened;
      everOpened = true;
      listener.connectionOpened();
      if (reconnected) listener.reconnected();
    });
    ws.addEventListener('message', (event) => {
      if (socket !== ws) return;
      const announced = heartbeatIntervalMs(event.data);
      if (announced !== null) heartbeatMs = announced;
      heard();
      listener.message(event.data);
    });
    ws.addEventListener('close', (event) => lost(event.code));
    ws.addEventListener('error', () => {
      // Browsers follow an error with a close; this covers sockets that do not.
      lost(undefined);
      try {
        ws.close();
      } catch {
        // Already closed.
      }
    });
  }

  function onVisibilityChange() {
    if (phase === 'paused' && !visibility?.isHidden()) void attempt();
  }

  return {
    start() {
      if (phase !== 'idle') return;
      unsubscribeVisibility = visibility?.subscribe(onVisibilityChange) ?? null;
      void attempt();
    },
    stop() {
      finish('stopped');
    },
  };
}
