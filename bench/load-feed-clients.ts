/**
 * The load test's live-feed clients, in their own process (forked by bench/load.ts) so that
 * parsing every message for every client neither slows the senders nor is slowed by them.
 *
 * Each client opens the feed as the console does (a fresh ticket, then the WebSocket), reads
 * every message in full and keeps the events of the load test's project. The parent tells
 * this process which ids each batch carries before sending it (with the send time) and
 * whether the service acknowledged it; at the end this process waits until every client has
 * every acknowledged id (or nothing more arrives for a while) and reports per client what was
 * delivered, missing or duplicated, and the delivery latency from send to receipt.
 */
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';

export type FeedInit = {
  t: 'init';
  baseUrl: string;
  token: string;
  /** The projects the load test sends to: messages of others are foreign. */
  projectIds: string[];
  clients: number;
  /** Clients that connect and then stop reading (a sleeping laptop, a stuck tab). */
  stalled: number;
};
export type FeedCommand =
  | FeedInit
  /** A batch about to be sent: its ids (issues by their fingerprint's id) and the send time. */
  | { t: 'sent'; batch: number; ids: string[]; at: number }
  /** Whether the service acknowledged the batch (2xx); only acknowledged ids are expected. */
  | { t: 'result'; batch: number; ok: boolean }
  /** No more batches: report once complete, or once nothing arrived for `quietMs`. */
  | { t: 'finish'; quietMs: number };

export type FeedClientReport = {
  delivered: number;
  missing: number;
  duplicates: number;
  /** Messages of other projects or ids never sent by the load test. */
  foreign: number;
  closed: { code: number; reason: string } | null;
};
export type FeedReport = {
  t: 'report';
  expected: number;
  clients: FeedClientReport[];
  latency_ms: { p50: number; p95: number; p99: number; max: number; samples: number };
  /** From `finish` to the last client complete (or the quiet timeout). */
  drain_ms: number;
  /**
   * Each stalled client, resumed after the run: how its connection ended (null: the service
   * still held it open) and how many messages had been sent to it by then.
   */
  stalled: StalledReport[];
  errors: string[];
};
export type StalledReport = { closed: { code: number; reason: string } | null; received: number };
export type FeedReady = { t: 'ready' } | { t: 'failed'; error: string };

/** The issue fingerprint the load test sends: it carries the event's id, so the feed's issue says which event it is. */
export const ISSUE_FINGERPRINT_PREFIX = 'load-';

const now = () => performance.timeOrigin + performance.now();

type Client = {
  ws: WebSocket;
  /** Connected and paused: only counted, not part of delivery or latency. */
  stalled: boolean;
  lastMessage: number;
  /** 1 at an event's index once this client received it. */
  seen: Uint8Array;
  delivered: number;
  duplicates: number;
  foreign: number;
  closed: { code: number; reason: string } | null;
};

type State = {
  projectIds: Set<string>;
  index: Map<string, number>;
  sentAt: number[];
  batchOf: number[];
  okBatches: Set<number>;
  /** Received before the parent said the id was sent (cannot happen in order, but cheap to allow). */
  early: Map<string, { client: Client; at: number }[]>;
  latencies: number[];
  clients: Client[];
  stalled: Client[];
  errors: string[];
  lastProgress: number;
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

function grow(a: Uint8Array, size: number): Uint8Array {
  if (size <= a.length) return a;
  const b = new Uint8Array(Math.max(size, a.length * 2));
  b.set(a);
  return b;
}

function mark(state: State, client: Client, i: number, at: number) {
  client.seen = grow(client.seen, i + 1);
  if (client.seen[i] === 1) {
    client.duplicates++;
    return;
  }
  client.seen[i] = 1;
  client.delivered++;
  state.lastProgress = at;
  state.latencies.push(at - (state.sentAt[i] ?? at));
}

function receive(state: State, client: Client, raw: WebSocket.RawData) {
  const at = now();
  if (client.stalled) {
    client.delivered++;
    client.lastMessage = at;
    return;
  }
  const text = Array.isArray(raw)
    ? Buffer.concat(raw).toString('utf8')
    : Buffer.from(raw as ArrayBuffer).toString('utf8');
  const m = JSON.parse(text) as { type: string; data: Record<string, unknown> };
  if (!state.projectIds.has(String(m.data.project_id))) {
    client.foreign++;
    return;
  }
  const fingerprint = typeof m.data.fingerprint === 'string' ? m.data.fingerprint : '';
  const id =
    m.type === 'native_issue' && fingerprint.startsWith(ISSUE_FINGERPRINT_PREFIX)
      ? fingerprint.slice(ISSUE_FINGERPRINT_PREFIX.length)
      : String(m.data.id);
  const i = state.index.get(id);
  if (i !== undefined) return mark(state, client, i, at);
  const waiting = state.early.get(id) ?? [];
  waiting.push({ client, at });
  state.early.set(id, waiting);
}

async function ticket(baseUrl: string, token: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/feed/ticket`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });
  if (res.status !== 200)
    throw new Error(`feed ticket answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { ticket: string }).ticket;
}

