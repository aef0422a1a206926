import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { alertMutations, type AlertKind, type AlertRule } from '../../api/queries/alerts';
import type { Project } from '../../api/queries/projects';
import { nextSubmission, type IdempotentSubmission } from '../../lib/idempotency-key';
import { Button, buttonClass } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { SegmentedChoice } from '../../ui/segmented-choice';
import { TextField } from '../../ui/text-field';
import { WriteFailure } from '../../ui/write-failure';
import { IssueConditionFields } from './issue-condition-fields';
import { LabelledSelect } from './labelled-select';
import { LogConditionFields } from './log-condition-fields';
import { MetricConditionFields } from './metric-condition-fields';
import { NotifyFields } from './notify-fields';
import {
  draftHasThreshold,
  emptyDraft,
  KIND_LABELS,
  previewInputOf,
  ruleInputOf,
  unitOf,
  type RuleDraft,
} from './rule-draft';
import styles from './rule-editor.module.css';
import { rulePermission } from './rule-permission';
import { RulePreview } from './rule-preview';
import { ThresholdFields } from './threshold-fields';
import { TraceConditionFields } from './trace-condition-fields';

const KIND_OPTIONS = (Object.keys(KIND_LABELS) as AlertKind[]).map((value) => ({
  value,
  label: KIND_LABELS[value],
}));

const KIND_HINTS: Record<AlertKind, string> = {
  issue: 'New issues, regressions, or an issue passing a number of events or users.',
  log: 'The number of logs matching a logs-explorer query in a window.',
  metric: 'A metric series (the metrics explorer’s query) above or below a value.',
  trace:
    'The share of a service’s traces with an error, or a duration percentile of its root spans.',
};

/**
 * The rule editor: what the rule watches (by kind), the live preview of the last 24 hours,
 * when it fires and resolves, and where it notifies. Members see the form read-only, with the
 * reason; a refused save shows the service's words beside the button.
 */
