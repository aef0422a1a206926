import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { WebSocketServer } from 'ws';
import type { AppEnv } from './http/app-env';
import { answerOversizedHeads } from './http/client-error';
import { serveUpgrades } from './http/websocket-upgrade';

export type Listening = { server: Server; port: number; close(): Promise<void> };

/** Serves the app (HTTP and the live feed's WebSocket upgrades) on one port. */
export function listen(
  app: OpenAPIHono<AppEnv>,
  port: number,
  hostname: string,
): Promise<Listening> {
  const wss = new WebSocketServer({ noServer: true });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port, hostname }, (info: AddressInfo) => {
      resolve({
        server: server as Server,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            for (const client of wss.clients) client.terminate();
            wss.close();
            (server as Server).close(() => done());
            (server as Server).closeAllConnections();
          }),
      });
    });
    answerOversizedHeads(server as Server);
    serveUpgrades(server as Server, wss, (request, env) => app.fetch(request, env));
  });
}
