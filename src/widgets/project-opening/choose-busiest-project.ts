/**
 * Which project a page that reads one project at a time (funnels, the analytics overview, the
 * metric explorer) opens on when the header's scope holds several: the one last used there
 * (when it is still among the choices), otherwise the busiest one in the range by the page's
 * own count (product actions, metric names). Nothing while the counts are still being read;
 * none when no project counts anything in the range (a read there would show nothing); failed
 * when no project could be opened because reads failed (never told as "nothing there").
 */
export type BusiestProjectChoice =
  | { kind: 'last-used'; projectId: string }
  | { kind: 'busiest'; projectId: string; count: number }
  | { kind: 'reading' }
  | { kind: 'none' }
  | { kind: 'failed' };

/** Why a page opened on a project. */
export type OpenReason = 'last-used' | 'busiest';

/** The most projects counted to choose one; the rest are left to the picker. */
export const PROJECTS_COUNTED = 20;

export function chooseBusiestProject(
  choices: readonly { id: string }[],
  lastUsed: string | null,
  /** The count in range per project: a number once read, `null` when the read failed. */
  countOf: (projectId: string) => number | null | undefined,
): BusiestProjectChoice {
  if (lastUsed !== null && choices.some((p) => p.id === lastUsed))
    return { kind: 'last-used', projectId: lastUsed };
  let best: { projectId: string; count: number } | null = null;
  let failed = false;
  for (const p of choices.slice(0, PROJECTS_COUNTED)) {
    const count = countOf(p.id);
    if (count === undefined) return { kind: 'reading' };
    // A failed read is passed over: another project can still be opened.
    if (count === null) failed = true;
    else if (count > 0 && (best === null || count > best.count)) best = { projectId: p.id, count };
  }
  if (best !== null) return { kind: 'busiest', ...best };
  return failed ? { kind: 'failed' } : { kind: 'none' };
}

/**
 * Each counted project's count from its read (as `useQueries` answers, in the same order):
 * the number once read, `null` when the read failed, `undefined` while it is pending.
 */
export function countsOfReads<T>(
  counted: readonly { id: string }[],
  reads: readonly { isError: boolean; data: T | undefined }[],
  countOf: (data: T) => number,
): (projectId: string) => number | null | undefined {
  const counts = new Map(
    counted.map((p, i) => {
      const read = reads[i];
      return [
        p.id,
        read?.isError ? null : read?.data === undefined ? undefined : countOf(read.data),
      ];
    }),
  );
  return (projectId) => counts.get(projectId);
}
