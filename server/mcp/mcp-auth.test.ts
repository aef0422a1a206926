import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuePersonalToken } from '../auth/credentials';
import { call, expectError, signIn, type ApiResponse } from '../test-support/api-client';
import { startService, type RunningService } from '../test-support/start-service';
import { createTenant, type Tenant } from '../test-support/telemetry';
import { mcpSessionsOf } from './mcp-route';

/**
 * /mcp accepts a tool connection and nothing else, on every request: no bearer, an account's
 * own bearer, an ingest key, a revoked or an expired connection are `401 unauthorized` in the
 * error envelope, and the sessions of a connection that stops being valid end.
 */

const MANAGE = { code: 'manage_tool_connection', target: 'tool_connections' };
const PROTOCOL = '2025-06-18';
const HOUR = 3_600_000;

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: PROTOCOL,
    capabilities: {},
    clientInfo: { name: 'contract-test', version: '1' },
  },
};

describe('the MCP server’s credential', () => {
  let svc: RunningService<false>;
  let tenant: Tenant;
  let owner = '';

  const mcp = (opts: { token?: string; session?: string; json?: unknown; method?: string }) =>
    call(svc.baseUrl, opts.method ?? 'POST', '/mcp', {
      token: opts.token,
      json: 'json' in opts ? opts.json : initialize,
      headers: {
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': PROTOCOL,
        ...(opts.session ? { 'mcp-session-id': opts.session } : {}),
      },
    });

  async function connection(o: { expires_at?: string } = {}) {
    const res = await call(svc.baseUrl, 'POST', '/api/account/tool-connections', {
      token: owner,
      json: { name: 'Assistant', project_ids: [tenant.projectId], ...o },
    });
    expect(res.status, res.text).toBe(200);
    return res.body as { id: string; token: string };
  }

  async function openSession(token: string): Promise<string> {
    const res = await mcp({ token });
    expect(res.status, res.text).toBe(200);
    const id = res.headers.get('mcp-session-id');
    expect(id).toBeTruthy();
    const ready = await mcp({
      token,
      session: id ?? '',
      json: { jsonrpc: '2.0', method: 'notifications/initialized' },
    });
    expect(ready.status, ready.text).toBe(202);
    return id ?? '';
  }

  const listTools = (token: string, session: string) =>
    mcp({ token, session, json: { jsonrpc: '2.0', id: 2, method: 'tools/list' } });

  const expectRefused = (res: ApiResponse) => expectError(res, 401, 'unauthorized', MANAGE);

  beforeAll(async () => {
    svc = await startService();
    tenant = await createTenant(svc, { tier: 'pro', password: 'correct horse battery' });
    owner = await issuePersonalToken(svc.deps, tenant.accountId);
  });
  afterAll(() => svc.close());

  it('opens a session with a tool connection and lists its tools', async () => {
    const { token } = await connection();
    const session = await openSession(token);
    const res = await listTools(token, session);
    expect(res.status, res.text).toBe(200);
    const names = (res.body as { result: { tools: { name: string }[] } }).result.tools.map(
      (t) => t.name,
    );
    expect(names).toContain('get_issue');
  });

  it('refuses a request without a bearer', async () => {
    expectRefused(await mcp({}));
  });

  it('refuses the account’s own bearer (a personal token, a sign-in)', async () => {
    expectRefused(await mcp({ token: owner }));
    const signedIn = await signIn(svc.baseUrl, tenant.email, 'correct horse battery');
    expectRefused(await mcp({ token: signedIn.accessToken }));
  });

  it('refuses an ingest key and an unknown token', async () => {
    expectRefused(await mcp({ token: tenant.ingestKey }));
    expectRefused(await mcp({ token: 'lk_tc_not-a-real-token' }));
  });

  it('refuses a revoked connection at the next request of its open session, and ends it', async () => {
    const { id, token } = await connection();
    const session = await openSession(token);
    expect(mcpSessionsOf(svc.deps)?.get(session)).toBeDefined();
    const revoke = await call(svc.baseUrl, 'DELETE', `/api/account/tool-connections/${id}`, {
      token: owner,
    });
    expect(revoke.status, revoke.text).toBe(200);
    // Ended at once by the revoke, before any request of the session.
    expect(mcpSessionsOf(svc.deps)?.get(session)).toBeUndefined();
    expectRefused(await listTools(token, session));
    expectRefused(await mcp({ token }));
  });

  it('refuses an expired connection at the next request of its open session, and ends it', async () => {
    const expires = new Date(svc.clock.now() + HOUR).toISOString();
    const { token } = await connection({ expires_at: expires });
    const session = await openSession(token);
    expect((await listTools(token, session)).status).toBe(200);
    svc.clock.advance(HOUR);
    const res = await listTools(token, session);
    expectRefused(res);
    expect((res.body as { error: string }).error).toBe('this tool connection has expired');
    expect(mcpSessionsOf(svc.deps)?.get(session)).toBeUndefined();
  });

  it('does not let another connection use a session', async () => {
    const a = await connection();
    const b = await connection();
    const session = await openSession(a.token);
    expectError(await listTools(b.token, session), 404, 'not_found');
    expect((await listTools(a.token, session)).status).toBe(200);
  });

  it('answers a GET (no server stream) with 405, and an unknown session with 404', async () => {
    const { token } = await connection();
    const get = await call(svc.baseUrl, 'GET', '/mcp', { token });
    expectError(get, 405, 'method_not_allowed');
    expectError(await listTools(token, 'no-such-session'), 404, 'not_found');
  });

  it('refuses a body over its bound in the envelope', async () => {
    const { token } = await connection();
    const big = { ...initialize, params: { ...initialize.params, pad: 'x'.repeat(300_000) } };
    expectError(await mcp({ token, json: big }), 413, 'invalid_json');
  });

  it('ends a session on DELETE', async () => {
    const { token } = await connection();
    const session = await openSession(token);
    const res = await mcp({ token, session, method: 'DELETE', json: undefined });
    expect(res.status, res.text).toBe(200);
    expect(mcpSessionsOf(svc.deps)?.get(session)).toBeUndefined();
  });
});
