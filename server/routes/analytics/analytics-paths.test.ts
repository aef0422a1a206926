import { describe, expect, it } from 'vitest';
import { analyticsPost, analyticsWorld } from '../../test-support/analytics';
import { T0, actionItem, at, nativeBody } from '../../test-support/telemetry';

const UNTIL = at(3_600_000);
type Paths = {
  query: Record<string, unknown>;
  summary: Record<string, number>;
  paths: { steps: { kind: string; event_name: string }[]; units: number; share: number }[];
  truncated: boolean;
  coverage: Record<string, unknown>;
};
const seq = (b: Paths) => b.paths.map((p) => [p.steps.map((s) => s.event_name).join('>'), p.units]);

describe('POST /api/telemetry/analytics/paths', () => {
  const world = analyticsWorld(async (send) => {
    const a = (session: string | null, user: string, name: string, sec: number) =>
      actionItem({
        session_id: session,
        distinct_id: user,
        name,
        kind: 'page_view',
        occurred_at: at(sec * 1000),
      });
    await send(
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
  });
  const api = analyticsPost<Paths>(world, '/api/telemetry/analytics/paths', () => ({
    since: T0,
    until: UNTIL,
  }));
  const paths = api.read;

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
    const body = await paths({ project_id: world.tenant.projectId });
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
    await api.refuses(cases);
  });
});
