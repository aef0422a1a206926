import { mergeNewestFirstPages, type TimeIdHead } from '../../store/rows/newest-first';

/** Reads each project on its own and merges (see `mergeNewestFirstPages`). */
export function mergeNewestFirst<R extends TimeIdHead>(
  projectIds: readonly string[],
  limit: number,
  readProject: (projectId: string) => R[],
): R[] {
  return mergeNewestFirstPages(projectIds.map(readProject), limit);
}
