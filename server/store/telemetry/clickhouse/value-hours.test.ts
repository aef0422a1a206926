import { describe, expect, it } from 'vitest';
import { hourRanges, valueHourBatches } from './value-hours';

const H = 3_600_000;

describe('hourRanges', () => {
  it('joins adjacent hours and keeps gaps, in any order and with repeats', () => {
    expect(hourRanges([5 * H, 2 * H, 3 * H, 9 * H, 3 * H, 4 * H])).toEqual([
      { start: 2 * H, end: 6 * H },
      { start: 9 * H, end: 10 * H },
    ]);
    expect(hourRanges([])).toEqual([]);
  });
});

describe('valueHourBatches', () => {
  const hours = new Map([
    [
      'a',
      [
        { hour: 9 * H, logs: 2 },
        { hour: 7 * H, logs: 1 },
        { hour: 3 * H, logs: 5 },
      ],
    ],
    [
      'b',
      [
        { hour: 8 * H, logs: 1 },
        { hour: 7 * H, logs: 1 },
        { hour: 1 * H, logs: 1 },
      ],
    ],
  ]);
  const batches = (wanted: number[]) => {
    const asked = [...wanted];
    return [...valueHourBatches(hours, () => asked.shift() ?? 0)].map((b) =>
      Object.fromEntries([...b].map(([p, hs]) => [p, hs.map((h) => h / H)])),
    );
  };

  it('takes the newest hours of all projects until their counts cover what is wanted', () => {
    expect(batches([3, 100])).toEqual([
      { a: [9], b: [8] },
      { a: [7, 3], b: [7, 1] },
    ]);
  });

  it("ends a batch with the other projects' logs of its last hour", () => {
    // Hour 7 covers the 4th log in project a; b's logs of hour 7 come along.
    expect(batches([4, 1, 1])).toEqual([{ a: [9, 7], b: [8, 7] }, { a: [3] }, { b: [1] }]);
  });

  it('takes an hour a batch even when nothing more is wanted, and ends', () => {
    expect(batches([0, 0, 0, 0, 0])).toEqual([
      { a: [9] },
      { b: [8] },
      { a: [7], b: [7] },
      { a: [3] },
      { b: [1] },
    ]);
  });
});
