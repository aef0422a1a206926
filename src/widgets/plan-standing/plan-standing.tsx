import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { usageQueries } from '../../api/queries/account';
import { AlertIcon, CheckIcon, CloseIcon } from '../../ui/icons';
import { ReportSection } from '../../ui/report-section';
import styles from './plan-standing.module.css';
import { periodTexts, standingRows, type PeriodText, type StandingTone } from './standing-text';

const TONE_ICONS: Record<StandingTone, typeof CheckIcon> = {
  allowed: CheckIcon,
  limited: AlertIcon,
  refused: CloseIcon,
};

/**
 * What the account can do now (telemetry and each gated write) and which period is which,
 * from the subscription and usage reads. Usage and Plan both show it, so they cannot disagree;
 * `on` names the page it is on, and the other one is linked.
 */
export function PlanStanding({ on }: { on: 'usage' | 'plan' }) {
  const { data: readiness } = useSuspenseQuery(usageQueries.subscription());
  const { data: usage } = useSuspenseQuery(usageQueries.current());
  const rows = standingRows(readiness, usage);
  const periods = periodTexts(readiness, usage);
  return (
    <>
      <ReportSection
        title="What the plan allows now"
        note={
          <>
            This account on the <span className={styles.mono}>{readiness.tier}</span> plan,{' '}
            {readiness.access_state === 'paused' ? 'access paused' : 'access active'}. The same on{' '}
            {on === 'usage' ? <Link to="/plan">Plan</Link> : <Link to="/usage">Usage</Link>}.
          </>
        }
      >
        <table className={styles.table}>
          <caption className="visually-hidden">What the plan allows now</caption>
          <tbody>
            {rows.map((r) => {
              const Icon = TONE_ICONS[r.tone];
              return (
                <tr key={r.action}>
                  <th scope="row">{r.action}</th>
                  <td className={styles.statusCell}>
                    <span className={styles.status} data-tone={r.tone}>
                      <Icon className={styles.icon} aria-hidden="true" />
                      {r.status}
                    </span>
                  </td>
                  <td className={styles.detail}>{r.detail}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <p className={styles.note}>
          An organization you belong to but do not own follows its owner&rsquo;s plan; its gates are
          shown with it on Plan and Projects.
        </p>
      </ReportSection>
      <ReportSection
        title="Which period is which"
        note="Two periods, on purpose: allowances follow the calendar month, billing follows the day the plan started."
      >
        <dl className={styles.periods}>
          <Period period={periods.usage} />
          <Period period={periods.billing} />
        </dl>
      </ReportSection>
    </>
  );
}

function Period({ period }: { period: PeriodText }) {
  return (
    <div className={styles.period}>
      <dt>{period.label}</dt>
      <dd>
        <span className={period.range === null ? styles.none : styles.range}>
          {period.range ?? 'None'}
        </span>
        <span className={styles.periodDetail}>{period.detail}</span>
      </dd>
    </div>
  );
}
