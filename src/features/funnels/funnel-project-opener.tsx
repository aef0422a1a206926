import { useQueries } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { analyticsQueries } from '../../api/queries/analytics';
import { PendingState } from '../../ui/pending-state';
import { ACTION_CHOICE_LIMIT } from './action-choices';
import { chooseFunnelProject, PROJECTS_COUNTED } from './funnel-project-choice';
import type { FunnelsPageSearch } from './funnels-search';
import { readRangeOf } from '../../lib/read-range';

export type OpenReason = 'last-used' | 'most-actions';

/**
 * Opens the funnels page on a project when the header's scope holds several: the last one a
 * funnel was read in, otherwise the one with the most product actions in the range (each
 * project's overview is read; the same reads then feed the step picker). The choice goes into
 * the URL, so the page stays a link. With no action anywhere in the range, asks for a pick.
 */
export function FunnelProjectOpener({
  search,
  choices,
  lastUsed,
  onOpen,
  pickCallout,
}: {
  search: FunnelsPageSearch;
  choices: readonly { id: string; name: string }[];
  lastUsed: string | null;
  onOpen: (projectId: string, reason: OpenReason) => void;
  pickCallout: (note: ReactNode) => ReactNode;
}) {
  const lastUsedIsChoice = lastUsed !== null && choices.some((p) => p.id === lastUsed);
  const environment = search.environment?.trim();
  const counted = lastUsedIsChoice ? [] : choices.slice(0, PROJECTS_COUNTED);
  const reads = useQueries({
    queries: counted.map((p) =>
      analyticsQueries.overview({
        project_id: p.id,
        ...readRangeOf(search),
        ...(environment ? { environment } : {}),
        top_limit: ACTION_CHOICE_LIMIT,
      }),
    ),
  });
  const actions = new Map(
    counted.map((p, i) => {
      const read = reads[i];
      return [
        p.id,
        read?.isError ? null : read?.data === undefined ? undefined : read.data.totals.events,
      ];
    }),
  );
  const choice = chooseFunnelProject(choices, lastUsed, (id) => actions.get(id));
  const opened = choice.kind === 'last-used' || choice.kind === 'most-actions';
  const projectId = opened ? choice.projectId : null;
  const reason = choice.kind;

  useEffect(() => {
    if (projectId !== null && (reason === 'last-used' || reason === 'most-actions'))
      onOpen(projectId, reason);
  }, [projectId, reason, onOpen]);

  if (choice.kind === 'no-actions')
    return pickCallout(
      <p>
        None of {choices.length === 1 ? 'the project' : `these ${choices.length} projects`} has a
        product action in this range, so no funnel would count anything yet.
      </p>,
    );
  return (
    <PendingState
      label={
        choice.kind === 'last-used'
          ? 'Opening the project of your last funnel…'
          : 'Opening the project with the most actions in this range…'
      }
    />
  );
}
