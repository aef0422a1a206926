import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { createAttemptThrottle } from '../../auth/attempt-throttle';
import { requireAccount } from '../../http/account-auth';
import { tokenThrottled } from '../../http/attempt-throttled';
import { keepAlive } from '../../http/feed-heartbeat';
import { endStalledSocket, endUnlessClosedWithin } from '../../http/end-stalled-socket';
import { addressKey, clientAddress } from '../../http/client-address';
import { ApiError, fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { strictQuery } from '../../http/strict-query';
import type { UpgradeBindings } from '../../http/websocket-upgrade';

const connectLiveFeed = { code: 'connect_live_feed', target: 'live_feed' };
/** RFC 6455: the base64 of 16 random bytes (the `ws` server refuses anything else, without our envelope). */
const WEBSOCKET_KEY = /^[+/0-9A-Za-z]{22}==$/;

/** How long a closed live connection's peer has to read the close before the socket is cut. */
const CLOSE_GRACE_MS = 10_000;

function invalidUpgrade(status: 400 | 405 | 426, error: string): ApiError {
  return new ApiError({
    status,
    code: 'invalid_websocket_upgrade',
    error,
    next: 'Open GET /api/feed/live?ticket=<ticket> as a WebSocket with a fresh ticket from POST /api/feed/ticket.',
    nextAction: connectLiveFeed,
    ...(status === 405 ? { headers: { Allow: 'GET' } } : {}),
  });
}

const ticketRoute = createRoute({
  method: 'post',
  path: '/api/feed/ticket',
  tags: ['live feed'],
  summary: 'A short-lived ticket to open the live feed',
  description:
    'Account bearer, no body. The ticket opens one connection and must be used within `expires_in_seconds` (60 by default); it bounds when the connection starts, not how long it lasts.',
  security: bearerSecurity,
  request: { query: z.object({}).strict() },
  responses: {
    200: jsonContent(
      z.object({ ticket: z.string(), expires_in_seconds: z.number().int() }).openapi('FeedTicket'),
      'A single-use ticket.',
    ),
    ...errorResponses(401, 422),
  },
});

export function registerFeedRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const throttle = createAttemptThrottle(deps);
  app.openapi(
    {
      ...ticketRoute,
      middleware: [
        requireAccount(deps, { session: false }),
        strictQuery(ticketRoute.request.query),
      ] as const,
    },
    async (c) => {
      const { ticket, expiresInSeconds } = await deps.feed.issueTicket(
        c.get('principal').accountId,
      );
      return c.json({ ticket, expires_in_seconds: expiresInSeconds }, 200);
    },
  );

  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/api/feed/live',
    tags: ['live feed'],
    summary: 'The live feed (WebSocket)',
    description:
      'Upgrade with `?ticket=<ticket>` (URL-encoded; never a bearer in the URL). Messages are `{type, data}` with `type` one of `native_log`, `native_issue` (issue response version 1), `native_trace_span`, `native_action`; skip other types. Only events of projects the account can read are sent. The feed does not replay: after reconnecting, re-read the lists. Heartbeat (an extension): every 30 s by default the service pings the connection and sends `{type: "heartbeat", data: {interval_seconds}}`; a connection that has not answered a ping by the next one is closed. A client that hears nothing (no message) for about two intervals should reconnect. Close code 4001 means the account signed out everywhere: sign in again before reconnecting. Refused tickets are counted per client address; past the allowance the upgrade is answered `429 rate_limited`.',
    request: { query: z.object({ ticket: z.string() }) },
    responses: {
      101: { description: 'Switching Protocols; then messages.' },
      ...errorResponses(400, 401, 429),
      405: jsonContent(
        z.object({ code: z.literal('invalid_websocket_upgrade') }).passthrough(),
        'Not GET.',
      ),
      426: jsonContent(
        z.object({ code: z.literal('invalid_websocket_upgrade') }).passthrough(),
        'Not a WebSocket upgrade.',
      ),
    },
  });

  app.all('/api/feed/live', async (c) => {
    if (c.req.method !== 'GET') throw invalidUpgrade(405, 'the live feed is opened with GET');
    // Present only when the request arrived as an HTTP upgrade (server/http/websocket-upgrade.ts);
    // checked before the ticket is redeemed, so a refused request does not spend it.
    const accept = (c.env as Partial<UpgradeBindings> | undefined)?.acceptWebSocket;
    if (c.req.header('upgrade')?.toLowerCase() !== 'websocket' || !accept) {
      throw invalidUpgrade(426, 'the live feed needs a WebSocket upgrade');
    }
    const key = c.req.header('sec-websocket-key');
    if (!key || !WEBSOCKET_KEY.test(key) || c.req.header('sec-websocket-version') !== '13') {
      throw invalidUpgrade(400, 'the WebSocket upgrade headers are missing or invalid');
    }
    const ticket = c.req.query('ticket');
    const refused = () =>
      fail.unauthorized(
        'the live-feed ticket is missing, used, expired or invalid',
        'Create a new ticket with POST /api/feed/ticket (sign in again if that fails), then reconnect.',
        { code: 'authorize_request', target: 'live_feed' },
      );
    // No ticket, nothing guessed: not counted.
    if (!ticket) throw refused();
    const address = addressKey(clientAddress(c, deps.config.trustedProxies));
    const attempt = await throttle.begin('/api/feed/live', address, throttle.tokenKeys(address));
    if (attempt.throttled) throw tokenThrottled(attempt);
    const grant = await deps.feed.redeem(ticket);
    if (!grant) {
      // A ticket is spent when redeemed, so a refused one cannot be told from one never
      // issued: every refusal counts (a console uses each ticket once, at once).
      const throttled = await attempt.failed();
      throw throttled ? tokenThrottled(throttled) : refused();
    }
    await attempt.succeeded();
    accept((ws, socket) => {
      // One publish sends many messages in a row: held back until the next tick, they leave
      // in one write instead of one system call each (the fan-out's largest cost under load).
      let corked = false;
      const detach = deps.feed.attach(grant, {
        send: (text) => {
          if (!corked) {
            corked = true;
            socket.cork();
            process.nextTick(() => {
              corked = false;
              socket.uncork();
            });
          }
          ws.send(text);
        },
        close: (code, reason) => {
          ws.close(code, reason);
          // The hub closes a connection that fell 16 MiB behind: it may never read its close.
          endUnlessClosedWithin(socket, CLOSE_GRACE_MS);
        },
        backlog: () => ws.bufferedAmount,
      });
      // Below common proxy idle limits (60 s), so an idle connection is not cut by one, and a
      // connection that stopped answering is ended with its subscriber.
      const stopHeartbeat = keepAlive(
        ws,
        deps.config.feedHeartbeatSeconds * 1000,
        () => deps.log.info('live connection ended', { reason: 'no pong' }),
        () => endStalledSocket(socket),
      );
      const end = () => {
        stopHeartbeat();
        detach();
      };
      ws.on('close', end);
      ws.on('error', end);
    });
    // The 101 itself is written by the upgrade handler once this answer accepts.
    return c.body(null, 200);
  });
}
