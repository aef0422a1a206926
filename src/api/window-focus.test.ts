import { focusManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listenForWindowFocus } from './window-focus';

describe('listenForWindowFocus', () => {
  afterEach(() => {
    // Back to React Query's own listener for other tests.
    focusManager.setEventListener((handleFocus) => {
      const listener = () => handleFocus();
      window.addEventListener('visibilitychange', listener, false);
      return () => window.removeEventListener('visibilitychange', listener);
    });
  });

  it('tells queries on a window focus and on a visibility change', () => {
    listenForWindowFocus();
    const seen = vi.fn();
    const unsubscribe = focusManager.subscribe(seen);
    window.dispatchEvent(new Event('focus'));
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    expect(seen).toHaveBeenCalledTimes(2);
    expect(seen).toHaveBeenLastCalledWith(true);
    unsubscribe();
  });

  it('keeps "focused" meaning visible: a hidden tab is not focused', () => {
    listenForWindowFocus();
    const hidden = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const seen = vi.fn();
    const unsubscribe = focusManager.subscribe(seen);
    window.dispatchEvent(new Event('focus'));
    expect(seen).toHaveBeenLastCalledWith(false);
    expect(focusManager.isFocused()).toBe(false);
    hidden.mockRestore();
    expect(focusManager.isFocused()).toBe(true);
    unsubscribe();
  });
});
