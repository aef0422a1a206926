/** A change to a page's URL search: keys to set (others kept), or a function of the previous. */
export type SearchUpdate<TSearch> = Partial<TSearch> | ((prev: TSearch) => TSearch);

/** The router's `search` reducer for an update: merges keys into the previous search. */
export function mergeSearch<TSearch extends object>(
  update: SearchUpdate<TSearch>,
): (prev: TSearch) => TSearch {
  return (prev) => (typeof update === 'function' ? update(prev) : { ...prev, ...update });
}
