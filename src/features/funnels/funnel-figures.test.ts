import { describe, expect, it } from 'vitest';
import type { Funnel } from '../../api/queries/analytics';
import { coverageSentence, stepFigures, windowLabel } from './funnel-figures';

const funnel = (steps: Funnel['steps'], coverage: Partial<Funnel['coverage']> = {}) =>
  ({
    query: { analysis_unit: 'session' },
    steps,
    coverage: {
      selected_step_events: 18,
      usable_selected_step_events: 16,
      selected_unit_coverage_rate: 16 / 18,
      ...coverage,
    },
  }) as unknown as Funnel;

const base = (position: number, units: number) => ({
  position,
  kind: 'page_view' as const,
  event_name: `S${position}`,
  units,
  conversion_from_first: 0,
});
const mid = (position: number, units: number, dropped: number, rate: number) => ({
  ...base(position, units),
  drop_off_to_next_units: dropped,
  drop_off_to_next_rate: rate,
});
const last = (position: number, units: number, fromPrevious: number) => ({
  ...base(position, units),
  conversion_from_previous: fromPrevious,
});

describe('stepFigures', () => {
  it('gives every step its conversion from the previous one, from the service’s numbers', () => {
    const figures = stepFigures(
      funnel([mid(1, 100, 40, 0.4), mid(2, 60, 45, 0.75), last(3, 15, 0.25)]),
    );
    expect(figures.map((f) => f.fromPrevious)).toEqual([null, 0.6, 0.25]);
    expect(figures.map((f) => f.dropOff)).toEqual([
      { units: 40, rate: 0.4 },
      { units: 45, rate: 0.75 },
      null,
    ]);
  });

  it('reports 0 from a previous step without units, as the service does', () => {
    const figures = stepFigures(funnel([mid(1, 0, 0, 0), mid(2, 0, 0, 0), last(3, 0, 0)]));
    expect(figures.map((f) => f.fromPrevious)).toEqual([null, 0, 0]);
  });
});

describe('coverageSentence', () => {
  it('leads with the attributed share of the selected step events', () => {
    expect(coverageSentence(funnel([]))).toBe(
      '88.9% of selected step events could be attributed to a session (16 of 18).',
    );
    expect(coverageSentence(funnel([], { selected_step_events: 0 }))).toMatch(/No action/);
  });
});

describe('windowLabel', () => {
  it('names listed windows and others in their largest whole unit', () => {
    expect(windowLabel(3600)).toBe('1 hour');
    expect(windowLabel(7200)).toBe('2 hours');
    expect(windowLabel(90)).toBe('90 seconds');
    expect(windowLabel(172_800)).toBe('2 days');
  });
});
