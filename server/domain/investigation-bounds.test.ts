import { describe, expect, it } from 'vitest';
import { CoverageBuilder } from './bundle-coverage';
import { BUNDLE_LIMITS, boundValue, clip, newCounter, splitStack } from './investigation-bounds';

describe('investigation bounds', () => {
  it('clips strings without splitting a surrogate pair, and counts each cut', () => {
    const cut = newCounter();
    expect(clip('abc', 3, cut)).toBe('abc');
    expect(cut.strings).toBe(0);
    expect(clip('ab😀', 3, cut)).toBe('ab');
    expect(clip('abcdef', 4, cut)).toBe('abcd');
    expect(cut.strings).toBe(2);
  });

  it('bounds keys, array items, depth and strings of attribute values', () => {
    const cut = newCounter();
    const wide = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`k${i}`, i]));
    const value = {
      wide,
      list: Array.from({ length: 60 }, (_, i) => i),
      deep: { a: { b: { c: { d: 1 } } } },
      long: 'x'.repeat(500),
    };
    const out = boundValue(value, cut) as Record<string, unknown>;
    expect(Object.keys(out.wide as object)).toHaveLength(BUNDLE_LIMITS.attribute_keys);
    expect(out.list).toHaveLength(BUNDLE_LIMITS.attribute_keys);
    expect(out.deep).toEqual({ a: { b: { c: {} } } });
    expect(out.long).toHaveLength(BUNDLE_LIMITS.attribute_chars);
    expect(cut).toEqual({ strings: 1, values: 20 + 10 + 1 });
  });

  it('splits a stack into its header and at most 20 frame lines', () => {
    const cut = newCounter();
    const stack = ['Error: x', ...Array.from({ length: 30 }, (_, i) => `  at f${i}`), '', ''].join(
      '\n',
    );
    const s = splitStack(stack, cut);
    expect(s.header).toBe('Error: x');
    expect(s.frames).toHaveLength(BUNDLE_LIMITS.stack_frames);
    expect(s.frames[0]).toBe('at f0');
    expect(s.totalFrames).toBe(30);
  });
});

describe('bundle coverage', () => {
  it('is complete only when nothing was cut or missing', () => {
    const ok = new CoverageBuilder();
    ok.add('logs', 3, { limit: 50, more: false });
    expect(ok.build()).toMatchObject({ complete: true, truncated_sections: [], unavailable: [] });

    const cov = new CoverageBuilder();
    cov.add('logs', 50, { limit: 50, more: true });
    cov.add('stack', 20, { limit: 20, more: 480 });
    const cut = newCounter();
    cut.strings = 2;
    cov.add('occurrence', 1, { cut });
    cov.unavailable('trace', 'no trace id');
    const built = cov.build();
    expect(built.complete).toBe(false);
    expect(built.truncated_sections).toEqual(['logs', 'stack', 'occurrence']);
    expect(built.unavailable).toEqual([{ section: 'trace', reason: 'no trace id' }]);
    expect(built.sections[0]).toMatchObject({ status: 'truncated', omitted: null });
    expect(built.sections[1]).toMatchObject({ omitted: 480, truncated: true });
    expect(built.sections[2]).toMatchObject({ omitted: 0, truncated_strings: 2, truncated: true });
    expect(built.sections[3]).toMatchObject({ status: 'unavailable', included: 0 });
  });
});
