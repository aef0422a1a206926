import { parseProjectScope, readableScope, type ProjectScopeSearch } from './project-scope';

/**
 * Reads that take exactly one project (metric series, analytics) use the layout's scope when it
 * selects exactly one project, otherwise the page's own pick when it is readable and inside a
 * selected set. `null` asks the person to pick one.
 */
export function oneProjectOf(
  search: ProjectScopeSearch,
  picked: string | undefined,
  readableIds: readonly string[],
): string | null {
  const scope = readableScope(parseProjectScope(search), readableIds);
  if (scope.kind === 'projects' && scope.ids.length === 1) return scope.ids[0] ?? null;
  if (picked === undefined || !readableIds.includes(picked)) return null;
  if (scope.kind === 'projects' && !scope.ids.includes(picked)) return null;
  return picked;
}

/** The projects a one-project picker offers: the selected set, or every readable project. */
export function oneProjectChoices<T extends { id: string }>(
  search: ProjectScopeSearch,
  projects: readonly T[],
): T[] {
  const scope = readableScope(
    parseProjectScope(search),
    projects.map((p) => p.id),
  );
  return scope.kind === 'projects'
    ? projects.filter((p) => scope.ids.includes(p.id))
    : [...projects];
}

/** Whether the layout's scope already names the one project (no picker needed). */
export function scopeIsOneProject(search: ProjectScopeSearch, readableIds: readonly string[]) {
  const scope = readableScope(parseProjectScope(search), readableIds);
  return scope.kind === 'projects' && scope.ids.length === 1;
}
