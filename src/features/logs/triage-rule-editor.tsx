import { TelemetryText } from '../../ui/telemetry-text';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { logsMutations, SEVERITIES, type Log, type TriageSeverity } from '../../api/queries/logs';
import { Button } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { WriteFailure } from '../../ui/write-failure';
import { severityLabels } from './logs-search';
import styles from './triage-rule-editor.module.css';

/** The rule's severity as the log shows it: an override, or none (`source`). */
function currentSeverity(log: Log): TriageSeverity {
  if (!log.triage.rule_applied) return 'source';
  const effective = SEVERITIES.find((s) => s === log.triage.effective_severity);
  return effective !== undefined && effective !== log.severity ? effective : 'source';
}

/**
 * The triage rule of this log's kind (same project, source, service and message template):
 * a severity shown instead of the captured one, and whether such logs are ignored. A rule
 * changes what lists show, never the captured data.
 */
export function TriageRuleEditor({ log, canManage }: { log: Log; canManage: boolean }) {
  const id = useId();
  const mutation = useMutation(logsMutations.setTriageRule());
  const saved = { severity: currentSeverity(log), ignored: log.triage.ignored };
  const [draft, setDraft] = useState(saved);
  const [base, setBase] = useState(saved);
  if (base.severity !== saved.severity || base.ignored !== saved.ignored) {
    // The log was read again (after a save, or another person's change): start from it.
    setBase(saved);
    setDraft(saved);
  }
  const changed = draft.severity !== saved.severity || draft.ignored !== saved.ignored;

  const save = (e: FormEvent) => {
    e.preventDefault();
    mutation.mutate({ logId: log.id, ...draft });
  };

  return (
    <form className={styles.editor} onSubmit={save} aria-labelledby={`${id}-title`}>
      <div className={styles.head}>
        <h3 id={`${id}-title`} className={styles.title}>
          Triage rule
        </h3>
        <span className={styles.state}>
          {log.triage.rule_applied ? 'A rule applies' : 'No rule'}
        </span>
      </div>
      <p className={styles.text}>
        Applies to this log and every log of the same kind in its project: same source (
        <code>
          <TelemetryText text={log.source} />
        </code>
        ), service and message pattern (numbers, ids and quoted text set aside).
      </p>
      {!canManage && (
        <Callout tone="info">
          Only owners and admins of the project’s organization can change triage rules.
        </Callout>
      )}
      <fieldset className={styles.fields} disabled={!canManage || mutation.isPending}>
        <legend className="visually-hidden">Rule</legend>
        <div className={styles.field}>
          <label htmlFor={`${id}-severity`} className={styles.label}>
            Show severity as
          </label>
          <select
            id={`${id}-severity`}
            className={styles.select}
            value={draft.severity}
            onChange={(e) => setDraft({ ...draft, severity: e.target.value as TriageSeverity })}
          >
            <option value="source">Captured ({severityLabels[log.severity]})</option>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {severityLabels[s]}
              </option>
            ))}
          </select>
        </div>
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={draft.ignored}
            onChange={(e) => setDraft({ ...draft, ignored: e.target.checked })}
          />
          <span>
            Ignore logs of this kind
            <span className={styles.hint}>
              They leave the active list; read them under Status: Ignored or All.
            </span>
          </span>
        </label>
      </fieldset>
      {mutation.isError && (
        <WriteFailure
          error={mutation.error}
          idempotent
          unknownOutcome="The rule may or may not have been saved."
        />
      )}
      {mutation.isSuccess && !changed && (
        <p className={styles.saved} role="status">
          Rule saved.
        </p>
      )}
      {canManage && (
        <div className={styles.actions}>
          {log.triage.rule_applied && (
            <Button
              size="sm"
              variant="ghost"
              disabled={mutation.isPending}
              onClick={() => {
                setDraft({ severity: 'source', ignored: false });
                mutation.mutate({ logId: log.id, severity: 'source', ignored: false });
              }}
            >
              Remove rule
            </Button>
          )}
          <Button
            size="sm"
            variant="primary"
            type="submit"
            disabled={!changed || mutation.isPending}
          >
            {mutation.isPending ? 'Saving…' : 'Save rule'}
          </Button>
        </div>
      )}
    </form>
  );
}
