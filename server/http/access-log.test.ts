import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '../test-support/api-client';
import { startService, type RunningService } from '../test-support/start-service';
import type { Logger } from '../core/logger';

type Line = { level: 'info' | 'error'; message: string; fields: Record<string, string | number> };

function captureLogger(): Logger & { lines: Line[] } {
  const lines: Line[] = [];
  return {
    lines,
    info: (message, fields = {}) => lines.push({ level: 'info', message, fields }),
    error: (message, fields = {}) => lines.push({ level: 'error', message, fields }),
  };
}

/** Spec: logs record the HTTP status and `code` only, never bodies, credentials or URLs' queries. */
describe('access log', () => {
  const log = captureLogger();
  let svc: RunningService<true>;
  let accessToken = '';
  let refreshToken = '';
  let ingestKey = '';

  const requestLines = () => log.lines.filter((l) => l.message === 'request');
  const lastRequestLine = () => requestLines().at(-1)?.fields;

  beforeAll(async () => {
    svc = await startService({
      demo: true,
      log,
      extend: (app) => {
        app.get('/api/test/boom', () => {
          throw new Error('secret-internal-detail');
        });
      },
    });
    const signedIn = await signIn(svc.baseUrl, svc.creds.email, svc.creds.password);
    accessToken = signedIn.accessToken;
    refreshToken = signedIn.refreshToken;
    const projectId = svc.creds.projects[0]?.id ?? '';
    const created = await call(svc.baseUrl, 'POST', `/api/projects/${projectId}/ingest-keys`, {
      token: accessToken,
      json: { name: 'access-log key' },
    });
    expect(created.status).toBe(200);
    ingestKey = (created.body as { key: string }).key;
    await call(svc.baseUrl, 'GET', '/api/projects?search=needle-in-query', { token: accessToken });
    await call(svc.baseUrl, 'GET', '/api/projects', { token: ingestKey });
    await call(svc.baseUrl, 'GET', '/api/test/boom');
    await call(svc.baseUrl, 'POST', '/api/auth/logout', { json: { refresh_token: refreshToken } });
  });
  afterAll(() => svc.close());

  it('records method, path template, status and code', () => {
    const projectId = svc.creds.projects[0]?.id ?? '';
    const line = requestLines().find(
      (l) => l.fields.path === '/api/projects/:project_id/ingest-keys',
    );
    expect(line?.fields).toMatchObject({
      method: 'POST',
      path: '/api/projects/:project_id/ingest-keys',
      status: 200,
    });
    for (const l of requestLines()) expect(JSON.stringify(l)).not.toContain(projectId);

    const refused = requestLines().find(
      (l) => l.fields.status === 401 && l.fields.path === '/api/projects',
    );
    expect(refused?.fields).toMatchObject({ method: 'GET', code: 'unauthorized' });
    const invalidQuery = requestLines().find((l) => l.fields.status === 422);
    expect(invalidQuery?.fields).toMatchObject({
      method: 'GET',
      path: '/api/projects',
      code: 'validation_failed',
    });
  });

  it('writes one line per request, after the answer', async () => {
    const before = requestLines().length;
    await call(svc.baseUrl, 'POST', '/healthz');
    expect(requestLines().length).toBe(before + 1);
    expect(lastRequestLine()).toMatchObject({
      method: 'POST',
      status: 405,
      code: 'method_not_allowed',
    });
    await call(svc.baseUrl, 'GET', '/healthz');
    expect(lastRequestLine()).toMatchObject({ method: 'GET', path: '/healthz', status: 200 });
    expect(lastRequestLine()?.code).toBeUndefined();
  });

  it('never contains a bearer token, a body value or a query string', () => {
    expect(log.lines.length).toBeGreaterThan(5);
    const all = log.lines.map((l) => JSON.stringify(l));
    const secrets = [
      accessToken,
      refreshToken,
      ingestKey,
      svc.creds.password,
      svc.creds.account_token,
      'needle-in-query',
      'access-log key',
      'secret-internal-detail',
    ];
    for (const line of all) {
      for (const secret of secrets) expect(line).not.toContain(secret);
      expect(line).not.toContain('?');
      expect(line).not.toMatch(/lk_(?:at|rt|pat|ss|ik)_/);
    }
  });

  it('records an unexpected failure as status 500 internal_error without its message', () => {
    const line = requestLines().find((l) => l.fields.path === '/api/test/boom');
    expect(line?.fields).toMatchObject({ method: 'GET', status: 500, code: 'internal_error' });
    const errors = log.lines.filter((l) => l.level === 'error');
    expect(errors.length).toBe(1);
    expect(JSON.stringify(errors)).not.toContain('secret-internal-detail');
  });
});
