import { useDeferredValue, type ReactNode } from 'react';

/**
 * Shows `fallback` in the first render and `children` in a render of their own right after,
 * at transition priority: what is above is committed and painted before the work below starts.
 * For parts below the fold whose data is already there (the page's first content then does
 * not wait for a render of the whole page).
 */
export function AfterFirstPaint({
  fallback,
  children,
}: {
  fallback: ReactNode;
  children: ReactNode;
}) {
  const ready = useDeferredValue(true, false);
  return ready ? children : fallback;
}