async function connect(state: State, init: FeedInit, stalled = false): Promise<Client> {
  const t = await ticket(init.baseUrl, init.token);
  const ws = new WebSocket(
    `${init.baseUrl.replace(/^http/, 'ws')}/api/feed/live?ticket=${encodeURIComponent(t)}`,
  );
  const client: Client = {
    ws,
    stalled,
    lastMessage: 0,
    seen: new Uint8Array(1024),
    delivered: 0,
    duplicates: 0,
    foreign: 0,
    closed: null,
  };
  ws.on('message', (raw: WebSocket.RawData) => receive(state, client, raw));
  ws.on('close', (code, reason) => {
    client.closed = { code, reason: reason.toString() };
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) =>
      reject(new Error(`feed upgrade refused with ${res.statusCode ?? 0}`)),
    );
    ws.once('error', reject);
    ws.once('open', () => resolve());
  });
  // A stalled client's connection is expected to end badly (the service gives up on it).
  ws.on('error', (e) => {
    if (!stalled) state.errors.push(`feed client error: ${e.message}`);
  });
  return client;
}

function expectedIndexes(state: State): number[] {
  const out: number[] = [];
  for (let i = 0; i < state.sentAt.length; i++)
    if (state.okBatches.has(state.batchOf[i] ?? -1)) out.push(i);
  return out;
}

function complete(state: State, expected: number[]): boolean {
  return state.clients.every((c) => expected.every((i) => c.seen[i] === 1));
}

async function finish(state: State, quietMs: number): Promise<FeedReport> {
  const started = now();
  state.lastProgress = Math.max(state.lastProgress, started);
  const expected = expectedIndexes(state);
  // Wait for the condition (every client has every acknowledged id), or for silence.
  while (!complete(state, expected) && now() - state.lastProgress < quietMs)
    await new Promise((r) => setTimeout(r, 50));
  const drain = now() - started;
  const sorted = [...state.latencies].sort((a, b) => a - b);
  const round = (n: number) => Number(n.toFixed(1));
  // A paused client cannot see its close: let it read what the service kept for it, then
  // see whether the service closed the connection (or still holds it open). After a long
  // zero window TCP may resume only at its next probe, or when the service's close timeout
  // (30 s in ws) ends the connection: hence the long quiet time.
  const resumed = now();
  for (const c of state.stalled) c.ws.resume();
  const settled = () =>
    state.stalled.every(
      (c) => c.closed !== null || now() - Math.max(c.lastMessage, resumed) > 40_000,
    );
  while (!settled()) await new Promise((r) => setTimeout(r, 50));
  return {
    t: 'report',
    expected: expected.length,
    clients: state.clients.map((c) => ({
      delivered: expected.filter((i) => c.seen[i] === 1).length,
      missing: expected.filter((i) => c.seen[i] !== 1).length,
      duplicates: c.duplicates,
      foreign: c.foreign,
      closed: c.closed,
    })),
    latency_ms: {
      p50: round(percentile(sorted, 0.5)),
      p95: round(percentile(sorted, 0.95)),
      p99: round(percentile(sorted, 0.99)),
      max: round(sorted[sorted.length - 1] ?? 0),
      samples: sorted.length,
    },
    drain_ms: Math.round(drain),
    stalled: state.stalled.map((c) => ({ closed: c.closed, received: c.delivered })),
    errors: state.errors,
  };
}

function main() {
  const state: State = {
    projectIds: new Set(),
    index: new Map(),
    sentAt: [],
    batchOf: [],
    okBatches: new Set(),
    early: new Map(),
    latencies: [],
    clients: [],
    stalled: [],
    errors: [],
    lastProgress: 0,
  };
  const send = (m: FeedReady | FeedReport) => process.send?.(m);
  process.on('message', (raw) => {
    const m = raw as FeedCommand;
    if (m.t === 'init') {
      state.projectIds = new Set(m.projectIds);
      // One after the other, as consoles open over time (and tickets are cheap to ask for).
      void (async () => {
        for (let c = 0; c < m.clients; c++) state.clients.push(await connect(state, m));
        for (let c = 0; c < m.stalled; c++) {
          const client = await connect(state, m, true);
          // Stops reading: the socket's receive buffer fills, then the service's send buffer.
          client.ws.pause();
          state.stalled.push(client);
        }
      })().then(
        () => send({ t: 'ready' }),
        (e: unknown) => send({ t: 'failed', error: e instanceof Error ? e.message : String(e) }),
      );
    } else if (m.t === 'sent') {
      for (const id of m.ids) {
        const i = state.sentAt.length;
        state.index.set(id, i);
        state.sentAt.push(m.at);
        state.batchOf.push(m.batch);
        const waiting = state.early.get(id);
        if (waiting) {
          state.early.delete(id);
          for (const w of waiting) mark(state, w.client, i, w.at);
        }
      }
    } else if (m.t === 'result') {
      if (m.ok) state.okBatches.add(m.batch);
    } else if (m.t === 'finish') {
      void finish(state, m.quietMs).then((r) => {
        send(r);
        for (const c of [...state.clients, ...state.stalled]) c.ws.terminate();
        process.disconnect();
      });
    }
  });
}

// Only as the forked process: bench/load.ts imports this file for its types and prefix.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
