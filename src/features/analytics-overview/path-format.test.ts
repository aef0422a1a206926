import { describe, expect, it } from 'vitest';
import { pathText, shareBarWidth, stepKeys } from './path-format';

describe('path formatting', () => {
  const steps = [
    { kind: 'page_view' as const, event_name: '/home' },
    { kind: 'interaction' as const, event_name: 'add_to_cart' },
    { kind: 'interaction' as const, event_name: 'add_to_cart' },
  ];

  it('reads a path in words', () => {
    expect(pathText(steps)).toBe(
      'Page view /home → Interaction add_to_cart → Interaction add_to_cart',
    );
  });

  it('keys repeated steps apart', () => {
    expect(new Set(stepKeys(steps)).size).toBe(3);
  });

  it('keeps a tiny share visible and caps the bar', () => {
    expect(shareBarWidth(0)).toBe(0);
    expect(shareBarWidth(0.001)).toBe(1);
    expect(shareBarWidth(0.42)).toBeCloseTo(42);
    expect(shareBarWidth(1.2)).toBe(100);
  });
});
