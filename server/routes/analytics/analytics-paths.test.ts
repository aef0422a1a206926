import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, type ApiResponse } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  NATIVE,
  T0,
  actionItem,
  at,
  createTenant,
  ingest,
  nativeBody,
  type Tenant,
} from '../../test-support/telemetry';

const UNTIL = at(3_600_000);
const errorText = (res: ApiResponse) => (res.body as { error: string }).error;
type Paths = {
  query: Record<string, unknown>;
  summary: Record<string, number>;
  paths: { steps: { kind: string; event_name: string }[]; units: number; share: number }[];
  truncated: boolean;
  coverage: Record<string, unknown>;
};
const seq = (b: Paths) => b.paths.map((p) => [p.steps.map((s) => s.event_name).join('>'), p.units]);

describe('POST /api/telemetry/analytics/paths', () => {
  let svc: RunningService<true>;
  let token = '';
  let projectId = '';
  let tenant: Tenant;
  const post = (json: unknown) =>
    call(svc.baseUrl, 'POST', '/api/telemetry/analytics/paths', { token, json });
  const request = (o: Record<string, unknown> = {}) => ({
    project_id: projectId,
    since: T0,
    until: UNTIL,
    ...o,
  });
  const paths = async (o: Record<string, unknown> = {}) => {
    const res = await post(request(o));
    expect(res.status, res.text).toBe(200);
    return res.body as Paths;
  };

  beforeAll(async () => {
    svc = await startService({ demo: true });
    token = svc.creds.account_token;
    const p = svc.creds.projects[0];
    projectId = p?.id ?? '';
    const a = (session: string | null, user: string, name: string, sec: number) =>
      actionItem({
        session_id: session,
        distinct_id: user,
        name,
        kind: 'page_view',
        occurred_at: at(sec * 1000),
      });
    const res = await ingest(
      svc,
      NATIVE,
      p?.ingest_key ?? '',
      nativeBody({
        actions: [
          a('s1', 'u1', 'Home', 0),
          a('s1', 'u1', 'Product', 1),
          a('s1', 'u1', 'Cart', 2),
          a('s2', 'u2', 'Search', 0),
          a('s2', 'u2', 'Home', 1),
          a('s2', 'u2', 'Product', 2),
          a('s2', 'u2', 'Cart', 3),
          a('s3', 'u1', 'Home', 10),
          a(null, 'u3', 'Home', 0),
        ],
      }),
    );
    expect(res.status, res.text).toBe(200);
    tenant = await createTenant(svc);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('counts units per sequence after the start event, most units first', async () => {
    const body = await paths({ start_event: { kind: 'page_view', event_name: 'Home' }, depth: 2 });
    expect(seq(body)).toEqual([
      ['Home>Product>Cart', 2],
      ['Home', 1],
    ]);
    expect(body.paths[0]?.share).toBe(2 / 3);
    expect(body.summary).toEqual({ units: 3, distinct_paths: 2 });
    expect(body.coverage).toMatchObject({
      events: 9,
      unit_identified_events: 8,
      excluded_events: 1,
    });
    expect(body.query).toMatchObject({ analysis_unit: 'session', depth: 2, limit: 10 });
    expect(JSON.stringify(body)).not.toMatch(/"s1"|"u1"/);
  });

  it('starts at the first action without a start event, per user on request', async () => {
    const sessions = await paths({ depth: 1, limit: 1 });
    expect(sessions.summary.units).toBe(3);
    expect(sessions.paths).toHaveLength(1);
    expect(sessions.truncated).toBe(true);
    const users = await paths({ analysis_unit: 'identified_user', depth: 5 });
    expect(seq(users)).toEqual([
      ['Home', 1],
      ['Home>Product>Cart>Home', 1],
      ['Search>Home>Product>Cart', 1],
    ]);
  });

  it('gives 200 with zero counts for a project the account cannot read', async () => {
    const body = await paths({ project_id: tenant.projectId });
    expect(body.summary).toEqual({ units: 0, distinct_paths: 0 });
    expect(body.paths).toEqual([]);
    expect(body.coverage).toMatchObject({ events: 0, excluded_events: 0 });
  });

  it('refuses bad fields with 422 validation_failed', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ depth: 0 }, /depth: must be 1 to 5/],
      [{ depth: 6 }, /depth: must be 1 to 5/],
      [{ limit: 51 }, /limit: must be 1 to 50/],
      [{ limit: 2.5 }, /limit: must be an integer/],
      [{ analysis_unit: 'device' }, /analysis_unit/],
      [{ start_event: { kind: 'page_view', event_name: '' } }, /event_name must be 1 to 256/],
      [{ since: '32d', until: undefined }, /at most 31 days/],
      [{ service_name: '  ' }, /service_name must be 1 to 256/],
      [{ steps: [] }, /unknown key steps/],
    ];
    for (const [o, text] of cases) {
      const res = await post(request(o));
      expectError(res, 422, 'validation_failed');
      expect(errorText(res)).toMatch(text);
    }
  });
});
