import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got: the headers Lookout signs with and the raw body. */
export type ReceivedDelivery = {
  event: string | undefined;
  deliveryId: string | undefined;
  signature: string | undefined;
  body: string;
};

/** What the receiver does with the next request: answer a status, or never answer. */
export type Reply = number | 'hang';

export type WebhookReceiver = {
  url: string;
  received: ReceivedDelivery[];
  /** Replies for the next requests in order; afterwards `fallback` (200 unless set). */
  reply: Reply[];
  fallback: Reply;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

/** A webhook receiver on loopback (http to 127.0.0.1 is allowed for this). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const waiters: (() => void)[] = [];
  const hanging: http.ServerResponse[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    received,
    reply: [],
    fallback: 200,
    waitFor: (count, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${count} requests`)),
          timeoutMs,
        );
        const check = () => {
          if (received.length < count) return false;
          clearTimeout(timer);
          resolve();
          return true;
        };
        if (!check()) waiters.push(() => void check());
      }),
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const header = (name: string) => {
        const v = req.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      received.push({
        event: header('lookout-event'),
        deliveryId: header('lookout-delivery'),
        signature: header('lookout-signature'),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      for (const w of waiters.splice(0)) w();
      const reply = receiver.reply.shift() ?? receiver.fallback;
      if (reply === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(reply, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}

/** Checks `Lookout-Signature` as a receiver would: `t=…,v1=HMAC-SHA256(secret, "t.body")`. */
export function signatureValid(secret: string, delivery: ReceivedDelivery): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(delivery.signature ?? '');
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(`${m[1]}.${delivery.body}`).digest();
  return timingSafeEqual(expected, Buffer.from(m[2] ?? '', 'hex'));
}
