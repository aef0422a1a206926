import type { ReactNode } from 'react';
import { PendingState } from '../../ui/pending-state';
import type { BusiestProjectChoice } from './choose-busiest-project';
import { NothingCounted } from './nothing-counted';
import { OpeningFailed } from './opening-failed';

/**
 * What an opener shows until its project is opened: the counts being read, a pick when no
 * project counts anything, or the failed counts as their own alert above the pick (inside the
 * callout's box it read heavy).
 */
export function OpeningState({
  choice,
  reads,
  pickCallout,
  projects,
  noun,
  consequence,
  pendingLabel,
}: {
  choice: BusiestProjectChoice;
  reads: readonly { isError: boolean; error: unknown; refetch: () => unknown }[];
  pickCallout: (note: ReactNode) => ReactNode;
  /** Projects in the scope, for the "nothing counted" sentence. */
  projects: number;
  noun: string;
  consequence: string;
  pendingLabel: string;
}) {
  if (choice.kind === 'failed')
    return (
      <>
        <OpeningFailed reads={reads} />
        {pickCallout(null)}
      </>
    );
  if (choice.kind === 'none')
    return pickCallout(
      <NothingCounted projects={projects} noun={noun} consequence={consequence} />,
    );
  return <PendingState label={pendingLabel} />;
}
