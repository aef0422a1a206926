import WebSocket, { type ClientOptions } from 'ws';
import { call } from './api-client';

/** One live-feed message as a client reads it. */
export type LiveMessage = { type: string; data: Record<string, unknown> };

export type FeedClient = {
  ws: WebSocket;
  /** Every message received so far, in order. */
  messages: LiveMessage[];
  /** The first message (already received or still to come) matching `pred`. */
  until(pred: (m: LiveMessage) => boolean, timeoutMs?: number): Promise<LiveMessage>;
  /** Resolves when the connection closes, with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
};

export function feedUrl(baseUrl: string, ticket?: string): string {
  const ws = baseUrl.replace(/^http/, 'ws');
  return ticket === undefined
    ? `${ws}/api/feed/live`
    : `${ws}/api/feed/live?ticket=${encodeURIComponent(ticket)}`;
}

export async function newTicket(baseUrl: string, token: string): Promise<string> {
  const res = await call(baseUrl, 'POST', '/api/feed/ticket', { token });
  if (res.status !== 200) throw new Error(`ticket: ${res.status} ${res.text}`);
  return (res.body as { ticket: string }).ticket;
}

/** Opens the live feed; rejects when the upgrade is refused. */
export function openFeed(baseUrl: string, ticket: string): Promise<FeedClient> {
  const ws = new WebSocket(feedUrl(baseUrl, ticket));
  const messages: LiveMessage[] = [];
  const waiters: { pred: (m: LiveMessage) => boolean; resolve: (m: LiveMessage) => void }[] = [];
  ws.on('message', (raw: WebSocket.RawData) => {
    const text = Array.isArray(raw)
      ? Buffer.concat(raw).toString('utf8')
      : Buffer.from(raw as ArrayBuffer).toString('utf8');
    const m = JSON.parse(text) as LiveMessage;
    messages.push(m);
    for (const w of [...waiters]) {
      if (w.pred(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      reject(new Error(`upgrade refused with ${res.statusCode ?? 0}`));
      ws.terminate();
    });
    ws.on('error', reject);
    ws.once('open', () =>
      resolve({
        ws,
        messages,
        closed,
        close: () => ws.close(),
        until(pred, timeoutMs = 3000) {
          const seen = messages.find(pred);
          if (seen) return Promise.resolve(seen);
          return new Promise((res, rej) => {
            const timer = setTimeout(
              () => rej(new Error('no matching live message in time')),
              timeoutMs,
            );
            waiters.push({
              pred,
              resolve: (m) => {
                clearTimeout(timer);
                res(m);
              },
            });
          });
        },
      }),
    );
  });
}

export type RefusedUpgrade = { status: number; headers: Record<string, unknown>; body: unknown };

/** Tries a WebSocket upgrade that the service must refuse; the status and the JSON body. */
export function refusedUpgrade(
  baseUrl: string,
  ticket?: string,
  options: ClientOptions = {},
): Promise<RefusedUpgrade> {
  const ws = new WebSocket(feedUrl(baseUrl, ticket), options);
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    ws.on('error', reject);
    ws.once('unexpected-response', (req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        req.destroy();
        let body: unknown = null;
        try {
          body = text === '' ? null : JSON.parse(text);
        } catch {
          body = text;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
  });
}
