import type { InvestigationBundle } from '../../api/queries/investigations';
import { DeploymentEvidence } from './deployment-evidence';
import { EvidenceSection } from './evidence-section';
import styles from './evidence.module.css';
import { IssueEvidenceList } from './issue-evidence-list';
import { LogEvidence } from './log-evidence';
import { OccurrenceEvidence } from './occurrence-evidence';
import { ReleaseEvidence } from './release-evidence';
import { ReleaseRowEvidence } from './release-row-evidence';
import { SeriesEvidence } from './series-evidence';
import { SpanEvidence } from './span-evidence';
import { SpanEvidenceList } from './span-evidence-list';
import { TraceEvidence } from './trace-evidence';
import { VerdictEvidence } from './verdict-evidence';

/**
 * The sections a bundle holds, each with the one renderer of its type. Bundles differ in
 * which sections they hold; a section is found by its key, so any bundle renders.
 */
export function BundleSections({ bundle }: { bundle: InvestigationBundle }) {
  return (
    <div className={styles.evidence} aria-label="Application data">
      {'verdict' in bundle && <VerdictEvidence result={bundle} />}
      {'occurrence' in bundle && <OccurrenceEvidence bundle={bundle} />}
      {'span' in bundle && <SpanEvidence bundle={bundle} />}
      {'log' in bundle && (
        <EvidenceSection title="Log">
          <LogEvidence logs={[bundle.log]} empty="" />
        </EvidenceSection>
      )}
      {'series' in bundle && (
        <EvidenceSection
          title={`Series of ${bundle.series.name}`}
          count={bundle.series.series.length}
        >
          <SeriesEvidence series={bundle.series} />
        </EvidenceSection>
      )}
      {'error_traces' in bundle && <ReleaseEvidence bundle={bundle} />}
      {'trace' in bundle && bundle.trace !== null && (
        <EvidenceSection title="Trace">
          <TraceEvidence trace={bundle.trace} />
        </EvidenceSection>
      )}
      {'error_spans' in bundle && (
        <EvidenceSection title="Error spans" count={bundle.error_spans.length}>
          <SpanEvidenceList
            spans={bundle.error_spans}
            label="Error spans"
            empty="No span of this trace has an error."
          />
        </EvidenceSection>
      )}
      {'parent_chain' in bundle && (
        <EvidenceSection title="Parent spans" count={bundle.parent_chain.length}>
          <SpanEvidenceList
            spans={bundle.parent_chain}
            label="Parent spans"
            empty="This span is a root span."
          />
          {bundle.parent_missing && (
            <p className={styles.muted}>
              The chain stops at a parent that is not stored in the scope read.
            </p>
          )}
        </EvidenceSection>
      )}
      {'logs' in bundle && (
        <EvidenceSection title="Logs of the trace" count={bundle.logs.length}>
          <LogEvidence logs={bundle.logs} empty="No log carries this trace id." />
        </EvidenceSection>
      )}
      {'issues' in bundle && (
        <EvidenceSection title="Issues of the trace" count={bundle.issues.length}>
          <IssueEvidenceList
            issues={bundle.issues.map((i) => ({
              issue_id: i.issue_id,
              title: i.title,
              at: i.occurred_at,
            }))}
            empty="No issue carries this trace."
          />
        </EvidenceSection>
      )}
      {'deployments' in bundle && (
        <EvidenceSection title="Deployments" count={bundle.deployments.length}>
          <DeploymentEvidence
            deployments={bundle.deployments}
            empty="No matching deployment was recorded."
          />
        </EvidenceSection>
      )}
      {'rows' in bundle && (
        <EvidenceSection title="Release rows" count={bundle.rows.length}>
          <ReleaseRowEvidence rows={bundle.rows} empty="No release row matched." />
        </EvidenceSection>
      )}
      {'releases' in bundle && (
        <EvidenceSection title="Releases in the range" count={bundle.releases.length}>
          <ReleaseRowEvidence rows={bundle.releases} empty="No release was seen in the range." />
        </EvidenceSection>
      )}
    </div>
  );
}
