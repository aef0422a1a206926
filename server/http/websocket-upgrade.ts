import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';

/**
 * HTTP upgrade requests (the live feed's WebSocket) answered by the app like any request.
 *
 * Why not `upgradeWebSocket` of @hono/node-server: when the app refuses an upgrade, that helper
 * writes the status line and headers but drops the body (`Content-Length: 0`), so a client saw a
 * bare 401 or 400 without the spec's error envelope (`code`, `next_action`). Here the app's answer
 * is written in full, unless the route accepted the upgrade through `acceptWebSocket`.
 */
export type UpgradeBindings = {
  incoming: IncomingMessage;
  /**
   * Only on a request that arrived as an HTTP upgrade: accepts it; `onOpen` gets the WebSocket
   * and the connection under it (to batch writes).
   */
  acceptWebSocket: (onOpen: (ws: WebSocket, socket: Duplex) => void) => void;
};

type Fetch = (request: Request, env: UpgradeBindings) => Response | Promise<Response>;

// Hop-by-hop and framing headers: this answer sets its own length and closes the connection.
const skipped = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
]);

export function serveUpgrades(server: Server, wss: WebSocketServer, fetch: Fetch): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void answerUpgrade(wss, fetch, req, socket, head);
  });
}

async function answerUpgrade(
  wss: WebSocketServer,
  fetch: Fetch,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): Promise<void> {
  const ignore = () => {};
  socket.on('error', ignore);
  const accepted: { onOpen?: (ws: WebSocket, socket: Duplex) => void } = {};
  let response: Response;
  try {
    response = await fetch(toRequest(req), {
      incoming: req,
      acceptWebSocket: (onOpen) => {
        accepted.onOpen = onOpen;
      },
    });
  } catch {
    response = new Response(null, { status: 400 });
  }
  if (socket.destroyed) return;
  const onOpen = accepted.onOpen;
  if (onOpen && response.ok) {
    socket.off('error', ignore);
    wss.handleUpgrade(req, socket, head, (ws) => {
      wss.emit('connection', ws, req);
      onOpen(ws, socket);
    });
    return;
  }
  await writeResponse(socket, response);
}

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      headers.append(name, one);
    }
  }
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  // No body: an upgrade request's bytes after the headers belong to the upgraded protocol.
  return new Request(url, { method: req.method ?? 'GET', headers });
}

async function writeResponse(socket: Duplex, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`];
  response.headers.forEach((value, name) => {
    if (!skipped.has(name) && name !== 'set-cookie') lines.push(`${name}: ${value}`);
  });
  for (const cookie of response.headers.getSetCookie()) lines.push(`set-cookie: ${cookie}`);
  lines.push(`content-length: ${body.length}`, 'connection: close');
  if (!socket.destroyed)
    socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body]));
}
