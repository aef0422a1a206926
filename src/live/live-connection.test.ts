import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import {
  createLiveConnection,
  DEFAULT_HEARTBEAT_MS,
  heartbeatIntervalMs,
  liveFeedUrl,
  RETRY_BASE_MS,
  RETRY_CAP_MS,
  SILENT_AFTER_INTERVALS,
  STABLE_AFTER_MS,
  type LiveConnectionListener,
  type LiveSocket,
  type Visibility,
} from './live-connection';

/* ---------- Fakes: a WebSocket, a clock with timers, a visibility source ---------- */

/** One event shape for all four kinds: every listener finds the field it reads. */
type FakeEvent = { data: unknown; code: number };
type Listener = (event: FakeEvent) => void;

class FakeSocket implements LiveSocket {
  static instances: FakeSocket[] = [];
  readonly listeners = new Map<string, Listener[]>();
  closedByClient: number | undefined;

  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }

  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close(code = 1005): void {
    this.closedByClient = code;
  }

  private emit(type: string, event: Partial<FakeEvent> = {}) {
    for (const l of this.listeners.get(type) ?? []) l({ data: undefined, code: 1005, ...event });
  }

  open() {
    this.emit('open');
  }

  receive(data: unknown) {
    this.emit('message', { data });
  }

  serverClose(code: number) {
    this.emit('close', { code });
  }

  fail() {
    this.emit('error');
    this.emit('close', { code: 1006 });
  }
}

function fakeClock() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    timers: {
      setTimeout: (run: () => void, ms: number) => {
        const id = nextId++;
        timers.set(id, { at: now + ms, run });
        return id;
      },
      clearTimeout: (id: unknown) => void timers.delete(id as number),
    },
    pending: () => [...timers.values()].map((t) => t.at - now),
    /** Moves time forward, running the timers that come due, in order. */
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= end)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = end;
    },
  };
}

/** Lets pending promise callbacks (the ticket request) run. */
const settle = () => new Promise<void>((resolve) => queueMicrotask(resolve)).then(() => undefined);
async function flush() {
  for (let i = 0; i < 5; i++) await settle();
}

function setup(
  options: {
    random?: () => number;
    fetchTicket?: () => Promise<string>;
    visibility?: Visibility;
  } = {},
) {
  FakeSocket.instances = [];
  const clock = fakeClock();
  const calls: string[] = [];
  const retries: number[] = [];
  let tickets = 0;
  const listener: LiveConnectionListener = {
    attemptStarted: () => calls.push('attempt'),
    connectionOpened: () => calls.push('opened'),
    connectionLost: () => calls.push('lost'),
    retryScheduled: (at) => {
      calls.push('retry');
      retries.push(at - clock.now());
    },
    message: (data) => calls.push(`message:${String(data)}`),
    feedPaused: () => calls.push('paused'),
    feedStopped: (reason) => calls.push(`stopped:${reason}`),
    reconnected: () => calls.push('reconnected'),
  };
  const connection = createLiveConnection({
    fetchTicket: options.fetchTicket ?? (() => Promise.resolve(`ticket ${++tickets}/+`)),
    url: (ticket) => liveFeedUrl({ protocol: 'https:', host: 'lookout.test' }, ticket),
    WebSocket: FakeSocket,
    timers: clock.timers,
    now: clock.now,
    random: options.random ?? (() => 0.5),
    visibility: options.visibility,
    listener,
  });
  const socket = (i: number) => {
    const s = FakeSocket.instances[i];
    if (!s) throw new Error(`no socket #${i}`);
    return s;
  };
  return { connection, clock, calls, retries, socket, ticketCount: () => tickets };
}

