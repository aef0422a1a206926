import type { SpanFilterResult } from './span-filter';
import type { SpanTree } from './span-tree';

/** The error spans that can be shown (the filter keeps them), in tree order. */
export function reachableErrors(tree: SpanTree, filter: SpanFilterResult | null): number[] {
  return filter === null ? tree.errors : tree.errors.filter((i) => filter.keep[i] === 1);
}

/**
 * The error span after (`1`) or before (`-1`) the node `from` in tree order, wrapping around
 * at the ends; from no selection, the first (or last) one. -1 when there is none.
 */
export function adjacentError(
  errors: readonly number[],
  from: number | null,
  step: 1 | -1,
): number {
  if (errors.length === 0) return -1;
  if (from === null) return (step === 1 ? errors[0] : errors[errors.length - 1]) as number;
  // Binary search for the first error after `from`.
  let lo = 0;
  let hi = errors.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((errors[mid] as number) <= from) lo = mid + 1;
    else hi = mid;
  }
  if (step === 1) return (errors[lo] ?? errors[0]) as number;
  // The last error before `from`: skip `from` itself when it is an error.
  let before = lo - 1;
  if (before >= 0 && errors[before] === from) before--;
  return (errors[before] ?? errors[errors.length - 1]) as number;
}

/** "Error 3 of 12" position of a node among the errors (1-based), or null. */
export function errorPosition(errors: readonly number[], node: number | null): number | null {
  if (node === null) return null;
  let lo = 0;
  let hi = errors.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = errors[mid] as number;
    if (v === node) return mid + 1;
    if (v < node) lo = mid + 1;
    else hi = mid - 1;
  }
  return null;
}
