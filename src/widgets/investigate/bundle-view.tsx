import type { ReactNode } from 'react';
import type { InvestigationBundle } from '../../api/queries/investigations';
import { BundleSections } from './bundle-sections';
import { CoverageSummary } from './coverage-summary';
import { NextActions } from './next-actions';
import { SubjectHeader } from './subject-header';

/**
 * Any investigation bundle: its subject, then its coverage (before any evidence: what was cut
 * or missing decides how far the rest can be trusted), then its sections and hints.
 */
export function BundleView({
  bundle,
  note,
}: {
  bundle: InvestigationBundle;
  /** A line about how the bundle was chosen (which occurrence), under the subject. */
  note?: ReactNode;
}) {
  return (
    <>
      <SubjectHeader subject={bundle.subject} />
      {note}
      <CoverageSummary coverage={bundle.coverage} />
      <BundleSections bundle={bundle} />
      <NextActions hints={bundle.next_actions} />
    </>
  );
}
