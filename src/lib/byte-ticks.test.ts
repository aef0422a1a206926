import { describe, expect, it } from 'vitest';
import { byteTicks } from './byte-ticks';

const MiB = 1024 * 1024;

describe('byteTicks', () => {
  it('uses round multiples of one unit and reaches the top', () => {
    expect(byteTicks(40.3 * MiB)).toEqual([0, 20 * MiB, 40 * MiB, 60 * MiB]);
    expect(byteTicks(700)).toEqual([0, 200, 400, 600, 800]);
    expect(byteTicks(1500)).toEqual([0, 1024, 2048]);
  });

  it('gives a lone zero for an empty chart', () => {
    expect(byteTicks(0)).toEqual([0]);
  });
});
