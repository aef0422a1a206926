import { describe, expect, it } from 'vitest';
import type { AlertPreview } from '../../api/queries/alerts';
import { previewShape, previewSummary } from './preview-data';

const base: AlertPreview = {
  points: [
    { t: '2026-11-26T10:15:00Z', value: 4 },
    { t: '2026-11-26T10:00:00Z', value: 2 },
    { t: '2026-11-26T10:30:00Z', value: null },
  ],
  threshold: 3,
  op: 'above',
  would_fire: [{ start: '2026-11-26T10:15:00Z', end: '2026-11-26T10:30:00Z' }],
  deployments: [
    { release: '2.1.0', deployed_at: '2026-11-26T09:00:00Z', environment: 'production' },
  ],
  interval_minutes: 15,
};

describe('previewShape', () => {
  it('orders the buckets and spans the axis to the end of the last one', () => {
    const shape = previewShape(base);
    expect(shape.rows.map((r) => r.value)).toEqual([2, 4, null]);
    expect(shape.domain).toEqual([
      Date.parse('2026-11-26T10:00:00Z'),
      Date.parse('2026-11-26T10:45:00Z'),
    ]);
  });

  it('counts the buckets inside a would-fire span', () => {
    expect(previewShape(base).firingBuckets).toBe(1);
  });

  it('runs a span still firing at the end to the end of the axis', () => {
    const shape = previewShape({
      ...base,
      would_fire: [{ start: '2026-11-26T10:15:00Z', end: null }],
    });
    expect(shape.spans).toEqual([
      { from: Date.parse('2026-11-26T10:15:00Z'), to: Date.parse('2026-11-26T10:45:00Z') },
    ]);
    expect(shape.firingBuckets).toBe(2);
  });

  it('clamps a deployment before the first bucket to the axis start', () => {
    const [mark] = previewShape(base).marks;
    expect(mark?.x).toBe(Date.parse('2026-11-26T10:00:00Z'));
    expect(mark?.release).toBe('2.1.0');
  });

  it('keeps the threshold on the y axis when every value is below it', () => {
    expect(previewShape({ ...base, threshold: 50 }).max).toBe(50);
  });
});

describe('previewSummary', () => {
  it('says how often the rule would have fired', () => {
    expect(previewSummary(base)).toMatch(/^It would have fired once over the last 24 hours/);
    expect(previewSummary({ ...base, would_fire: [] })).toMatch(/^It would not have fired/);
    expect(previewSummary({ ...base, points: [], would_fire: [] })).toMatch(/^No data/);
  });
});
