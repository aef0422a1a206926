import { useQueries } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { metricQueries } from '../../api/queries/metrics';
import { OpeningState } from '../../widgets/project-opening/opening-state';
import {
  chooseBusiestProject,
  countsOfReads,
  PROJECTS_COUNTED,
  type OpenReason,
} from '../../widgets/project-opening/choose-busiest-project';

/** Why the metric explorer opened on the busiest project. */
export const METRICS_BUSIEST_REASON = 'the project with the most metric names in this range';

/**
 * Opens the metric explorer on a project when the header's scope holds several: the one with
 * the most metric names in the range (each project's name catalog, which the explorer then
 * reads anyway). The choice goes into the URL, so the page stays a link. With no metric
 * anywhere in the range, asks for a pick.
 */
export function MetricProjectOpener({
  since,
  choices,
  onOpen,
  pickCallout,
}: {
  since: string;
  choices: readonly { id: string; name: string }[];
  onOpen: (projectId: string, reason: OpenReason) => void;
  pickCallout: (note: ReactNode) => ReactNode;
}) {
  const counted = choices.slice(0, PROJECTS_COUNTED);
  const reads = useQueries({
    queries: counted.map((p) => metricQueries.names({ project_id: p.id, since })),
  });
  const choice = chooseBusiestProject(
    choices,
    null,
    countsOfReads(counted, reads, (catalog) => catalog.names.length),
  );
  const projectId = choice.kind === 'busiest' ? choice.projectId : null;

  useEffect(() => {
    if (projectId !== null) onOpen(projectId, 'busiest');
  }, [projectId, onOpen]);

  return (
    <OpeningState
      choice={choice}
      reads={reads}
      pickCallout={pickCallout}
      projects={choices.length}
      noun="metric sample"
      consequence="nothing to chart yet"
      pendingLabel="Opening the project with the most metrics in this range…"
    />
  );
}
