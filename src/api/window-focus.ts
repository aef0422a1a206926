import { focusManager } from '@tanstack/react-query';

/**
 * React Query reads again on `visibilitychange` only, so a person who comes back to a window
 * that stayed visible (two windows side by side, a click from another application) would keep
 * seeing the old read. This listens to the window's `focus` as well. "Focused" still means
 * "the tab is visible", so interval reads keep stopping in a hidden tab and only there.
 */
export function listenForWindowFocus(target: Window = window): void {
  focusManager.setEventListener((handleFocus) => {
    // No argument: React Query re-evaluates visibility and tells its queries.
    const listener = () => handleFocus();
    target.addEventListener('visibilitychange', listener, false);
    target.addEventListener('focus', listener, false);
    return () => {
      target.removeEventListener('visibilitychange', listener);
      target.removeEventListener('focus', listener);
    };
  });
}
