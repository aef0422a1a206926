import { randomUUID } from 'node:crypto';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context } from 'hono';
import { checkAccountBearer, type BearerCheck } from '../auth/credentials';
import { onToolConnectionRevoked } from '../auth/tool-connection-revocations';
import { ApiError, fail } from '../core/api-error';
import type { Deps } from '../core/deps';
import { hashToken } from '../domain/secrets';
import { bearerOf } from '../http/account-auth';
import type { AppEnv } from '../http/app-env';
import { errorResponses } from '../http/openapi-shared';
import { createMcpSessions, type McpSession, type McpSessions } from './mcp-sessions';
import { createLookoutMcpServer } from './mcp-tools';
import { inProcessReader } from './service-reader';

export const MCP_PATH = '/mcp';
const SERVER_VERSION = '0.1.0';
/** Tool calls are small JSON-RPC messages; anything larger is refused (413) unread. */
const MAX_BODY_BYTES = 256 * 1024;

const MANAGE = { code: 'manage_tool_connection', target: 'tool_connections' } as const;

type Refusal = Exclude<BearerCheck, { ok: true }>['reason'] | 'missing' | 'not_tool_connection';

const refusals: Record<Refusal, string> = {
  missing: 'the MCP server needs a tool connection token',
  unknown: 'this token is unknown, or no longer valid',
  expired: 'the MCP server needs a tool connection token',
  revoked: 'the MCP server needs a tool connection token',
  ingest_key: 'the MCP server needs a tool connection token, not an ingest key',
  not_tool_connection: 'the MCP server needs a tool connection token, not an account token',
  tool_connection_expired: 'this tool connection has expired',
  tool_connection_revoked: 'this tool connection was revoked',
};

/** `401 unauthorized` in the spec's envelope: what to give the assistant instead. */
function refused(reason: Refusal): ApiError {
  const ended = reason === 'tool_connection_expired' || reason === 'tool_connection_revoked';
  return new ApiError({
    status: 401,
    code: 'unauthorized',
    error: refusals[reason],
    next: ended
      ? 'Create a new tool connection (Account, Tool connections), then give the assistant its token.'
      : 'Send Authorization: Bearer <tool connection token>. Create one under Account, Tool connections; sign-in and account tokens are not accepted here.',
    nextAction: MANAGE,
  });
}

const sessionNotFound = () =>
  new ApiError({
    status: 404,
    code: 'not_found',
    error: 'MCP session not found or ended',
    next: 'Start a new session: send an initialize request without an Mcp-Session-Id header.',
    nextAction: { code: 'fix_request', target: 'request' },
  });

const registries = new WeakMap<Deps, McpSessions>();

/** The open sessions of the service built on `deps` (tests count them). */
export const mcpSessionsOf = (deps: Deps): McpSessions | undefined => registries.get(deps);

/**
 * The MCP server (Streamable HTTP, stateful sessions, JSON answers) for AI assistants,
 * authenticated by a tool connection (the spec's delegated credential) on EVERY request, not
 * only when the session starts: a revoked or expired connection's sessions are refused (`401`)
 * at their next request and closed, and a revoke in this instance closes them at once.
 * Only POST (messages) and DELETE (end a session): the server sends nothing unasked, so it
 * offers no GET stream (`405`, which the protocol allows) and holds no long-lived connection.
 */
export function registerMcpRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const sessions = createMcpSessions(deps.now);
  registries.set(deps, sessions);
  onToolConnectionRevoked(deps, (id) => sessions.endWhere((s) => s.connectionId === id));
  const readerFor = (token: string) => inProcessReader(app, token);

  async function open(req: Request, authInfo: AuthInfo, connectionId: string, tokenHash: string) {
    const row = await deps.store.toolConnections.byId(connectionId);
    let session: McpSession | undefined;
    const server = createLookoutMcpServer(readerFor, SERVER_VERSION);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      maxRequestBodySize: MAX_BODY_BYTES,
      onsessioninitialized: (id) => {
        session = {
          id,
          transport,
          server,
          connectionId,
          tokenHash,
          expiresAt: row?.expiresAt ?? null,
          lastUsedAt: deps.now(),
        };
        sessions.add(session);
      },
      onsessionclosed: (id) => {
        sessions.forget(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.forget(transport.sessionId);
    };
    await server.connect(transport);
    const res = await transport.handleRequest(req, { authInfo });
    // Not an initialize request (the transport answered 400): nothing to keep.
    if (!session) void server.close().catch(() => undefined);
    return res;
  }

  const handle = async (c: Context<AppEnv>) => {
    const token = bearerOf(c.req.header('authorization'));
    if (!token) throw refused('missing');
    const tokenHash = hashToken(token);
    const check = await checkAccountBearer(deps, token);
    if (!check.ok) {
      sessions.endWhere((s) => s.tokenHash === tokenHash);
      throw refused(check.reason);
    }
    const delegation = check.principal.delegation;
    if (!delegation) throw refused('not_tool_connection');
    sessions.sweep();
    // A declared size over the bound is refused in the envelope; a chunked body over it is
    // cut by the transport itself (413, as a JSON-RPC error).
    if (Number(c.req.header('content-length') ?? 0) > MAX_BODY_BYTES)
      throw fail.invalidJson(413, 'request body is too large', 'Send one MCP message at a time.');
    const authInfo: AuthInfo = { token, clientId: delegation.connectionId, scopes: ['read'] };
    const sessionId = c.req.header('mcp-session-id');
    if (sessionId === undefined) {
      return open(c.req.raw, authInfo, delegation.connectionId, tokenHash);
    }
    const session = sessions.get(sessionId);
    // Another connection's session looks the same as none: its id reveals nothing.
    if (!session || session.connectionId !== delegation.connectionId) throw sessionNotFound();
    session.lastUsedAt = deps.now();
    return session.transport.handleRequest(c.req.raw, { authInfo });
  };

  app.post(MCP_PATH, handle);
  app.delete(MCP_PATH, handle);

  app.openAPIRegistry.registerComponent('securitySchemes', 'toolConnectionBearer', {
    type: 'http',
    scheme: 'bearer',
    description:
      'A tool connection token (`lk_tc_…`, from `/api/account/tool-connections`). Only the MCP server at `/mcp` requires it; the read routes accept it too (see accountBearer).',
  });
  for (const method of ['post', 'delete'] as const) {
    app.openAPIRegistry.registerPath({
      method,
      path: MCP_PATH,
      tags: ['mcp'],
      summary:
        method === 'post'
          ? 'MCP messages (Streamable HTTP)'
          : 'End an MCP session (Streamable HTTP)',
      description:
        "Ours: Lookout's investigations as a Model Context Protocol server (Streamable HTTP transport, stateful sessions via `Mcp-Session-Id`, JSON answers, no GET stream). Authenticated on every request by a tool connection token; any other credential, a revoked or expired connection, gives `401 unauthorized` in the error envelope, and a revoked connection's sessions end. Its tools read the routes of this API with the connection's scope; see docs/mcp.md.",
      security: [{ toolConnectionBearer: [] }],
      responses: {
        200: { description: 'A JSON-RPC answer (JSON), or an empty body for a notification.' },
        ...errorResponses(401, 404, 413),
      },
    });
  }
}
