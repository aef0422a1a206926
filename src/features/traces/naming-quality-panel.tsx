import type { TraceNamingQuality } from '../../api/queries/traces';
import { Callout } from '../../ui/callout';
import { namingAdvice, namingHeading, namingRules } from './naming-quality';
import styles from './naming-quality-panel.module.css';

/**
 * How well the first page's traces are named: the service's counts for the returned page
 * (never an account score), each with its rule, and advice from its `next_action`.
 */
export function NamingQualityPanel({ quality }: { quality: TraceNamingQuality }) {
  const advice = namingAdvice(quality);
  const heading = namingHeading(quality);
  return (
    <section className={styles.panel} aria-label={heading}>
      <header className={styles.header}>
        <h2 className={styles.title}>{heading}</h2>
        <p className={styles.scope}>
          {quality.truncated
            ? 'The newest page only, not a score of the account.'
            : 'Every trace listed here, not a score of the account.'}
        </p>
      </header>
      <dl className={styles.rules}>
        {namingRules(quality).map((r) => (
          <div
            key={r.key}
            className={styles.rule}
            data-problem={(r.problem && r.count > 0) || undefined}
          >
            <dd className={styles.count}>{r.count.toLocaleString('en-US')}</dd>
            <dt className={styles.ruleLabel}>{r.label}</dt>
            <dd className={styles.ruleText}>{r.rule}</dd>
          </div>
        ))}
      </dl>
      {advice === 'improve' && (
        <div className={styles.callout}>
          <Callout tone="warning" title="Improve span names in the SDK configuration">
            <p className={styles.advice}>
              Name server spans after their route template (<code>GET /orders/:id</code>), set{' '}
              <code>http.route</code>, and give each span a meaningful <code>operation</code> such
              as <code>http.server</code> or <code>db.query</code>.
            </p>
          </Callout>
        </div>
      )}
      {advice === 'good' && (
        <div className={styles.callout}>
          <Callout tone="success" title="Names look good">
            <p className={styles.advice}>
              No generic names, unmatched routes or generic operations in these traces.
            </p>
          </Callout>
        </div>
      )}
    </section>
  );
}
