import { describe, expect, it } from 'vitest';
import { computeFunnel, rate, type FunnelEvent, type FunnelStepDef } from './funnel';

const STEPS: FunnelStepDef[] = [
  { kind: 'page_view', eventName: 'Home' },
  { kind: 'page_view', eventName: 'Product' },
  { kind: 'interaction', eventName: 'Buy' },
];
const ev = (unit: string | null, name: string, at: number, kind?: string): FunnelEvent => ({
  unit,
  name,
  at,
  kind: kind ?? (name === 'Buy' ? 'interaction' : 'page_view'),
});

describe('computeFunnel', () => {
  it('counts ordered completion from the first step-1 event, within the window', () => {
    const r = computeFunnel(STEPS, 100, [
      ev('a', 'Home', 0),
      ev('a', 'Product', 10),
      ev('a', 'Buy', 100), // exactly at the window's end: inside
      ev('b', 'Home', 0),
      ev('b', 'Product', 50),
      ev('b', 'Buy', 101), // one ms late
      ev('c', 'Product', 0), // never entered
      ev('c', 'Buy', 5),
    ]);
    expect(r.stepUnits).toEqual([2, 2, 1]);
    expect(r.enteredUnits).toBe(2);
    expect(r.completedUnits).toBe(1);
    expect(r.selectedStepEvents).toBe(8);
    expect(r.usableSelectedStepEvents).toBe(8);
  });

  it('enters once, at the first step-1 event (a later Home does not restart the window)', () => {
    const r = computeFunnel(STEPS, 100, [
      ev('a', 'Home', 0),
      ev('a', 'Home', 500),
      ev('a', 'Product', 510),
      ev('a', 'Buy', 520),
    ]);
    expect(r.stepUnits).toEqual([1, 0, 0]);
  });

  it('ignores out-of-order events, same-time events and wrong kinds', () => {
    const r = computeFunnel(STEPS, 1000, [
      ev('a', 'Buy', 5), // before the entry
      ev('a', 'Home', 10),
      ev('a', 'Product', 10), // same millisecond as the entry: not after it
      ev('a', 'Buy', 20), // before Product
      ev('a', 'Product', 30, 'screen_view'), // wrong kind
      ev('a', 'Product', 40),
    ]);
    expect(r.stepUnits).toEqual([1, 1, 0]);
    expect(r.selectedStepEvents).toBe(5);
  });

  it('lets a repeated step use two different events, never one twice', () => {
    const steps: FunnelStepDef[] = [
      { kind: 'page_view', eventName: 'Product' },
      { kind: 'page_view', eventName: 'Product' },
    ];
    expect(computeFunnel(steps, 100, [ev('a', 'Product', 0)]).stepUnits).toEqual([1, 0]);
    expect(
      computeFunnel(steps, 100, [ev('a', 'Product', 0), ev('a', 'Product', 1)]).stepUnits,
    ).toEqual([1, 1]);
  });

  it('sorts each unit by time and leaves events without a unit out', () => {
    const r = computeFunnel(STEPS, 100, [
      ev('a', 'Buy', 30),
      ev(null, 'Home', 0),
      ev('a', 'Product', 20),
      ev('a', 'Home', 10),
    ]);
    expect(r.stepUnits).toEqual([1, 1, 1]);
    expect(r.selectedStepEvents).toBe(4);
    expect(r.usableSelectedStepEvents).toBe(3);
  });

  it('rates are fractions, 0 over an empty denominator', () => {
    expect(rate(1, 4)).toBe(0.25);
    expect(rate(0, 0)).toBe(0);
  });
});
