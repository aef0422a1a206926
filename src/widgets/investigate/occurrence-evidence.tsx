import { TelemetryText } from '../../ui/telemetry-text';
import type { IssueInvestigation } from '../../api/queries/investigations';
import { AttributeTree } from '../../ui/attribute-tree';
import { BreadcrumbList } from '../breadcrumb-list/breadcrumb-list';
import { EvidenceSection } from './evidence-section';
import styles from './evidence.module.css';

/** The selected occurrence of an issue: exception, stack (first frames), breadcrumbs, attributes. */
export function OccurrenceEvidence({ bundle }: { bundle: IssueInvestigation }) {
  const { occurrence, stack, breadcrumbs } = bundle;
  return (
    <>
      <EvidenceSection title="Occurrence">
        <dl className={styles.facts}>
          <div>
            <dt>Event id</dt>
            <dd className={styles.mono}>{occurrence.id}</dd>
          </div>
          <div>
            <dt>Release</dt>
            <dd className={styles.mono}>
              <TelemetryText text={occurrence.release} />
            </dd>
          </div>
          <div>
            <dt>Environment</dt>
            <dd>
              <TelemetryText text={occurrence.environment} />
            </dd>
          </div>
          <div>
            <dt>SDK</dt>
            <dd>
              {occurrence.sdk_name} {occurrence.sdk_version}
            </dd>
          </div>
        </dl>
        <pre className={styles.pre} aria-label="Exception">
          <TelemetryText
            text={
              occurrence.exception
                ? `${occurrence.exception.type}${occurrence.exception.value ? `: ${occurrence.exception.value}` : ''}`
                : occurrence.message
            }
          />
        </pre>
      </EvidenceSection>
      {stack && (
        <EvidenceSection title="Stack trace" count={stack.total_frames}>
          <pre className={styles.pre} aria-label="Stack trace">
            <TelemetryText text={[stack.header, ...stack.frames.map((f) => `  ${f}`)].join('\n')} />
          </pre>
          {stack.total_frames > stack.frames.length && (
            <p className={styles.muted}>
              The first {stack.frames.length} of {stack.total_frames} frames.
            </p>
          )}
        </EvidenceSection>
      )}
      {breadcrumbs.length > 0 && (
        <EvidenceSection title="Breadcrumbs" count={breadcrumbs.length}>
          <BreadcrumbList breadcrumbs={breadcrumbs} truncated={false} />
        </EvidenceSection>
      )}
      <EvidenceSection title="Attributes">
        <AttributeTree
          attributes={occurrence.attributes}
          emptyText="This occurrence has no attributes."
        />
      </EvidenceSection>
    </>
  );
}
