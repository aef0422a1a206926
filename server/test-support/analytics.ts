import { afterAll, beforeAll, expect } from 'vitest';
import { call, expectError, type ApiResponse } from './api-client';
import { startService, type RunningService } from './start-service';
import { NATIVE, createTenant, ingest, type Tenant } from './telemetry';

/**
 * What every analytics contract test starts from: a demo service, its first project holding
 * the actions `seed` sends (each body through the native ingest route, which must take it),
 * and a second tenant whose project the demo owner cannot read. Registers its own hooks;
 * read the fields inside tests and hooks only.
 */
export function analyticsWorld(seed: (send: (body: unknown) => Promise<void>) => Promise<void>) {
  let svc: RunningService<true> | undefined;
  let tenant: Tenant | undefined;
  const running = () => {
    if (!svc) throw new Error('the analytics world is read before its service started');
    return svc;
  };
  beforeAll(async () => {
    const s = await startService({ demo: true });
    svc = s;
    const ingestKey = s.creds.projects[0]?.ingest_key ?? '';
    await seed(async (body) => {
      const res = await ingest(s, NATIVE, ingestKey, body);
      expect(res.status, res.text).toBe(200);
    });
    tenant = await createTenant(s);
  });
  afterAll(async () => {
    await svc?.close();
  });
  return {
    get svc() {
      return running();
    },
    get token() {
      return running().creds.account_token;
    },
    /** The demo project the actions went to. */
    get projectId() {
      return running().creds.projects[0]?.id ?? '';
    },
    /** A project of another account: the demo owner reads zeros there. */
    get tenant() {
      if (!tenant) throw new Error('the analytics world is read before its tenant exists');
      return tenant;
    },
  };
}

export type AnalyticsWorld = ReturnType<typeof analyticsWorld>;

const errorText = (res: ApiResponse) => (res.body as { error: string }).error;

/**
 * One analytics POST of a world: `request` is the route's usual body (the demo project and
 * `defaults`) with overrides, `read` answers its 200 body, `refuses` checks that each case is
 * `422 validation_failed` with a matching error.
 */
export function analyticsPost<Answer>(
  world: AnalyticsWorld,
  path: string,
  defaults: () => Record<string, unknown>,
) {
  const post = (json: unknown, auth = true) =>
    call(world.svc.baseUrl, 'POST', path, { ...(auth ? { token: world.token } : {}), json });
  const request = (o: Record<string, unknown> = {}) => ({
    project_id: world.projectId,
    ...defaults(),
    ...o,
  });
  return {
    post,
    request,
    async read(o: Record<string, unknown> = {}): Promise<Answer> {
      const res = await post(request(o));
      expect(res.status, res.text).toBe(200);
      return res.body as Answer;
    },
    async refuses(cases: [Record<string, unknown>, RegExp][]): Promise<void> {
      for (const [o, text] of cases) {
        const res = await post(request(o));
        expectError(res, 422, 'validation_failed');
        expect(errorText(res)).toMatch(text);
      }
    },
  };
}
