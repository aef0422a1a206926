import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a webhook receiver got: its headers and raw body. */
export type ReceivedHook = { headers: http.IncomingHttpHeaders; body: string };

export type WebhookReceiver = {
  url: string;
  received: ReceivedHook[];
  close: () => Promise<void>;
};

/**
 * A webhook receiver on loopback (the service takes plain http only for loopback hosts): it
 * answers every POST with 200 and keeps what it got, for the test to check.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Whether a request carries a valid `Lookout-Signature` for `secret`:
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>` (docs/alerts.md).
 */
export function signatureIsValid(hook: ReceivedHook, secret: string): boolean {
  const header = hook.headers['lookout-signature'];
  if (typeof header !== 'string') return false;
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  if (parts.t === undefined || parts.v1 === undefined) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${hook.body}`).digest('hex');
  return (
    expected.length === parts.v1.length &&
    timingSafeEqual(Buffer.from(expected), Buffer.from(parts.v1))
  );
}
