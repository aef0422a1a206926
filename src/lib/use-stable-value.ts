import { replaceEqualDeep } from '@tanstack/react-query';
import { useState } from 'react';

/**
 * `value`, kept as the reference of an earlier render while it is deep-equal to it (plain
 * objects and arrays compared by value, as React Query shares the structure of query data).
 * For values a component builds on every render (filters from the URL, a scope's project ids)
 * that other hooks depend on: query keys, memos and effects then change only when what the
 * value holds changes, without a string round-trip.
 */
export function useStableValue<T>(value: T): T {
  const [kept, setKept] = useState(value);
  const stable = replaceEqualDeep(kept, value);
  // Storing what a render derived is React's pattern for state from props: React renders this
  // component again at once, before its children, and the next render keeps `stable`.
  if (stable !== kept) setKept(() => stable);
  return stable;
}
