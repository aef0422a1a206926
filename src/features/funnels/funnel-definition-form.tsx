import { TelemetryText } from '../../ui/telemetry-text';
import { Popover } from 'radix-ui';
import { useId, useState } from 'react';
import { ACTION_KIND_LABELS, type AnalysisUnit } from '../../api/queries/analytics';
import { parseTimeRange, timeRangeLabel } from '../../lib/time-range';
import { Button, buttonClass } from '../../ui/button';
import { FilterInput } from '../../ui/filter-input';
import { ArrowDownIcon, ArrowUpIcon, CloseIcon, PlusIcon } from '../../ui/icons';
import field from '../../ui/labelled-field.module.css';
import { PopoverPanel } from '../../ui/popover-panel';
import { ReportSection } from '../../ui/report-section';
import { SegmentedChoice } from '../../ui/segmented-choice';
import { ActionPicker } from './action-picker';
import { FunnelStarterOffer } from './funnel-starter-offer';
import { actionChoicesParams } from './action-choices';
import { WINDOW_CHOICES, windowLabel } from './funnel-figures';
import type { FunnelPlan } from './funnel-plan';
import styles from './funnel-definition-form.module.css';
import {
  FUNNEL_MAX_STEPS,
  FUNNEL_MIN_STEPS,
  stepsOf,
  unitOf,
  windowOf,
  type FunnelStepSearch,
} from './funnels-search';
import { useFunnelsSearch, useSetFunnelsSearch } from './use-funnels-search';

const UNIT_OPTIONS: readonly { value: AnalysisUnit; label: string }[] = [
  { value: 'session', label: 'Sessions' },
  { value: 'identified_user', label: 'Users' },
];

/**
 * The funnel definition: the steps in order (added from the actions seen in range, moved,
 * removed), what is counted, the conversion window and an environment. Every limit the
 * service enforces is explained here, beside its control, before anything is sent.
 */
