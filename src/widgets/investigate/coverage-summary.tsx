import type { InvestigationCoverage } from '../../api/queries/investigations';
import { Callout } from '../../ui/callout';
import {
  coverageHeadline,
  truncatedSections,
  truncationSentence,
  unavailableSentence,
} from './coverage-text';
import styles from './evidence.module.css';

/** Coverage before any evidence: a 200 does not prove the evidence is complete. */
export function CoverageSummary({ coverage }: { coverage: InvestigationCoverage }) {
  const cut = truncatedSections(coverage);
  return (
    <section aria-label="Coverage">
      <Callout tone={coverage.complete ? 'success' : 'warning'} title={coverageHeadline(coverage)}>
        {cut.length > 0 && (
          <ul className={styles.coverageList} aria-label="Cut sections">
            {cut.map((s) => (
              <li key={s.section}>{truncationSentence(s)}</li>
            ))}
          </ul>
        )}
        {coverage.unavailable.length > 0 && (
          <ul className={styles.coverageList} aria-label="Unavailable sections">
            {coverage.unavailable.map((u) => (
              <li key={u.section}>{unavailableSentence(u)}</li>
            ))}
          </ul>
        )}
      </Callout>
    </section>
  );
}
