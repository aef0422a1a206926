import { useDeferredValue, type ReactNode } from 'react';

/**
 * `false` in the first render and `true` in a render of its own right after, at transition
 * priority: what the page shows first is committed and painted before this part's work starts.
 * For parts whose data is already there but which are not the page's first content (a section
 * below the fold, a second chart beside the first). `enabled: false` is `true` at once.
 */
export function useAfterFirstPaint(enabled = true): boolean {
  return useDeferredValue(true, !enabled);
}

/** Shows `fallback` in the first render and `children` right after (see `useAfterFirstPaint`). */
export function AfterFirstPaint({
  fallback,
  children,
}: {
  fallback: ReactNode;
  children: ReactNode;
}) {
  return useAfterFirstPaint() ? children : fallback;
}
