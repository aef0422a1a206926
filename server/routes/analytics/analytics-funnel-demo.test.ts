import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNNEL } from '../../demo/generate-actions';
import { call } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';

type Funnel = {
  summary: Record<string, number>;
  coverage: Record<string, number>;
  steps: { units: number; conversion_from_first: number }[];
};

describe('the demo world’s checkout funnel', () => {
  let svc: RunningService<true>;

  beforeAll(async () => {
    svc = await startService({ demo: true, config: { demoScale: 0.05 } });
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  const funnel = async (projectName: string, o: Record<string, unknown>) => {
    const project = svc.creds.projects.find((p) => p.name === projectName);
    const res = await call(svc.baseUrl, 'POST', '/api/telemetry/analytics/funnel', {
      token: svc.creds.account_token,
      json: {
        project_id: project?.id,
        since: '20d',
        analysis_unit: 'session',
        conversion_window_seconds: 3600,
        ...o,
      },
    });
    expect(res.status, res.text).toBe(200);
    return res.body as Funnel;
  };

  it('drops off step by step on the storefront, about as the generator intends', async () => {
    const body = await funnel('Storefront Web', {
      environment: 'production',
      steps: FUNNEL.map((s) => ({ kind: s.kind, event_name: s.name })),
    });
    // Every storefront session starts at Home.
    expect(body.summary.entered_units).toBeGreaterThan(50);
    expect(body.summary.entry_rate).toBe(1);
    expect(body.coverage.selected_unit_coverage_rate).toBe(1);
    const units = body.steps.map((s) => s.units);
    expect(units).toEqual([...units].sort((a, b) => b - a));
    // About 100% → 62% → 28% → 19% → 14% of sessions (a small, seeded sample).
    const expected = [1, 0.62, 0.28, 0.19, 0.14];
    body.steps.forEach((s, i) =>
      expect(Math.abs(s.conversion_from_first - (expected[i] ?? 0))).toBeLessThan(0.1),
    );
    expect(body.summary.completed_units).toBe(units[4]);
  });

  it('excludes the app’s push opens that arrive before a session', async () => {
    const body = await funnel('Mobile App', {
      steps: [
        { kind: 'interaction', event_name: 'Push opened' },
        { kind: 'screen_view', event_name: 'Home' },
      ],
    });
    expect(body.coverage.excluded_selected_step_events).toBeGreaterThan(0);
    expect(body.coverage.selected_unit_coverage_rate).toBeLessThan(1);
    // A push open has no session, so no session enters this funnel.
    expect(body.summary.entered_units).toBe(0);
  });
});
