/**
 * A change of the header's scope (the projects or the time range) keeps the page and every
 * search key of it, except those the change makes meaningless. Each route says which of its
 * keys those are (its `staticData.scopeBound`): a selection inside one project (a selected
 * log, a highlighted deployment) goes with a change of projects; a cursor into a list read over
 * a range goes with a change of that range (and of the projects the list reads).
 */

/** The search keys of a page that one part of the header's scope invalidates. */
export type ScopeBoundKeys = {
  /** Dropped when the projects change. */
  project?: readonly string[];
  /** Dropped when the time range changes. */
  range?: readonly string[];
};

export type ScopePart = keyof ScopeBoundKeys;

/** The layout's keys for each part of the scope. */
const SCOPE_KEYS: Record<ScopePart, readonly string[]> = {
  project: ['project', 'projects'],
  range: ['since', 'until'],
};

type Search = Record<string, unknown>;

/**
 * The search after the header changed one part of the scope to `next` (the layout's keys of
 * that part, `undefined` to remove one). Keys the matched routes bind to that part are dropped,
 * but only when the scope really changed: choosing what is already chosen drops nothing.
 */
export function searchAfterScopeChange(
  prev: Search,
  part: ScopePart,
  next: Readonly<Record<string, string | undefined>>,
  bound: readonly (ScopeBoundKeys | undefined)[],
): Search {
  const out: Search = { ...prev };
  const changed = SCOPE_KEYS[part].some((key) => prev[key] !== next[key]);
  for (const key of SCOPE_KEYS[part]) out[key] = next[key];
  if (!changed) return out;
  for (const keys of bound) {
    for (const key of keys?.[part] ?? []) out[key] = undefined;
  }
  return out;
}
