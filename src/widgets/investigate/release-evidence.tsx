import { TelemetryText } from '../../ui/telemetry-text';
import type { ReleaseInvestigation } from '../../api/queries/investigations';
import { formatBasisPoints, formatPointChange } from '../../lib/format-share';
import { EvidenceSection } from './evidence-section';
import styles from './evidence.module.css';
import { IssueEvidenceList } from './issue-evidence-list';

/** A release's error-trace share, its top issues and the comparison with the release before. */
export function ReleaseEvidence({ bundle }: { bundle: ReleaseInvestigation }) {
  const { error_traces: t, previous_release: prev } = bundle;
  return (
    <>
      <EvidenceSection title="Traces with errors">
        <p>
          {t.trace_count === 0
            ? 'No trace of this release was stored.'
            : `${t.error_trace_count.toLocaleString('en-US')} of ${t.trace_count.toLocaleString('en-US')} traces (${formatBasisPoints(t.error_rate_basis_points)}) had an error.`}
        </p>
      </EvidenceSection>
      <EvidenceSection title="Top issues" count={bundle.top_issues.length}>
        <IssueEvidenceList
          issues={bundle.top_issues.map((i) => ({
            issue_id: i.issue_id,
            title: i.title,
            at: i.last_seen_at,
            detail: `${i.occurrences.toLocaleString('en-US')} ${i.occurrences === 1 ? 'occurrence' : 'occurrences'} · ${i.status}`,
          }))}
          empty="No issue was seen in this release."
        />
      </EvidenceSection>
      {prev && (
        <EvidenceSection title="Previous release">
          <p>
            <code className={styles.mono}>
              <TelemetryText text={prev.release} />
            </code>
            : {formatBasisPoints(prev.error_rate_basis_points)} of its traces had an error; this
            release is {formatPointChange(prev.error_rate_change_basis_points / 100)} against it.
          </p>
        </EvidenceSection>
      )}
    </>
  );
}
