import { describe, expect, it } from 'vitest';
import { planFunnel } from './funnel-plan';
import { funnelsSearchSchema, type FunnelStepSearch } from './funnels-search';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const now = Date.parse('2026-11-22T12:00:00.000Z');
const step = (name: string): FunnelStepSearch => ({ kind: 'page_view', name });
const two = [step('Home'), step('Product')];

describe('planFunnel', () => {
  it('sends the definition as the service takes it: trimmed names, range as in the URL', () => {
    const plan = planFunnel(
      { project: A, since: '7d', steps: [step(' Home '), step('Product')], environment: ' prod ' },
      [A],
      now,
    );
    expect(plan.problems).toEqual([]);
    expect(plan.request).toEqual({
      project_id: A,
      since: '7d',
      environment: 'prod',
      analysis_unit: 'session',
      conversion_window_seconds: 86_400,
      steps: [
        { kind: 'page_view', event_name: 'Home' },
        { kind: 'page_view', event_name: 'Product' },
      ],
    });
  });

  it('asks for a project and for two steps instead of sending', () => {
    expect(planFunnel({ steps: two }, [A, B], now)).toMatchObject({ project: null, request: null });
    const one = planFunnel({ project: A, steps: [step('Home')] }, [A], now);
    expect(one).toMatchObject({ needsSteps: true, request: null, problems: [] });
    // A picked project outside the readable ones is not used.
    expect(planFunnel({ analytics_project: B, steps: two }, [A], now).project).toBeNull();
    expect(planFunnel({ analytics_project: B, steps: two }, [A, B], now).project).toBe(B);
  });

  it('explains more than 8 steps, blank and over-long names, and the 31-day limits', () => {
    const plan = planFunnel(
      {
        project: A,
        since: '2026-09-01T00:00:00Z',
        until: '2026-10-15T00:00:00Z',
        steps: [
          ...Array.from({ length: 8 }, (_, i) => step(`S${i}`)),
          step(' '),
          step('x'.repeat(300)),
        ],
        window: 40 * 86_400,
      },
      [A],
      now,
    );
    expect(plan.request).toBeNull();
    expect(plan.problems.map((p) => [p.field, p.index, p.message])).toEqual([
      [
        'range',
        undefined,
        'This range covers 44 days; funnels read at most 31 days. Choose a shorter time range in the header.',
      ],
      [
        'steps',
        undefined,
        'This funnel has 10 steps; a funnel has at most 8. Remove 2 steps to read it.',
      ],
      ['step', 8, 'Step 9 has no action name.'],
      ['step', 9, "Step 10's name is 300 characters; action names are compared up to 256."],
      ['window', undefined, 'The conversion window is 40 days; it can be at most 31 days.'],
    ]);
    // Exactly 8 steps and 31 days are read.
    const limits = planFunnel(
      {
        project: A,
        since: '2026-09-01T00:00:00Z',
        until: '2026-10-02T00:00:00Z',
        steps: Array.from({ length: 8 }, (_, i) => step(`S${i}`)),
        window: 31 * 86_400,
      },
      [A],
      now,
    );
    expect(limits.problems).toEqual([]);
    expect(limits.request?.steps).toHaveLength(8);
  });

  it('runs the same funnel once per compared environment or release', () => {
    const plan = planFunnel(
      {
        project: A,
        steps: two,
        environment: 'prod',
        compare: 'environment',
        compare_a: 'production',
        compare_b: 'staging',
      },
      [A],
      now,
    );
    expect(plan.comparison?.sides.map((s) => [s.label, s.request.environment])).toEqual([
      ['production', 'production'],
      ['staging', 'staging'],
    ]);
    const releases = planFunnel(
      { project: A, steps: two, compare: 'release', compare_a: 'web@1', compare_b: 'web@2' },
      [A],
      now,
    );
    expect(releases.comparison?.sides.map((s) => s.request.release)).toEqual(['web@1', 'web@2']);
    expect(releases.request?.release).toBeUndefined();
    const half = planFunnel(
      { project: A, steps: two, compare: 'release', compare_a: 'web@1' },
      [A],
      now,
    );
    expect(half).toMatchObject({ comparison: null, comparisonIncomplete: true });
    const same = planFunnel(
      { project: A, steps: two, compare: 'release', compare_a: 'web@1', compare_b: ' web@1 ' },
      [A],
      now,
    );
    expect(same.problems[0]?.field).toBe('compare');
    expect(same.request).toBeNull();
  });
});

describe('funnelsSearchSchema', () => {
  it('keeps too many steps (to explain them) and drops what it cannot read', () => {
    const parsed = funnelsSearchSchema.parse({
      steps: Array.from({ length: 9 }, (_, i) => step(`S${i}`)),
      unit: 'device',
      window: -5,
      compare: 'service',
      analytics_project: 'nope',
    });
    expect(parsed).toEqual({ steps: expect.any(Array) });
    expect(parsed.steps).toHaveLength(9);
    expect(funnelsSearchSchema.parse({ steps: [{ kind: 'click', name: 'x' }] })).toEqual({});
  });
});
