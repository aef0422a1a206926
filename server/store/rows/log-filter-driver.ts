import type { AttributeFilter } from '../../domain/read-rules/attribute-filters';

/**
 * Attribute filters in the order a filtered log list walks them: the first drives the walk,
 * the others are checked on the same log's index rows. Equality walks the value index
 * straight to the matching logs; strings first, as they tend to be the most selective.
 */
export function inDriverOrder<T extends { f: AttributeFilter }>(filters: readonly T[]): T[] {
  const rank = (x: T) => (x.f.operator !== 'eq' ? 2 : x.f.type === 'string' ? 0 : 1);
  return [...filters].sort((a, b) => rank(a) - rank(b));
}
