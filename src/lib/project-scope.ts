/**
 * The project scope of the console: one project, an exact set, or every readable project.
 * In the URL it is `project=<uuid>` or `projects=<uuid>,<uuid>`; neither means all.
 */

export type ProjectScope = { kind: 'all' } | { kind: 'projects'; ids: string[] };

export type ProjectScopeSearch = { project?: string | undefined; projects?: string | undefined };

/** The service accepts an explicit set of 2 to 50 projects (spec, Common read rules). */
export const MAX_SCOPE_PROJECTS = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const ALL_PROJECTS: ProjectScope = { kind: 'all' };

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** `a,b,c` with 2 to 50 distinct UUIDs. */
export function isProjectIdList(value: string): boolean {
  const ids = value.split(',');
  return (
    ids.length >= 2 &&
    ids.length <= MAX_SCOPE_PROJECTS &&
    ids.every(isUuid) &&
    new Set(ids.map((id) => id.toLowerCase())).size === ids.length
  );
}

/** Reads the URL's values; anything invalid (or both keys at once) means all projects. */
export function parseProjectScope(search: ProjectScopeSearch): ProjectScope {
  const { project, projects } = search;
  if (project !== undefined && projects !== undefined) return ALL_PROJECTS;
  if (project !== undefined)
    return isUuid(project) ? { kind: 'projects', ids: [project] } : ALL_PROJECTS;
  if (projects !== undefined && isProjectIdList(projects)) {
    return { kind: 'projects', ids: projects.split(',') };
  }
  return ALL_PROJECTS;
}

/** The URL's values for a scope: both keys are always present so a navigation replaces them. */
export function serializeProjectScope(scope: ProjectScope): {
  project: string | undefined;
  projects: string | undefined;
} {
  if (scope.kind === 'all' || scope.ids.length === 0)
    return { project: undefined, projects: undefined };
  if (scope.ids.length === 1) return { project: scope.ids[0], projects: undefined };
  return { project: undefined, projects: scope.ids.join(',') };
}

/** The query keys of a read for a scope (`project_id` or `project_ids`; none for all). */
export function scopeQuery(scope: ProjectScope): { project_id?: string; project_ids?: string } {
  if (scope.kind === 'all' || scope.ids.length === 0) return {};
  if (scope.ids.length === 1) return { project_id: scope.ids[0] as string };
  return { project_ids: scope.ids.join(',') };
}

export function isSelected(scope: ProjectScope, id: string): boolean {
  return scope.kind === 'projects' && scope.ids.includes(id);
}

/**
 * Checks or unchecks one project. Unchecking the last one goes back to all projects; a set
 * never grows beyond what the service accepts.
 */
export function toggleProject(scope: ProjectScope, id: string): ProjectScope {
  if (scope.kind === 'all') return { kind: 'projects', ids: [id] };
  if (scope.ids.includes(id)) {
    const ids = scope.ids.filter((x) => x !== id);
    return ids.length === 0 ? ALL_PROJECTS : { kind: 'projects', ids };
  }
  if (scope.ids.length >= MAX_SCOPE_PROJECTS) return scope;
  return { kind: 'projects', ids: [...scope.ids, id] };
}

/**
 * Keeps only the projects the account can read. A scope left with none is all projects, so
 * a stale link never shows an empty scope.
 */
export function readableScope(scope: ProjectScope, readableIds: readonly string[]): ProjectScope {
  if (scope.kind === 'all') return scope;
  const known = new Set(readableIds);
  const ids = scope.ids.filter((id) => known.has(id));
  return ids.length === 0 ? ALL_PROJECTS : { kind: 'projects', ids };
}

/** What the picker's button says: `All projects`, the one project's name, or `3 projects`. */
export function scopeLabel(
  scope: ProjectScope,
  projects: readonly { id: string; name: string }[],
): string {
  if (scope.kind === 'all' || scope.ids.length === 0) return 'All projects';
  if (scope.ids.length === 1) {
    return projects.find((p) => p.id === scope.ids[0])?.name ?? '1 project';
  }
  return `${scope.ids.length} projects`;
}
