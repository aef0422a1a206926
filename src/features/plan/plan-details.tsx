import { useSuspenseQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import {
  accountQueries,
  usageQueries,
  type SubscriptionReadiness,
} from '../../api/queries/account';
import { formatUtcDateTime } from '../../lib/format-time';
import { ReadBoundary } from '../../ui/read-boundary';
import { ReportSection } from '../../ui/report-section';
import { PlanStanding } from '../../widgets/plan-standing/plan-standing';
import { OrganizationGate } from './organization-gate';
import styles from './plan-page.module.css';
import {
  ACCESS_WORDS,
  INTERVAL_WORDS,
  LIMIT_LABELS,
  LIMIT_ORDER,
  limitText,
  STATE_WORDS,
} from './plan-text';

/** The subscription read, as facts, limits and the organization gate. */
export function PlanDetails() {
  const { data: readiness } = useSuspenseQuery(usageQueries.subscription());
  const { data: account } = useSuspenseQuery(accountQueries.me());
  return (
    <>
      <SubscriptionFacts readiness={readiness} />
      <ReadBoundary resetKey="plan-standing" label="Reading usage…">
        <PlanStanding on="plan" />
      </ReadBoundary>
      <OrganizationGate readiness={readiness} account={account} />
      <ReportSection
        title="Limits"
        note="What this account's plan allows in the organizations it owns. A limit of 0 means the plan allows none of it. An organization owned by someone else follows its owner's plan, shown with it above."
      >
        <table className={styles.limits}>
          <tbody>
            {LIMIT_ORDER.map((key) => (
              <tr key={key}>
                <th scope="row">{LIMIT_LABELS[key]}</th>
                <td>{limitText(readiness.limits[key])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ReportSection>
    </>
  );
}

function SubscriptionFacts({ readiness: r }: { readiness: SubscriptionReadiness }) {
  return (
    <ReportSection title="Subscription" note="As the service reports it for this account.">
      <dl className={styles.facts}>
        <Fact label="Tier">
          <span className={styles.tier}>{r.tier}</span>
        </Fact>
        <Fact label="Billing interval" raw={r.billing_interval}>
          {INTERVAL_WORDS[r.billing_interval]}
        </Fact>
        <Fact label="State" raw={r.state}>
          {STATE_WORDS[r.state]}
        </Fact>
        <Fact label="Access" raw={r.access_state}>
          {ACCESS_WORDS[r.access_state]}
        </Fact>
        <Fact label="Billing period starts">
          <Time iso={r.current_period_start} none="No billing period" />
        </Fact>
        <Fact label="Billing period ends">
          <Time iso={r.current_period_end} none="No billing period" />
        </Fact>
        <Fact label="Renews">
          <Time iso={r.renews_at} none="Does not renew" />
        </Fact>
        <Fact label="Cancels">
          <Time iso={r.cancels_at} none="Not canceled" />
        </Fact>
      </dl>
    </ReportSection>
  );
}

function Fact({ label, raw, children }: { label: string; raw?: string; children: ReactNode }) {
  return (
    <div className={styles.fact}>
      <dt>{label}</dt>
      <dd>
        <span className={styles.value}>{children}</span>
        {raw !== undefined && <code className={styles.raw}>{raw}</code>}
      </dd>
    </div>
  );
}

function Time({ iso, none }: { iso: string | null; none: string }) {
  if (iso === null) return <span className={styles.none}>{none}</span>;
  return <time dateTime={iso}>{formatUtcDateTime(iso)}</time>;
}
