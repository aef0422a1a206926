import { useQueries } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { analyticsQueries } from '../../api/queries/analytics';
import { readRangeOf } from '../../lib/read-range';
import type { TimeRangeSearch } from '../../lib/time-range';
import { OpeningState } from './opening-state';
import {
  chooseBusiestProject,
  countsOfReads,
  PROJECTS_COUNTED,
  type OpenReason,
} from './choose-busiest-project';

/** Why an analytics page opened on the busiest project. */
export const ANALYTICS_BUSIEST_REASON = 'the project with the most product actions in this range';

/**
 * Opens an analytics page on a project when the header's scope holds several: the last one
 * used there, otherwise the one with the most product actions in the range (each project's
 * overview is read with the page's own `topLimit`, so the same reads then feed the page). The
 * choice goes into the URL, so the page stays a link. With no action anywhere in the range,
 * asks for a pick.
 */
export function AnalyticsProjectOpener({
  search,
  topLimit,
  choices,
  lastUsed,
  onOpen,
  pickCallout,
}: {
  search: TimeRangeSearch & { environment?: string | undefined };
  topLimit: number;
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
        top_limit: topLimit,
      }),
    ),
  });
  const choice = chooseBusiestProject(
    choices,
    lastUsed,
    countsOfReads(counted, reads, (overview) => overview.totals.events),
  );
  const opened = choice.kind === 'last-used' || choice.kind === 'busiest';
  const projectId = opened ? choice.projectId : null;
  const reason = choice.kind;

  useEffect(() => {
    if (projectId !== null && (reason === 'last-used' || reason === 'busiest'))
      onOpen(projectId, reason);
  }, [projectId, reason, onOpen]);

  return (
    <OpeningState
      choice={choice}
      reads={reads}
      pickCallout={pickCallout}
      projects={choices.length}
      noun="product action"
      consequence="nothing to count yet"
      pendingLabel={
        choice.kind === 'last-used'
          ? 'Opening the project you last used here…'
          : 'Opening the project with the most actions in this range…'
      }
    />
  );
}
