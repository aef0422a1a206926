/**
 * Which project an analytics page (funnels, the overview) opens on when the header's scope
 * holds several: the one last used there (when it is still among the choices), otherwise the
 * one with the most product actions in the range. Nothing while the counts are still being
 * read; none when no project has an action in the range (a read there would count zero).
 */
export type AnalyticsProjectChoice =
  | { kind: 'last-used'; projectId: string }
  | { kind: 'most-actions'; projectId: string; actions: number }
  | { kind: 'reading' }
  | { kind: 'no-actions' };

/** The most projects whose actions are counted to choose one; the rest are left to the picker. */
export const PROJECTS_COUNTED = 20;

export function chooseAnalyticsProject(
  choices: readonly { id: string }[],
  lastUsed: string | null,
  /** Actions in range per project: a number once read, `null` when the read failed. */
  actionsOf: (projectId: string) => number | null | undefined,
): AnalyticsProjectChoice {
  if (lastUsed !== null && choices.some((p) => p.id === lastUsed))
    return { kind: 'last-used', projectId: lastUsed };
  let best: { projectId: string; actions: number } | null = null;
  for (const p of choices.slice(0, PROJECTS_COUNTED)) {
    const actions = actionsOf(p.id);
    if (actions === undefined) return { kind: 'reading' };
    // A failed read is passed over: another project can still be opened.
    if (actions !== null && actions > 0 && (best === null || actions > best.actions))
      best = { projectId: p.id, actions };
  }
  return best === null ? { kind: 'no-actions' } : { kind: 'most-actions', ...best };
}
