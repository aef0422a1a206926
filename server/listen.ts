import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { WebSocketServer } from 'ws';
import type { AppEnv } from './http/app-env';
import { answerOversizedHeads } from './http/client-error';
import { serveUpgrades } from './http/websocket-upgrade';

export type Listening = {
  server: Server;
  port: number;
  /** Ends at once: every connection is cut, requests under way included. */
  close(): Promise<void>;
  /**
   * Ends in order: no new connections, requests under way finish (each answer closes its
   * connection), then `closeLive` ends the live connections (their clients reconnect
   * elsewhere). What is still open after `graceMs` is cut.
   */
  shutdown(opts: { graceMs: number; closeLive: () => void }): Promise<void>;
};

const KEEP_ALIVE_MS = 65_000;

/** Serves the app (HTTP and the live feed's WebSocket upgrades) on one port. */
export function listen(
  app: OpenAPIHono<AppEnv>,
  port: number,
  hostname: string,
): Promise<Listening> {
  const wss = new WebSocketServer({ noServer: true });
  const inFlight = new Set<ServerResponse>();
  let stopping = false;
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port, hostname }, (info: AddressInfo) => {
      const http = server as Server;
      // Idle keep-alive connections stay open longer than a load balancer's or an SDK's own idle
      // limit (commonly 60 s): with Node's 5 s default, a client reusing a connection just as
      // the service closes it gets a reset (a 502 behind a proxy, a failed export from an SDK).
      http.keepAliveTimeout = KEEP_ALIVE_MS;
      http.headersTimeout = KEEP_ALIVE_MS + 1_000;
      const closed = new Promise<void>((done) => http.once('close', () => done()));
      resolve({
        server: http,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            for (const client of wss.clients) client.terminate();
            wss.close();
            http.close(() => done());
            http.closeAllConnections();
          }),
        async shutdown({ graceMs, closeLive }) {
          if (!stopping) {
            stopping = true;
            // Stops listening and closes idle keep-alive connections.
            http.close();
            for (const res of inFlight) endAfter(http, res);
            closeLive();
            wss.close();
          }
          let timer: ReturnType<typeof setTimeout> | undefined;
          const late = new Promise<'late'>((done) => {
            timer = setTimeout(() => done('late'), graceMs);
          });
          if ((await Promise.race([closed, late])) === 'late') {
            for (const client of wss.clients) client.terminate();
            http.closeAllConnections();
            await closed;
          }
          clearTimeout(timer);
        },
      });
    });
    (server as Server).on('request', (_req, res: ServerResponse) => {
      inFlight.add(res);
      res.once('close', () => inFlight.delete(res));
      // A request that came on a kept-alive connection while stopping is still answered.
      if (stopping) endAfter(server as Server, res);
    });
    answerOversizedHeads(server as Server);
    serveUpgrades(server as Server, wss, (request, env) => app.fetch(request, env));
  });
}

/** The connection of `res` closes once it is answered instead of waiting for another request. */
function endAfter(server: Server, res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
  // Already answering: the connection is idle once the answer is out.
  else res.once('finish', () => setImmediate(() => server.closeIdleConnections()));
}
