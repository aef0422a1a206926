import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, newId, newToken } from '../domain/secrets';
import { signIn } from '../test-support/api-client';
import { startService, type RunningService } from '../test-support/start-service';
import { ApiError } from '../core/api-error';
import type { AppEnv } from './app-env';
import { requireIngestKey, requireIngestProject } from './ingest-auth';

type Svc = RunningService<true>;
type Envelope = {
  error: string;
  code: string;
  next: string;
  next_action: { code: string; target?: string };
};

const configureKey = { code: 'configure_ingest_key', target: 'project_ingest_key' };

/** A small app with the two ingest routes guarded by the middleware, answering what it saw. */
function ingestApp(svc: Svc) {
  const app = new Hono<AppEnv>();
  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json(err.toBody(), err.status);
    return c.json({ error: 'Internal error', code: 'internal_error' }, 500);
  });
  app.post('/v1/events', requireIngestKey(svc.deps, { route: 'sdk' }), (c) =>
    c.json(c.get('ingestKey')),
  );
  app.post('/api/telemetry/ingest', requireIngestKey(svc.deps, { route: 'native' }), (c) => {
    const requested = c.req.query('project_id');
    if (requested) requireIngestProject(c, requested);
    return c.json(c.get('ingestKey'));
  });
  return app;
}

async function send(app: Hono<AppEnv>, path: string, authorization?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (authorization !== undefined) headers.authorization = authorization;
  const res = await app.request(path, { method: 'POST', headers, body: '{}' });
  return { status: res.status, body: (await res.json()) as Envelope & Record<string, unknown> };
}

async function insertKey(
  svc: Svc,
  projectId: string,
  times: { expiresAt?: number; revokedAt?: number },
) {
  const key = newToken('ingest');
  const id = newId();
  await svc.deps.store.projects.createIngestKey({
    id,
    projectId,
    name: 'test key',
    keyHash: hashToken(key),
    keyPrefix: key.slice(0, 12),
    createdAt: svc.clock.now(),
    expiresAt: times.expiresAt ?? null,
    revokedAt: times.revokedAt ?? null,
  });
  return { key, id };
}

describe('requireIngestKey', () => {
  let svc: Svc;
  let app: Hono<AppEnv>;
  let accessToken = '';
  let projectId = '';
  let ingestKey = '';

  beforeAll(async () => {
    svc = await startService({ demo: true });
    app = ingestApp(svc);
    accessToken = (await signIn(svc.baseUrl, svc.creds.email, svc.creds.password)).accessToken;
    projectId = svc.creds.projects[0]?.id ?? '';
    ingestKey = svc.creds.projects[0]?.ingest_key ?? '';
  });
  afterAll(() => svc.close());

  it.each(['/v1/events', '/api/telemetry/ingest'])(
    '%s: a valid ingest key passes and names its project',
    async (path) => {
      const res = await send(app, path, `Bearer ${ingestKey}`);
      expect(res.status).toBe(200);
      expect(res.body.projectId).toBe(projectId);
      const stored = await svc.deps.store.projects.ingestKeyByHash(hashToken(ingestKey));
      expect(res.body.keyId).toBe(stored?.id);
    },
  );

  describe('SDK route (/v1/events)', () => {
    it('a missing bearer is 401 unauthorized', async () => {
      const res = await send(app, '/v1/events');
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthorized');
      expect(res.body.next).not.toBe('');
      expect(res.body.next_action).toEqual(configureKey);
    });

    it.each([
      ['an account access token', () => `Bearer ${accessToken}`],
      ['the personal account token', () => `Bearer ${svc.creds.account_token}`],
      ['a value that is no token', () => 'Bearer hello'],
      ['another scheme', () => `Basic ${ingestKey}`],
    ])('%s is 401 unauthorized', async (_name, authorization) => {
      const res = await send(app, '/v1/events', authorization());
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthorized');
      expect(res.body.next_action.code).toBe('configure_ingest_key');
    });

    it('an unknown ingest key is 401 ingest_key_invalid', async () => {
      const res = await send(app, '/v1/events', `Bearer ${newToken('ingest')}`);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('ingest_key_invalid');
      expect(res.body.next_action).toEqual(configureKey);
    });
  });

  describe('native route (/api/telemetry/ingest)', () => {
    it.each([
      ['a missing bearer', () => undefined],
      ['an account access token', () => `Bearer ${accessToken}`],
      ['the personal account token', () => `Bearer ${svc.creds.account_token}`],
      ['an unknown ingest key', () => `Bearer ${newToken('ingest')}`],
    ])('%s is 401 ingest_key_invalid', async (_name, authorization) => {
      const res = await send(app, '/api/telemetry/ingest', authorization());
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('ingest_key_invalid');
      expect(res.body.next).not.toBe('');
      expect(res.body.next_action).toEqual(configureKey);
    });

    it('a key of another project is 401 ingest_key_invalid', async () => {
      const other = svc.creds.projects[1]?.id ?? '';
      const res = await send(
        app,
        `/api/telemetry/ingest?project_id=${other}`,
        `Bearer ${ingestKey}`,
      );
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('ingest_key_invalid');
      const own = await send(
        app,
        `/api/telemetry/ingest?project_id=${projectId}`,
        `Bearer ${ingestKey}`,
      );
      expect(own.status).toBe(200);
    });
  });

  describe('revoked and expired keys (both routes)', () => {
    it.each(['/v1/events', '/api/telemetry/ingest'])(
      '%s: an expired key is 401 ingest_key_invalid',
      async (path) => {
        const { key } = await insertKey(svc, projectId, { expiresAt: svc.clock.now() });
        const res = await send(app, path, `Bearer ${key}`);
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('ingest_key_invalid');
        expect(res.body.next_action).toEqual(configureKey);
      },
    );

    it.each(['/v1/events', '/api/telemetry/ingest'])(
      '%s: a revoked key is 401 ingest_key_invalid',
      async (path) => {
        const { key } = await insertKey(svc, projectId, { revokedAt: svc.clock.now() - 1 });
        const res = await send(app, path, `Bearer ${key}`);
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('ingest_key_invalid');
      },
    );

    it('a key passes until its expiry, and is refused from then on', async () => {
      const { key, id } = await insertKey(svc, projectId, { expiresAt: svc.clock.now() + 1000 });
      const before = await send(app, '/v1/events', `Bearer ${key}`);
      expect(before.status).toBe(200);
      expect(before.body.keyId).toBe(id);
      svc.clock.advance(1000);
      expect((await send(app, '/v1/events', `Bearer ${key}`)).body.code).toBe('ingest_key_invalid');
    });

    it('no error text repeats the presented credential', async () => {
      const { key } = await insertKey(svc, projectId, { revokedAt: svc.clock.now() });
      for (const [path, token] of [
        ['/v1/events', key],
        ['/v1/events', accessToken],
        ['/api/telemetry/ingest', accessToken],
      ] as const) {
        const res = await send(app, path, `Bearer ${token}`);
        expect(JSON.stringify(res.body)).not.toContain(token);
      }
    });
  });
});
