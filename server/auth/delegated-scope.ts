import { AsyncLocalStorage } from 'node:async_hooks';
import { ApiError } from '../core/api-error';
import type { ProjectsStore } from '../core/store/state/projects';
import type { Delegation } from './principal';

/**
 * The delegation of the request being served, if it came through a tool connection. Held per
 * request (not passed to each route) so every read route's project checks honour it: the spec's
 * delegated-credential rule lives here, not in each handler.
 */
const current = new AsyncLocalStorage<Delegation>();

/** Runs `fn` (the rest of the request) under the connection's project scope. */
export function withDelegation<T>(delegation: Delegation, fn: () => Promise<T>): Promise<T> {
  return current.run(delegation, fn);
}

export const currentDelegation = (): Delegation | undefined => current.getStore();

/** Spec: a delegated credential used for a project outside its scope gives `403 forbidden`. */
export function outsideScope(): ApiError {
  return new ApiError({
    status: 403,
    code: 'forbidden',
    error: 'this tool connection does not cover the project',
    next: 'Read one of the projects the connection covers, or create a tool connection that covers this project (Account, Tool connections). Do not retry with other ids.',
    nextAction: { code: 'manage_tool_connection', target: 'tool_connections' },
  });
}

/** A tool connection only reads: writes and the account's own routes refuse it. */
export function notForToolConnections(what: 'write' | 'account'): ApiError {
  return new ApiError({
    status: 403,
    code: 'forbidden',
    error:
      what === 'write'
        ? 'a tool connection is read-only and cannot make changes'
        : 'a tool connection cannot use the account routes',
    next: 'Make this request signed in to the console or with an account token; tool connections only read telemetry of the projects they cover.',
    nextAction: { code: 'use_account_credential', target: 'auth' },
  });
}

/**
 * The project ids a request names in its query (`project_id`, `project_ids`), lowercased.
 * Values that are not ids are left to the route's validation (422).
 */
export function namedProjects(query: (key: string) => string[] | undefined): string[] {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const values = [
    ...(query('project_id') ?? []),
    ...(query('project_ids') ?? []).flatMap((v) => v.split(',')),
  ];
  return values.map((v) => v.trim().toLowerCase()).filter((v) => uuid.test(v));
}

const WRAPPED = Symbol('delegated-scope');
/** The port a scoped one wraps (reads every project the account can read). */
const UNSCOPED = Symbol('unscoped-projects');

/**
 * The projects port as routes see it under a delegation: the readable projects are those the
 * account can read AND the connection covers (so a read with no project given reads only the
 * covered ones), and asking for one outside the scope is `403 forbidden`, readable or not
 * (the same answer for every project outside, so it reveals nothing). Outside a delegation
 * (sign-ins, personal tokens, the live feed) nothing changes.
 */
export function scopeProjects(port: ProjectsStore): ProjectsStore {
  if ((port as { [WRAPPED]?: true })[WRAPPED]) return port;
  const wrapped = {
    ...port,
    [WRAPPED]: true,
    [UNSCOPED]: port,
    async readableBy(accountId: string) {
      const all = await port.readableBy(accountId);
      const d = current.getStore();
      return d ? all.filter((p) => d.projectIds.has(p.id)) : all;
    },
    async readable(accountId: string, projectId: string) {
      const d = current.getStore();
      if (d && !d.projectIds.has(projectId.toLowerCase())) throw outsideScope();
      return port.readable(accountId, projectId);
    },
  };
  return wrapped;
}

/**
 * A record read by id that the connection's projects do not hold: when the account could read
 * it in a project outside the connection's scope, that is the spec's `403 forbidden` (the
 * delegated rule), not a `404`; the caller answers its own `404` otherwise. `find` looks the
 * record up among the given project ids. Outside a delegation, nothing to do.
 */
export async function refuseOutsideScope(
  projects: ProjectsStore,
  accountId: string,
  find: (projectIds: string[]) => Promise<unknown>,
): Promise<void> {
  const d = current.getStore();
  if (!d) return;
  const base = (projects as { [UNSCOPED]?: ProjectsStore })[UNSCOPED] ?? projects;
  const others = (await base.readableBy(accountId))
    .map((p) => p.id)
    .filter((id) => !d.projectIds.has(id));
  if (others.length > 0 && (await find(others)) != null) throw outsideScope();
}