export function FunnelDefinitionForm({ plan }: { plan: FunnelPlan }) {
  const search = useFunnelsSearch();
  const setSearch = useSetFunnelsSearch();
  const steps = stepsOf(search);
  const choicesParams = actionChoicesParams(search, plan);
  // Changes apply to the URL's latest steps, not this render's: two quick picks (before the
  // first navigation has rendered) both land instead of the second replacing the first.
  const changeSteps = (change: (current: FunnelStepSearch[]) => FunnelStepSearch[]) =>
    setSearch((prev) => {
      const next = change(stepsOf(prev));
      return { ...prev, steps: next.length === 0 ? undefined : next };
    });
  const setSteps = (next: FunnelStepSearch[]) => changeSteps(() => next);
  const move = (from: number, to: number) =>
    changeSteps((current) => {
      const next = [...current];
      const [moved] = next.splice(from, 1);
      if (moved) next.splice(to, 0, moved);
      return next;
    });
  const stepProblem = (index: number) =>
    plan.problems.find((p) => p.field === 'step' && p.index === index)?.message;
  const formProblems = plan.problems.filter((p) => p.field !== 'step' && p.field !== 'compare');

  return (
    <ReportSection
      title="Definition"
      note={`A ${unitOf(search) === 'session' ? 'session' : 'user'} enters at its first step-1 action; each later step must follow, in order, within the window.`}
    >
      <div className={styles.layout}>
        <div className={styles.stepsColumn}>
          {steps.length === 0 ? (
            <div className={styles.noSteps}>
              <p>
                No steps yet. Add the first action people take, then the ones that should follow it
                ({FUNNEL_MIN_STEPS} to {FUNNEL_MAX_STEPS} steps).
              </p>
              {choicesParams && <FunnelStarterOffer params={choicesParams} onUse={setSteps} />}
            </div>
          ) : (
            <ol className={styles.steps} aria-label="Funnel steps">
              {steps.map((s, i) => {
                const problem = stepProblem(i);
                const over = i >= FUNNEL_MAX_STEPS;
                return (
                  <li
                    key={`${i}:${s.kind}:${s.name}`}
                    className={styles.step}
                    data-over={over || undefined}
                    aria-invalid={problem !== undefined || over || undefined}
                  >
                    <span className={styles.position} aria-hidden="true">
                      {i + 1}
                    </span>
                    <span className={styles.stepText}>
                      <span className={styles.stepName}>
                        {s.name.trim() === '' ? '(no name)' : <TelemetryText text={s.name} />}
                      </span>
                      <span className={styles.kind} data-kind={s.kind}>
                        {ACTION_KIND_LABELS[s.kind]}
                      </span>
                      {over && (
                        <span className={styles.overNote}>
                          over the {FUNNEL_MAX_STEPS}-step limit
                        </span>
                      )}
                    </span>
                    <span className={styles.stepActions}>
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Move step ${i + 1} up`}
                        disabled={i === 0}
                        onClick={() => move(i, i - 1)}
                      >
                        <ArrowUpIcon />
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Move step ${i + 1} down`}
                        disabled={i === steps.length - 1}
                        onClick={() => move(i, i + 1)}
                      >
                        <ArrowDownIcon />
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Remove step ${i + 1}`}
                        onClick={() => changeSteps((current) => current.filter((_, j) => j !== i))}
                      >
                        <CloseIcon />
                      </Button>
                    </span>
                    {problem && <span className={styles.stepProblem}>{problem}</span>}
                  </li>
                );
              })}
            </ol>
          )}
          <AddStep
            plan={plan}
            onAdd={(s) => changeSteps((current) => [...current, s])}
            count={steps.length}
          />
        </div>
        <div className={styles.settings}>
          <div className={field.field}>
            <SegmentedChoice
              label="Counted by"
              caption="Counted by"
              value={unitOf(search)}
              options={UNIT_OPTIONS}
              onChange={(unit) => setSearch({ unit: unit === 'session' ? undefined : unit })}
            />
            <span className={field.hint}>
              {unitOf(search) === 'session'
                ? 'Sessions (session_id); actions without one are not counted.'
                : 'Users (distinct_id); an anonymous id counts as its own user.'}
            </span>
          </div>
          <WindowField problem={plan.problems.find((p) => p.field === 'window')?.message} />
          <div className={field.field}>
            <span className={field.label}>Environment</span>
            <FilterInput
              label="Environment"
              placeholder="Every environment"
              wide
              trim
              value={search.environment}
              onCommit={(environment) => setSearch({ environment })}
            />
            <span className={field.hint}>Exact name; blank counts every environment.</span>
          </div>
          <div className={field.field}>
            <span className={field.label}>Time range</span>
            <span className={styles.rangeValue}>{timeRangeLabel(parseTimeRange(search))}</span>
            <span className={plan.rangeCheck.ok ? field.hint : field.problem}>
              {plan.rangeCheck.ok
                ? 'Set in the header; at most 31 days.'
                : `${plan.rangeCheck.days} days: over the 31-day limit`}
            </span>
          </div>
        </div>
      </div>
      {formProblems.length > 0 && (
        <div className={styles.problems} role="alert">
          <p className={styles.problemsTitle}>
            Not read yet — the service would refuse this funnel:
          </p>
          <ul>
            {formProblems.map((p) => (
              <li key={p.message}>{p.message}</li>
            ))}
          </ul>
        </div>
      )}
    </ReportSection>
  );
}

function AddStep({
  plan,
  onAdd,
  count,
}: {
  plan: FunnelPlan;
  onAdd: (step: FunnelStepSearch) => void;
  count: number;
}) {
  const search = useFunnelsSearch();
  const [open, setOpen] = useState(false);
  const hintId = useId();
  const full = count >= FUNNEL_MAX_STEPS;
  const params = actionChoicesParams(search, plan);
  return (
    <div className={styles.addRow}>
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger
          className={buttonClass('secondary', 'sm')}
          disabled={full || params === null}
          aria-describedby={hintId}
        >
          <PlusIcon /> Add step
        </Popover.Trigger>
        {params && (
          <PopoverPanel label="Add a step" align="start" className={styles.pickerPanel}>
            <ActionPicker
              params={params}
              onPick={(s) => {
                onAdd(s);
                setOpen(false);
              }}
            />
          </PopoverPanel>
        )}
      </Popover.Root>
      <span id={hintId} className={full ? styles.limitNote : field.hint}>
        {full
          ? `${count} of ${FUNNEL_MAX_STEPS} steps: a funnel has at most ${FUNNEL_MAX_STEPS} steps.`
          : params === null
            ? 'Choose a time range of at most 31 days to see the actions in it.'
            : `${count} of ${FUNNEL_MAX_STEPS} steps${count < FUNNEL_MIN_STEPS ? ` — at least ${FUNNEL_MIN_STEPS} to read a funnel` : ''}.`}
      </span>
    </div>
  );
}

function WindowField({ problem }: { problem: string | undefined }) {
  const search = useFunnelsSearch();
  const setSearch = useSetFunnelsSearch();
  const id = useId();
  const hintId = useId();
  const value = windowOf(search);
  const listed = WINDOW_CHOICES.some((c) => c.seconds === value);
  return (
    <div className={field.field}>
      <label htmlFor={id} className={field.label}>
        Conversion window
      </label>
      <select
        id={id}
        className={field.select}
        value={value}
        aria-describedby={hintId}
        aria-invalid={problem !== undefined || undefined}
        onChange={(e) => setSearch({ window: Number(e.target.value) })}
      >
        {WINDOW_CHOICES.map((c) => (
          <option key={c.seconds} value={c.seconds}>
            {c.label}
          </option>
        ))}
        {!listed && <option value={value}>{windowLabel(value)} (from the link)</option>}
      </select>
      <span id={hintId} className={problem ? field.problem : field.hint}>
        {problem ?? 'Every step within this time of the entry; at most 31 days.'}
      </span>
    </div>
  );
}
