import type { PreviewInput } from '../../api/queries/alerts';
import { ErrorState } from '../../ui/error-state';
import { PendingState } from '../../ui/pending-state';
import { PreviewChart } from './preview-chart';
import type { DraftProblem } from './rule-draft';
import styles from './rule-editor.module.css';
import { useRulePreview } from './use-rule-preview';

/**
 * The editor's live chart: the draft's query over the last 24 hours, read again once the form
 * rests. A draft the preview cannot read yet says which field to fill; a failed read shows the
 * service's words and a retry, never an empty chart.
 */
export function RulePreview({
  input,
  problem,
  unit,
}: {
  input: PreviewInput | null;
  problem: DraftProblem | null;
  unit: string;
}) {
  const { query, stale } = useRulePreview(input);
  return (
    <section className={styles.preview} aria-labelledby="rule-preview-title" aria-busy={stale}>
      <div className={styles.previewHead}>
        <h2 id="rule-preview-title" className={styles.sectionTitle}>
          Preview: the last 24 hours
        </h2>
        {stale && query.data !== undefined && (
          <span className={styles.previewStale} role="status">
            Updating…
          </span>
        )}
      </div>
      {input === null ? (
        <p className={styles.previewNote}>
          The preview appears once the rule can be read: {problem?.message ?? 'fill in the form.'}
        </p>
      ) : query.isError && query.data === undefined ? (
        <ErrorState error={query.error} compact reset={() => void query.refetch()} />
      ) : query.data === undefined ? (
        <PendingState label="Reading the last 24 hours…" />
      ) : (
        <>
          {query.isError && (
            <ErrorState error={query.error} compact reset={() => void query.refetch()} />
          )}
          <PreviewChart preview={query.data} unit={unit} />
        </>
      )}
    </section>
  );
}