describe('live connection', () => {
  it('opens the same-origin feed URL with a URL-encoded ticket, never a bearer', async () => {
    const t = setup();
    t.connection.start();
    await flush();
    expect(t.socket(0).url).toBe('wss://lookout.test/api/feed/live?ticket=ticket%201%2F%2B');
    t.socket(0).open();
    t.socket(0).receive('{"type":"native_log"}');
    expect(t.calls).toEqual(['attempt', 'opened', 'message:{"type":"native_log"}']);
  });

  it('asks for a fresh ticket on every attempt', async () => {
    const t = setup();
    t.connection.start();
    await flush();
    t.socket(0).open();
    for (let i = 0; i < 3; i++) {
      t.socket(i).fail();
      t.clock.advance(RETRY_CAP_MS);
      await flush();
    }
    expect(t.ticketCount()).toBe(4);
    expect(FakeSocket.instances.map((s) => new URL(s.url).searchParams.get('ticket'))).toEqual([
      'ticket 1/+',
      'ticket 2/+',
      'ticket 3/+',
      'ticket 4/+',
    ]);
  });

  it('waits longer after each failure, with full jitter under a cap', async () => {
    const failing = () => Promise.reject(new ApiError({ status: 503, message: 'down' }));
    for (const r of [0, 0.5, 0.999]) {
      const t = setup({ random: () => r, fetchTicket: failing });
      t.connection.start();
      await flush();
      for (let i = 0; i < 8; i++) {
        t.clock.advance(RETRY_CAP_MS);
        await flush();
      }
      const ceilings = t.retries.map((_, i) => Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** i));
      t.retries.forEach((delay, i) => {
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceilings[i] ?? 0);
        expect(delay).toBe(Math.floor(r * (ceilings[i] ?? 0)));
      });
      if (r > 0) expect(t.retries.at(-1)).toBeGreaterThan(t.retries[0] ?? Infinity);
      expect(Math.max(...t.retries)).toBeLessThan(RETRY_CAP_MS);
      t.connection.stop();
    }
  });

  it('starts the backoff over after a connection stayed open a while', async () => {
    const t = setup({ random: () => 0.999 });
    t.connection.start();
    await flush();
    t.socket(0).fail();
    t.clock.advance(RETRY_CAP_MS);
    await flush();
    t.socket(1).fail();
    t.clock.advance(RETRY_CAP_MS);
    await flush();
    t.socket(2).open();
    t.clock.advance(STABLE_AFTER_MS);
    t.socket(2).serverClose(1001);
    expect(t.retries).toEqual([999, 1998, 999]);
  });

  it('reports a reconnect, but not the first connection', async () => {
    const t = setup();
    t.connection.start();
    await flush();
    t.socket(0).open();
    expect(t.calls).not.toContain('reconnected');
    t.socket(0).serverClose(1001);
    t.clock.advance(RETRY_CAP_MS);
    await flush();
    t.socket(1).open();
    expect(t.calls.filter((c) => c === 'reconnected')).toHaveLength(1);
    expect(t.calls.slice(-2)).toEqual(['opened', 'reconnected']);
  });

  it('stops for good on close code 4001 (signed out everywhere)', async () => {
    const t = setup();
    t.connection.start();
    await flush();
    t.socket(0).open();
    t.socket(0).serverClose(4001);
    expect(t.calls.at(-1)).toBe('stopped:signed-out-everywhere');
    expect(t.clock.pending()).toEqual([]);
    t.clock.advance(10 * RETRY_CAP_MS);
    await flush();
    expect(FakeSocket.instances).toHaveLength(1);
  });

  it('stops when the ticket is refused with 401, and retries other failures', async () => {
    let refuse = false;
    const t = setup({
      fetchTicket: () =>
        Promise.reject(
          new ApiError(
            refuse
              ? { status: 401, message: 'no', code: 'unauthorized' }
              : { status: 0, message: 'offline' },
          ),
        ),
    });
    t.connection.start();
    await flush();
    expect(t.calls).toEqual(['attempt', 'retry']);
    refuse = true;
    t.clock.advance(RETRY_CAP_MS);
    await flush();
    expect(t.calls.at(-1)).toBe('stopped:unauthorized');
    expect(t.clock.pending()).toEqual([]);
  });

  it('stop closes the socket and ignores what the old attempt still does', async () => {
    const t = setup();
    t.connection.start();
    await flush();
    t.socket(0).open();
    t.connection.stop();
    expect(t.socket(0).closedByClient).toBe(1000);
    t.socket(0).receive('late');
    t.socket(0).serverClose(1006);
    expect(t.calls).toEqual(['attempt', 'opened', 'stopped:stopped']);
  });

  it('does not retry while the tab is hidden, and resumes when it is shown', async () => {
    let hidden = false;
    let notify = () => {};
    const t = setup({
      visibility: {
        isHidden: () => hidden,
        subscribe: (l) => {
          notify = l;
          return () => {};
        },
      },
    });
    t.connection.start();
    await flush();
    t.socket(0).open();
    hidden = true;
    t.socket(0).serverClose(1006);
    t.clock.advance(RETRY_CAP_MS);
    await flush();
    expect(t.calls.at(-1)).toBe('paused');
    expect(FakeSocket.instances).toHaveLength(1);
    hidden = false;
    notify();
    await flush();
    t.socket(1).open();
    expect(t.calls.slice(-3)).toEqual(['attempt', 'opened', 'reconnected']);
  });

  it('a connection that goes silent is closed, reconnected, and reported for a re-read', async () => {
    const t = setup();
    t.connection.start();
    await flush();
    t.socket(0).open();
    const silence = DEFAULT_HEARTBEAT_MS * SILENT_AFTER_INTERVALS;
    t.clock.advance(silence - 1);
    expect(t.calls).toEqual(['attempt', 'opened']);
    // Nothing heard for the whole window: no close event from the browser is waited for.
    t.clock.advance(1);
    expect(t.socket(0).closedByClient).toBe(1000);
    expect(t.calls.slice(-2)).toEqual(['lost', 'retry']);
    t.clock.advance(RETRY_CAP_MS);
    await flush();
    expect(t.ticketCount()).toBe(2);
    t.socket(1).open();
    expect(t.calls.slice(-2)).toEqual(['opened', 'reconnected']);
    // The browser's late close of the silent socket changes nothing.
    t.socket(0).serverClose(1006);
    expect(t.calls.at(-1)).toBe('reconnected');
  });

  it('heartbeats and events keep a quiet connection open', async () => {
    const t = setup();
    t.connection.start();
    await flush();
    t.socket(0).open();
    const heartbeat = '{"type":"heartbeat","data":{"interval_seconds":30}}';
    for (let i = 0; i < 10; i++) {
      t.clock.advance(DEFAULT_HEARTBEAT_MS * 2);
      t.socket(0).receive(i % 2 === 0 ? heartbeat : '{"type":"native_log","data":{}}');
    }
    expect(t.calls).not.toContain('lost');
    expect(t.socket(0).closedByClient).toBeUndefined();
  });

  it('follows the interval a heartbeat announces', async () => {
    const t = setup();
    t.connection.start();
    await flush();
    t.socket(0).open();
    t.socket(0).receive('{"type":"heartbeat","data":{"interval_seconds":2}}');
    t.clock.advance(2000 * SILENT_AFTER_INTERVALS);
    expect(t.calls.slice(-2)).toEqual(['lost', 'retry']);
  });

  it('a stopped or lost connection leaves no silence timer behind', async () => {
    const t = setup();
    t.connection.start();
    await flush();
    t.socket(0).open();
    t.socket(0).serverClose(1001);
    expect(t.clock.pending()).toHaveLength(1); // the retry only
    t.clock.advance(RETRY_CAP_MS);
    await flush();
    t.socket(1).open();
    t.connection.stop();
    expect(t.clock.pending()).toEqual([]);
  });
});

describe('heartbeatIntervalMs', () => {
  it('reads the announced interval of a heartbeat message only', () => {
    expect(heartbeatIntervalMs('{"type":"heartbeat","data":{"interval_seconds":30}}')).toBe(30_000);
    expect(heartbeatIntervalMs('{"type":"heartbeat","data":{"interval_seconds":0.5}}')).toBe(500);
    expect(heartbeatIntervalMs('{"type":"heartbeat","data":{}}')).toBeNull();
    expect(heartbeatIntervalMs('{"type":"heartbeat","data":{"interval_seconds":-1}}')).toBeNull();
    expect(heartbeatIntervalMs('{"type":"heartbeat"')).toBeNull();
    expect(heartbeatIntervalMs('{"type":"native_log","data":{"interval_seconds":1}}')).toBeNull();
    expect(heartbeatIntervalMs(new ArrayBuffer(4))).toBeNull();
  });
});
