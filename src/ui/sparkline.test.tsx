import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Sparkline, bucketUnit, sparkBars, sparklineSummary } from './sparkline';

describe('sparklineSummary', () => {
  it('says the total and the peak per bucket', () => {
    expect(sparklineSummary('Occurrences, last 24 hours', [0, 5, 4, 3], 3600)).toBe(
      'Occurrences, last 24 hours: 12 total, peak 5 per hour',
    );
    expect(sparklineSummary('Occurrences, last 7 days', [1200, 3], 7 * 3600)).toBe(
      'Occurrences, last 7 days: 1,203 total, peak 1,200 per 7 hours',
    );
    expect(sparklineSummary('Occurrences', [0, 0], 3600)).toBe('Occurrences: none');
  });

  it('names bucket lengths', () => {
    expect(bucketUnit(3600)).toBe('hour');
    expect(bucketUnit(2 * 3600)).toBe('2 hours');
    expect(bucketUnit(24 * 3600)).toBe('day');
    expect(bucketUnit(48 * 3600)).toBe('2 days');
  });
});

describe('sparkBars', () => {
  it('draws one bar per non-zero count scaled to the peak, oldest left', () => {
    const bars = sparkBars([0, 4, 1, 2], 40, 20);
    expect(bars).toEqual([
      { x: 10, y: 0, width: 9, height: 20 },
      { x: 20, y: 15, width: 9, height: 5 },
      { x: 30, y: 10, width: 9, height: 10 },
    ]);
  });

  it('keeps a small count visible and draws nothing without counts', () => {
    expect(sparkBars([1000, 1], 20, 20)[1]?.height).toBe(2);
    expect(sparkBars([0, 0])).toEqual([]);
    expect(sparkBars([])).toEqual([]);
  });
});

describe('Sparkline', () => {
  it('is one image named by its summary', () => {
    const { container } = render(
      <Sparkline counts={[2, 0, 1]} bucketSeconds={3600} label="Occurrences, last 3 hours" />,
    );
    expect(
      screen.getByRole('img', { name: 'Occurrences, last 3 hours: 3 total, peak 2 per hour' }),
    ).toBeTruthy();
    expect(container.querySelectorAll('rect')).toHaveLength(2);
  });
});
