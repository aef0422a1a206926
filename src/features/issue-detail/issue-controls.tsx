import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import {
  issueDetailMutations,
  type IssueDetail,
  type IssueDetailPriority,
  type IssueChange,
  type IssueDetailStatus,
  type IssueRuleSeverity,
} from '../../api/queries/issue-detail';
import { severityLabels, type SeverityName } from '../../ui/severity-badge';
import { WriteFailure } from '../../ui/write-failure';
import { AssigneePicker } from './assignee-picker';
import { useSerialSender } from './use-serial-sender';
import styles from './issue-controls.module.css';

const STATUSES: { value: IssueDetailStatus; label: string }[] = [
  { value: 'unresolved', label: 'Unresolved' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'archived', label: 'Archived' },
];
const PRIORITIES: { value: IssueDetailPriority; label: string }[] = [
  { value: 'high', label: 'High' },
  { value: 'medium', label: 'Medium' },
  { value: 'low', label: 'Low' },
];
const SEVERITIES: readonly SeverityName[] = ['info', 'warning', 'error', 'critical'];

/** The rule as the issue shows it: an override, or none (`source`, the captured severity). */
function ruleSeverity(issue: IssueDetail): IssueRuleSeverity {
  return issue.triage.rule_applied ? issue.triage.effective_severity : 'source';
}

/**
 * Status, priority (manual or derived), assignee and the severity rule of the issue. Each
 * change is sent at once; a failed one is shown with the service's `next` and the control
 * keeps showing what the service last said.
 */
export function IssueControls({ issue, canManage }: { issue: IssueDetail; canManage: boolean }) {
  const id = useId();
  const change = useMutation(issueDetailMutations.change(issue.id));
  const rule = useMutation(issueDetailMutations.setSeverityRule(issue.id));
  const busy = change.isPending || rule.isPending;
  // Controls stay enabled while a change is saving: disabling the focused one would drop the
  // keyboard user's focus to the page. A change asked for meanwhile waits for the answer.
  const disabled = !canManage;
  const changes = useSerialSender<IssueChange>(
    (body, settled) => change.mutate(body, settled),
    (kept, next) => ({ ...kept, ...next }),
  );
  const rules = useSerialSender<IssueRuleSeverity>(
    (severity, settled) => rule.mutate(severity, settled),
    (_kept, next) => next,
  );
  const send = changes.request;
  // While a change is on its way (or waits for one) the control shows what was asked; then
  // what the service said.
  const pending = { ...(change.isPending ? change.variables : undefined), ...changes.waiting };
  const status = pending.status ?? issue.status;
  const priority = pending.priority ?? issue.priority;
  const severityRule =
    rules.waiting ?? (rule.isPending ? rule.variables : undefined) ?? ruleSeverity(issue);

  return (
    <div className={styles.controlsWrap}>
      <div className={styles.controls}>
        <fieldset className={styles.segmented} disabled={disabled}>
          <legend className="visually-hidden">Status</legend>
          {STATUSES.map((s) => (
            <label key={s.value} className={styles.segment} data-value={s.value}>
              <input
                type="radio"
                name={`${id}-status`}
                value={s.value}
                checked={status === s.value}
                onChange={() => send({ status: s.value })}
              />
              <span>{s.label}</span>
            </label>
          ))}
        </fieldset>

        <div className={styles.control}>
          <label htmlFor={`${id}-priority`} className={styles.controlLabel}>
            Priority
          </label>
          <select
            id={`${id}-priority`}
            className={styles.select}
            value={priority}
            disabled={disabled}
            onChange={(e) => send({ priority: e.target.value as IssueDetailPriority })}
          >
            {PRIORITIES.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
          <span
            className={styles.sourceMark}
            data-source={issue.priority_source}
            title={
              issue.priority_source === 'manual'
                ? 'Set by a person; it stays fixed when the severity changes.'
                : 'Follows the effective severity: error and critical give high, warning medium, info low.'
            }
          >
            {issue.priority_source === 'manual' ? 'Manual' : 'Derived'}
          </span>
        </div>

        <div className={styles.control}>
          <span className={styles.controlLabel} id={`${id}-assignee`}>
            Assignee
          </span>
          <AssigneePicker
            issue={issue}
            disabled={disabled}
            labelledBy={`${id}-assignee`}
            onAssign={(assignee) => send({ assignee })}
          />
        </div>

        <div className={styles.control}>
          <label htmlFor={`${id}-severity`} className={styles.controlLabel}>
            Severity
          </label>
          <select
            id={`${id}-severity`}
            className={styles.select}
            value={severityRule}
            disabled={disabled}
            onChange={(e) => rules.request(e.target.value as IssueRuleSeverity)}
          >
            <option value="source">Captured ({severityLabels[issue.severity]})</option>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {severityLabels[s]}
              </option>
            ))}
          </select>
          <span
            className={styles.sourceMark}
            data-source={issue.triage.rule_applied ? 'manual' : 'derived'}
            title="A severity rule applies to every current and future occurrence of this issue; it never changes what was captured."
          >
            {issue.triage.rule_applied ? 'Rule' : 'As captured'}
          </span>
        </div>

        {busy && (
          <span className={styles.saving} role="status">
            Saving…
          </span>
        )}
      </div>
      {!canManage && (
        <p className={styles.note}>
          Only owners and admins of the project’s organization can change status, priority, assignee
          and severity rules.
        </p>
      )}
      {change.isError && (
        <WriteFailure
          error={change.error}
          idempotent
          unknownOutcome="The change may or may not have been saved; the issue is read again before anything else is sent."
        />
      )}
      {rule.isError && (
        <WriteFailure
          error={rule.error}
          idempotent
          unknownOutcome="The severity rule may or may not have been saved."
        />
      )}
    </div>
  );
}
