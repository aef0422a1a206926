import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_LIMITS } from '../../domain/investigation-bounds';
import { call, expectError } from '../../test-support/api-client';
import {
  BIG_TRACE,
  getAs,
  longestString,
  seedInvestigationWorld,
  type InvestigationWorld,
} from '../../test-support/investigation-world';
import { startService, type RunningService } from '../../test-support/start-service';
import { at } from '../../test-support/telemetry';

type Neighbour = Record<string, unknown> & { name: string };
type Bundle = {
  subject: Record<string, unknown>;
  action: Record<string, unknown> & { properties: { note: string } };
  trace: { trace_id: string } | null;
  session: { before: Neighbour[]; after: Neighbour[] };
  coverage: {
    sections: { section: string; status: string; included: number; omitted: number | null }[];
    unavailable: { section: string; reason: string }[];
  };
};

describe('GET /api/telemetry/actions/{action_id}/investigation', () => {
  let svc: RunningService<false>;
  let w: InvestigationWorld;
  const path = (id: string, q = '') => `/api/telemetry/actions/${id}/investigation${q}`;

  beforeAll(async () => {
    svc = await startService();
    w = await seedInvestigationWorld(svc);
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  it('takes no query keys; unknown and unreadable are 404 alike; 400; 401', async () => {
    expectError(
      await getAs(svc, w.token, path(w.actionIds.middle, '?x=1')),
      422,
      'validation_failed',
    );
    const unknown = await getAs(svc, w.token, path('00000000-0000-4000-8000-000000000000'));
    expectError(unknown, 404, 'not_found');
    expect((await getAs(svc, w.token, path(w.actionIds.other))).body).toEqual(unknown.body);
    expectError(await getAs(svc, w.token, path('x')), 400, 'invalid_path');
    expectError(await call(svc.baseUrl, 'GET', path(w.actionIds.middle)), 401, 'unauthorized');
  });

  it('the action, its trace and 10 session neighbours on each side, without identities', async () => {
    const res = await getAs(svc, w.token, path(w.actionIds.middle));
    expect(res.status, res.text).toBe(200);
    const b = res.body as Bundle;
    expect(b.subject).toMatchObject({
      kind: 'action',
      name: 'Place order',
      status: null,
      content_trust: 'untrusted_telemetry',
      occurred_at: at(15 * 60_000),
    });
    // The action itself as the action list shows it (its own ids included), bounded.
    expect(b.action).toMatchObject({
      id: w.actionIds.middle,
      distinct_id: 'user-1',
      session_id: 'session-inv',
    });
    expect(b.action.properties.note).toHaveLength(BUNDLE_LIMITS.attribute_chars);
    expect(b.trace?.trace_id).toBe(BIG_TRACE);
    expect(b.session.before.map((a) => a.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `step ${i + 5}`),
    );
    expect(b.session.after.map((a) => a.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `step ${i + 16}`),
    );
    for (const a of [...b.session.before, ...b.session.after]) {
      expect(a).not.toHaveProperty('distinct_id');
      expect(a).not.toHaveProperty('session_id');
      expect(a).not.toHaveProperty('properties');
    }
    expect(longestString(b)).toBeLessThanOrEqual(BUNDLE_LIMITS.text_chars);
    expect(b.coverage.sections.find((s) => s.section === 'session')).toMatchObject({
      status: 'truncated',
      included: 20,
      omitted: null,
    });
  });

  it('an action without a session or trace says so', async () => {
    const b = (await getAs(svc, w.token, path(w.actionIds.lonely))).body as Bundle;
    expect(b.session).toEqual({ before: [], after: [] });
    expect(b.coverage.unavailable.map((u) => u.section).sort()).toEqual(['session', 'trace']);
  });
});