export function RuleEditor({
  initial,
  rule,
  projects,
  onSaved,
}: {
  initial: RuleDraft;
  /** The saved rule being changed; absent when creating. */
  rule?: AlertRule;
  projects: readonly Project[];
  onSaved: (rule: AlertRule) => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const [submission, setSubmission] = useState<IdempotentSubmission | null>(null);
  const create = useMutation(alertMutations.createRule());
  const change = useMutation(alertMutations.changeRule(rule?.id ?? ''));
  const save = rule ? change : create;

  const project = projects.find((p) => p.id === draft.projectId);
  const permission = rulePermission(project);
  const preview = previewInputOf(draft);
  const checked = ruleInputOf(draft);
  // A problem is shown beside its field once the person tried to save, or as soon as the
  // preview needs the field (it says so itself).
  const problem = submitted && !checked.ok ? checked.problem : null;
  const unit = unitOf(draft);
  const update = (patch: Partial<RuleDraft>) => setDraft((d) => ({ ...d, ...patch }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!checked.ok || !permission.allowed) return;
    if (rule) {
      const { name, condition, notify, enabled } = checked.value;
      change.mutate(
        {
          name,
          condition,
          notify,
          resolve_threshold: checked.value.resolve_threshold ?? null,
          ...(enabled !== undefined ? { enabled } : {}),
        },
        { onSuccess: onSaved },
      );
      return;
    }
    const next = nextSubmission(submission, checked.value);
    setSubmission(next);
    create.mutate({ body: checked.value, idempotencyKey: next.key }, { onSuccess: onSaved });
  };

  return (
    <form className={styles.editor} onSubmit={onSubmit} noValidate aria-label="Alert rule">
      {!permission.allowed && project !== undefined && (
        <Callout tone="info" role="status" title="You can read this rule, not change it">
          {permission.reason}
        </Callout>
      )}
      <fieldset className={styles.plain} disabled={!permission.allowed && project !== undefined}>
        <section className={styles.card} aria-labelledby="rule-what">
          <h2 id="rule-what" className={styles.sectionTitle}>
            What it watches
          </h2>
          <div className={styles.fieldRow}>
            <TextField
              label="Name"
              value={draft.name}
              placeholder="Checkout errors"
              onChange={(e) => update({ name: e.target.value })}
              error={problem?.field === 'name' ? problem.message : undefined}
              className={styles.nameField}
            />
            {rule === undefined ? (
              <LabelledSelect
                label="Project"
                value={draft.projectId}
                options={[
                  ...(draft.projectId === '' ? [{ value: '', label: 'Choose a project…' }] : []),
                  ...projects.map((p) => ({ value: p.id, label: p.name })),
                ]}
                onChange={(projectId) => update({ projectId, webhookIds: [] })}
                error={problem?.field === 'project' ? problem.message : undefined}
              />
            ) : (
              <p className={styles.fact}>
                <span className={styles.factLabel}>Project</span>
                {project?.name ?? rule.project_id}
              </p>
            )}
          </div>
          {rule === undefined ? (
            <SegmentedChoice
              label="Kind of alert"
              caption="Kind"
              value={draft.kind}
              options={KIND_OPTIONS}
              onChange={(kind) =>
                setDraft((d) => ({
                  ...emptyDraft(d.projectId, kind),
                  name: d.name,
                  logQuery: d.logQuery,
                  inbox: d.inbox,
                  webhookIds: d.webhookIds,
                }))
              }
            />
          ) : (
            <p className={styles.fact}>
              <span className={styles.factLabel}>Kind</span>
              {KIND_LABELS[draft.kind]}
            </p>
          )}
          <p className={styles.hint}>{KIND_HINTS[draft.kind]}</p>
          {draft.kind === 'log' && (
            <LogConditionFields
              query={draft.logQuery}
              projectId={draft.projectId}
              onChange={(logQuery) => update({ logQuery })}
            />
          )}
          {draft.kind === 'issue' && (
            <IssueConditionFields
              projectId={draft.projectId}
              event={draft.issueEvent}
              filters={draft.issueFilters}
              onEvent={(issueEvent) =>
                update({
                  issueEvent,
                  ...(issueEvent === 'event_count' || issueEvent === 'user_count'
                    ? { op: 'above', threshold: draft.threshold || '100' }
                    : {}),
                })
              }
              onFilters={(issueFilters) => update({ issueFilters })}
            />
          )}
          {draft.kind === 'metric' && (
            <MetricConditionFields
              projectId={draft.projectId}
              name={draft.metricName}
              aggregation={draft.metricAggregation}
              filters={draft.metricFilters}
              error={problem?.field === 'metric' ? problem.message : undefined}
              onChange={update}
            />
          )}
          {draft.kind === 'trace' && (
            <TraceConditionFields
              service={draft.traceService}
              measure={draft.traceMeasure}
              error={problem?.field === 'service' ? problem.message : undefined}
              onService={(traceService) => update({ traceService })}
              onMeasure={(traceMeasure) => update({ traceMeasure })}
            />
          )}
        </section>

        <RulePreview
          input={preview.ok ? preview.value : null}
          problem={preview.ok ? null : preview.problem}
          unit={unit}
        />

        <section className={styles.card} aria-labelledby="rule-when">
          <h2 id="rule-when" className={styles.sectionTitle}>
            When it fires
          </h2>
          {draftHasThreshold(draft) ? (
            <ThresholdFields
              draft={draft}
              problem={submitted || !preview.ok ? (checked.ok ? null : checked.problem) : null}
              unit={unit}
              opChoice={draft.kind !== 'issue'}
              onChange={update}
            />
          ) : (
            <p className={styles.hint}>
              {draft.issueEvent === 'new_issue'
                ? 'It fires once for each new issue that matches, and resolves when the issue is resolved.'
                : 'It fires once each time a resolved issue that matches comes back, and resolves when it is resolved again.'}{' '}
              Snoozing an issue from its page silences it until then.
            </p>
          )}
          <p className={styles.hint}>
            One notification when it starts firing and one when it resolves, never one per
            evaluation.
          </p>
        </section>

        <section className={styles.card} aria-labelledby="rule-who">
          <h2 id="rule-who" className={styles.sectionTitle}>
            Who hears it
          </h2>
          <NotifyFields
            projectId={draft.projectId}
            organizationId={project?.organization_id}
            inbox={draft.inbox}
            webhookIds={draft.webhookIds}
            onInbox={(inbox) => update({ inbox })}
            onWebhooks={(webhookIds) => update({ webhookIds })}
          />
          <label className={styles.check}>
            <input
              type="checkbox"
              checked={draft.enabled}
              onChange={(e) => update({ enabled: e.target.checked })}
            />
            <span>Enabled: evaluate this rule every interval</span>
          </label>
        </section>

        {save.isError && (
          <WriteFailure
            error={save.error}
            idempotent={rule === undefined}
            unknownOutcome={
              rule === undefined
                ? 'The rule may or may not have been created.'
                : 'The change may or may not have been saved.'
            }
          />
        )}
        {submitted && !checked.ok && (
          <p className={styles.formProblem} role="alert">
            Not saved: {checked.problem.message}
          </p>
        )}
        <div className={styles.actions}>
          <Link to="/alerts" className={buttonClass('secondary')}>
            Cancel
          </Link>
          <Button type="submit" variant="primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : rule ? 'Save changes' : 'Create rule'}
          </Button>
        </div>
      </fieldset>
      {!permission.allowed && project !== undefined && (
        <p className={styles.hint}>Saving is disabled: {permission.reason}</p>
      )}
    </form>
  );
}
