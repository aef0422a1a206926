import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { alertMutations, alertQueries } from '../../api/queries/alerts';
import type { IssueDetail } from '../../api/queries/issue-detail';
import { formatUtcDateTime } from '../../lib/format-time';
import { MUTE_CHOICES, muteUntil, type MuteChoice } from '../../lib/mute-choices';
import { Button } from '../../ui/button';
import { ErrorState } from '../../ui/error-state';
import { FilterSelect } from '../../ui/filter-select';
import { WriteFailure } from '../../ui/write-failure';
import section from './issue-section.module.css';
import styles from './issue-alerts-section.module.css';

/**
 * The issue's alerts: the snooze in force (read from the service, so it shows one set
 * elsewhere too), snooze them (no issue alert fires for this issue until then), lift the
 * snooze, or start an issue alert rule for issues like this one. Anyone who reads the issue
 * may snooze it (the service's rule); creating a rule needs an owner or admin.
 */
export function IssueAlertsSection({ issue }: { issue: IssueDetail }) {
  const snooze = useMutation(alertMutations.snoozeIssue(issue.id));
  const lift = useMutation(alertMutations.unsnoozeIssue(issue.id));
  const current = useQuery(alertQueries.issueSnooze(issue.id));
  const [choice, setChoice] = useState<MuteChoice>('1440');
  const until = current.data?.until ?? null;
  return (
    <section className={section.sideSection} aria-labelledby="issue-alerts-title">
      <h2 id="issue-alerts-title" className={section.sectionTitle}>
        Alerts
      </h2>
      {current.isError ? (
        <ErrorState error={current.error} compact reset={() => void current.refetch()} />
      ) : (
        <p className={styles.state} role="status">
          {current.isPending
            ? 'Reading the snooze…'
            : until === null
              ? 'Alerts are not snoozed.'
              : `Alerts snoozed until ${formatUtcDateTime(until)}.`}
        </p>
      )}
      <div className={styles.row}>
        <FilterSelect
          aria-label="Snooze alerts for"
          empty
          value={choice}
          disabled={snooze.isPending}
          onChange={(e) => {
            const next = MUTE_CHOICES.find((c) => c.value === e.target.value);
            if (next) setChoice(next.value);
          }}
        >
          {MUTE_CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              for {c.label}
            </option>
          ))}
        </FilterSelect>
        <Button
          size="sm"
          disabled={snooze.isPending}
          onClick={() => {
            snooze.mutate(muteUntil(choice, Date.now()));
          }}
        >
          Snooze alerts
        </Button>
        {until !== null && (
          <Button size="sm" variant="ghost" disabled={lift.isPending} onClick={() => lift.mutate()}>
            Lift snooze
          </Button>
        )}
      </div>
      {snooze.isError && <WriteFailure error={snooze.error} idempotent />}
      {lift.isError && <WriteFailure error={lift.error} idempotent />}
      <p className={styles.hint}>
        A snoozed issue fires no issue alert (new, regression, counts) until then; log, metric and
        trace alerts are not affected.
      </p>
      <Link
        to="/alerts/new"
        search={{
          kind: 'issue',
          project: issue.project_id,
          issue_environment: issue.environment || undefined,
          issue_service: issue.service_name || undefined,
        }}
        className={styles.link}
      >
        New issue alert for this service
      </Link>
    </section>
  );
}
