/**
 * The soak's live-feed clients, in their own process (forked by bench/soak.ts). Like the load
 * test's (bench/load-feed-clients.ts) each opens the feed as the console does and reads every
 * message in full, but over half an hour only counts the messages of the soak's project: the
 * ids of every event would make this process, not the service, the one that grows.
 *
 * The client that never reads is replaced every `stallCycleMs`: it is resumed (so it sees
 * whether the service closed it), then dropped without a close handshake, as a laptop that
 * sleeps and never comes back, and a fresh one connects and stops reading. The service must
 * let go of every one of them.
 */
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';

export type SoakFeedCommand =
  | {
      t: 'init';
      baseUrl: string;
      token: string;
      projectId: string;
      clients: number;
      stallCycleMs: number;
    }
  /** Report once every client has `expected` messages, or nothing arrived for `quietMs`. */
  | { t: 'finish'; expected: number; quietMs: number };

export type SoakStalledCycle = {
  received: number;
  /** How the service ended the connection before it was dropped (null: still open). */
  closed: { code: number; reason: string } | null;
};
export type SoakFeedReport = {
  t: 'soak-report';
  delivered_per_client: number[];
  closed_early: number;
  stalled: SoakStalledCycle[];
  errors: string[];
};
export type SoakFeedReady = { t: 'ready' } | { t: 'failed'; error: string };

type Client = {
  ws: WebSocket;
  delivered: number;
  closed: { code: number; reason: string } | null;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function connect(
  init: Extract<SoakFeedCommand, { t: 'init' }>,
  onMessage: (c: Client, raw: WebSocket.RawData) => void,
  errors: string[] | null,
): Promise<Client> {
  const res = await fetch(`${init.baseUrl}/api/feed/ticket`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${init.token}` },
  });
  if (res.status !== 200) throw new Error(`feed ticket answered ${res.status}`);
  const { ticket } = (await res.json()) as { ticket: string };
  const ws = new WebSocket(
    `${init.baseUrl.replace(/^http/, 'ws')}/api/feed/live?ticket=${encodeURIComponent(ticket)}`,
  );
  const client: Client = { ws, delivered: 0, closed: null };
  ws.on('message', (raw: WebSocket.RawData) => onMessage(client, raw));
  ws.on('close', (code, reason) => {
    client.closed = { code, reason: reason.toString() };
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('unexpected-response', (_req, r) =>
      reject(new Error(`feed upgrade refused with ${r.statusCode ?? 0}`)),
    );
    ws.once('error', reject);
    ws.once('open', () => resolve());
  });
  ws.on('error', (e) => errors?.push(`feed client error: ${e.message}`));
  return client;
}

function main() {
  const clients: Client[] = [];
  const stalledCycles: SoakStalledCycle[] = [];
  const errors: string[] = [];
  let projectId = '';
  let lastProgress = 0;
  let stalled: Client | null = null;
  let cycling: ReturnType<typeof setInterval> | null = null;
  const send = (m: SoakFeedReady | SoakFeedReport) => process.send?.(m);

  const read = (c: Client, raw: WebSocket.RawData) => {
    const text = Array.isArray(raw)
      ? Buffer.concat(raw).toString('utf8')
      : Buffer.from(raw as ArrayBuffer).toString('utf8');
    const m = JSON.parse(text) as { data: { project_id?: unknown } };
    if (m.data.project_id !== projectId) return;
    c.delivered++;
    lastProgress = performance.now();
  };
  const count = (c: Client) => {
    c.delivered++;
  };

  const stall = async (init: Extract<SoakFeedCommand, { t: 'init' }>) => {
    const c = await connect(init, count, null);
    // Stops reading: the socket's receive buffer fills, then the service's send buffer.
    c.ws.pause();
    stalled = c;
  };
  const endStalled = async () => {
    const c = stalled;
    if (!c) return;
    stalled = null;
    c.ws.resume();
    // Long enough to read what was buffered for it and so see a close the service sent.
    const until = performance.now() + 5_000;
    while (c.closed === null && performance.now() < until) await sleep(100);
    stalledCycles.push({ received: c.delivered, closed: c.closed });
    c.ws.terminate();
  };

  process.on('message', (raw) => {
    const m = raw as SoakFeedCommand;
    if (m.t === 'init') {
      projectId = m.projectId;
      void (async () => {
        for (let i = 0; i < m.clients; i++) clients.push(await connect(m, read, errors));
        await stall(m);
        cycling = setInterval(() => {
          void endStalled()
            .then(() => stall(m))
            .catch((e: unknown) => errors.push(`stalled client: ${String(e)}`));
        }, m.stallCycleMs);
      })().then(
        () => send({ t: 'ready' }),
        (e: unknown) => send({ t: 'failed', error: e instanceof Error ? e.message : String(e) }),
      );
    } else if (m.t === 'finish') {
      if (cycling) clearInterval(cycling);
      void (async () => {
        lastProgress = Math.max(lastProgress, performance.now());
        while (
          clients.some((c) => c.delivered < m.expected) &&
          performance.now() - lastProgress < m.quietMs
        )
          await sleep(100);
        await endStalled();
        send({
          t: 'soak-report',
          delivered_per_client: clients.map((c) => c.delivered),
          closed_early: clients.filter((c) => c.closed !== null).length,
          stalled: stalledCycles,
          errors,
        });
        for (const c of clients) c.ws.terminate();
        process.disconnect();
      })();
    }
  });
}

// Only as the forked process: bench/soak.ts imports this file for its types.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
