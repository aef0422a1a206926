import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useStableValue } from './use-stable-value';

const render = <T>(first: T) =>
  renderHook(({ value }: { value: T }) => useStableValue(value), {
    initialProps: { value: first },
  });

describe('useStableValue', () => {
  it('keeps the first reference while new values are deep-equal to it', () => {
    const first = { project_ids: ['a', 'b'], since: '24h', search: undefined };
    const { result, rerender } = render(first);
    rerender({ value: { project_ids: ['a', 'b'], since: '24h', search: undefined } });
    rerender({ value: { project_ids: ['a', 'b'], since: '24h', search: undefined } });
    expect(result.current).toBe(first);
  });

  it('gives the new value once it differs, and keeps that one after', () => {
    const { result, rerender } = render<{ ids: string[] }>({ ids: ['a'] });
    rerender({ value: { ids: ['a', 'b'] } });
    const changed = result.current;
    expect(changed).toEqual({ ids: ['a', 'b'] });
    rerender({ value: { ids: ['a', 'b'] } });
    expect(result.current).toBe(changed);
  });

  it('keeps the parts that did not change', () => {
    const { result, rerender } = render({ scope: ['a', 'b'], since: '24h' });
    const scope = result.current.scope;
    rerender({ value: { scope: ['a', 'b'], since: '7d' } });
    expect(result.current.since).toBe('7d');
    expect(result.current.scope).toBe(scope);
  });

  it('treats arrays and null by value too', () => {
    const { result, rerender } = render<readonly string[] | null>(['x']);
    const ids = result.current;
    rerender({ value: ['x'] });
    expect(result.current).toBe(ids);
    rerender({ value: null });
    expect(result.current).toBeNull();
    rerender({ value: ['x'] });
    expect(result.current).toEqual(['x']);
    expect(result.current).not.toBe(ids);
  });
});
