import { TelemetryText } from '../../ui/telemetry-text';
import type { CorrectionVerification } from '../../api/queries/investigations';
import { formatUtcDateTime } from '../../lib/format-time';
import { Callout } from '../../ui/callout';
import { DeploymentEvidence } from './deployment-evidence';
import { EvidenceSection } from './evidence-section';
import styles from './evidence.module.css';
import { observationSentence, VERDICT_TEXT, verdictTone } from './verdict-text';

/** The answer to "Did the fix work?": the verdict, its reasons, then the counts behind it. */
export function VerdictEvidence({ result }: { result: CorrectionVerification }) {
  const { occurrences: o, baseline } = result;
  return (
    <>
      <Callout
        tone={verdictTone(result.verdict)}
        title={VERDICT_TEXT[result.verdict]}
        role="status"
      >
        <p className={styles.muted}>
          Verdict <code data-testid="verdict-code">{result.verdict}</code>
        </p>
        {result.reasons.length > 0 && (
          <ul className={styles.coverageList} aria-label="Reasons">
            {result.reasons.map((r) => (
              <li key={r.code}>
                {r.message} <code className={styles.muted}>({r.code})</code>
              </li>
            ))}
          </ul>
        )}
        <p>{observationSentence(result.observation)}</p>
      </Callout>
      <EvidenceSection title="Occurrences around the deployment">
        <p className={styles.muted}>
          Counted in <TelemetryText text={baseline.environment} /> ·{' '}
          <TelemetryText text={baseline.service_name} />, from the baseline occurrence of{' '}
          {formatUtcDateTime(baseline.occurred_at)} (release{' '}
          <code className={styles.mono}>
            <TelemetryText text={baseline.release} />
          </code>
          ).
        </p>
        <dl className={styles.facts}>
          <div>
            <dt>Before the deployment</dt>
            <dd className={styles.num}>{o.before.toLocaleString('en-US')}</dd>
          </div>
          <div>
            <dt>During it</dt>
            <dd className={styles.num}>{o.during.toLocaleString('en-US')}</dd>
          </div>
          <div>
            <dt>After it</dt>
            <dd className={styles.num}>{o.after.toLocaleString('en-US')}</dd>
          </div>
          <div>
            <dt>After, on the deployed release</dt>
            <dd className={styles.num}>{o.after_on_deployed_release.toLocaleString('en-US')}</dd>
          </div>
        </dl>
        {result.first_recurrence && (
          <p>
            First seen again {formatUtcDateTime(result.first_recurrence.occurred_at)} on{' '}
            <code className={styles.mono}>{result.first_recurrence.release}</code>.
          </p>
        )}
      </EvidenceSection>
      {result.recurrence_releases.length > 0 && (
        <EvidenceSection title="Releases it came back in" count={result.recurrence_releases.length}>
          <ul className={styles.rows} aria-label="Releases it came back in">
            {result.recurrence_releases.map((r) => (
              <li key={r.release} className={styles.row}>
                <span className={`${styles.grow} ${styles.mono}`}>
                  <TelemetryText text={r.release} />
                </span>
                <span className={styles.num}>
                  {r.occurrences.toLocaleString('en-US')} occurrences
                </span>
                {r.is_deployed_release && (
                  <span className={styles.muted}>the deployed release</span>
                )}
              </li>
            ))}
          </ul>
        </EvidenceSection>
      )}
      <EvidenceSection title="Deployment checked">
        <DeploymentEvidence deployments={[result.deployment]} empty="" />
      </EvidenceSection>
    </>
  );
}
