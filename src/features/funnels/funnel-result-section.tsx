import { TelemetryText } from '../../ui/telemetry-text';
import { useSuspenseQuery } from '@tanstack/react-query';
import {
  ACTION_KIND_LABELS,
  analyticsQueries,
  type Funnel,
  type FunnelRequest,
} from '../../api/queries/analytics';
import { formatFraction } from '../../lib/format-share';
import { Callout } from '../../ui/callout';
import { EmptyState } from '../../ui/empty-state';
import { LimitationsList } from '../../ui/limitations-list';
import { ReadBoundary } from '../../ui/read-boundary';
import { ReportSection } from '../../ui/report-section';
import { FunnelChart } from './funnel-chart';
import {
  coverageSentence,
  stepFigures,
  unitCount,
  UNIT_NOUNS,
  windowLabel,
} from './funnel-figures';
import type { FunnelPlan } from './funnel-plan';
import styles from './funnel-result.module.css';

/** The funnel read for the definition, or why nothing was read. */
export function FunnelResultSection({ plan }: { plan: FunnelPlan }) {
  return (
    <ReportSection
      title="Result"
      note={
        plan.request
          ? `${plan.request.environment ? `Environment ${plan.request.environment}` : 'Every environment'}, window ${windowLabel(plan.request.conversion_window_seconds)}`
          : undefined
      }
    >
      {plan.request ? (
        <ReadBoundary resetKey={JSON.stringify(plan.request)} label="Reading the funnel…">
          <FunnelResult request={plan.request} />
        </ReadBoundary>
      ) : (
        <p className={styles.blocked}>
          {plan.needsSteps && plan.problems.length === 0
            ? 'Add at least two steps above to read the funnel.'
            : 'Not read: the definition above has a problem the service would refuse.'}
        </p>
      )}
    </ReportSection>
  );
}

function FunnelResult({ request }: { request: FunnelRequest }) {
  const { data } = useSuspenseQuery(analyticsQueries.funnel(request));
  const unit = data.query.analysis_unit;
  const steps = stepFigures(data);
  return (
    <div className={styles.result}>
      <CoverageNote funnel={data} />
      {data.summary.entered_units === 0 ? (
        <EmptyState title={`No ${UNIT_NOUNS[unit].one} reached step 1 in this range`}>
          {data.summary.candidate_units === 0
            ? 'No product action was recorded in this project, range and environment. Actions arrive through the ingest routes; widen the time range or check the environment.'
            : `${unitCount(data.summary.candidate_units, unit)} had actions, but none matched step 1 (“${data.query.steps[0]?.event_name ?? ''}” as a ${ACTION_KIND_LABELS[data.query.steps[0]?.kind ?? 'page_view'].toLowerCase()}). Names and kinds must match exactly.`}
        </EmptyState>
      ) : (
        <>
          <p className={styles.summary}>
            <strong>{unitCount(data.summary.entered_units, unit)}</strong> entered (
            {formatFraction(data.summary.entry_rate)} of{' '}
            {unitCount(data.summary.candidate_units, unit)} with any action);{' '}
            <strong>{data.summary.completed_units.toLocaleString('en-US')}</strong> completed all{' '}
            {steps.length} steps:{' '}
            <strong>{formatFraction(data.summary.overall_conversion_rate)}</strong> overall
            conversion.
          </p>
          <FunnelChart steps={steps} unit={unit} />
        </>
      )}
      <table className={styles.table}>
        <caption className={styles.caption}>Steps, as the service counted them</caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Action</th>
            <th scope="col" className={styles.number}>
              {UNIT_NOUNS[unit].many[0]?.toUpperCase()}
              {UNIT_NOUNS[unit].many.slice(1)}
            </th>
            <th scope="col" className={styles.number}>
              From first
            </th>
            <th scope="col" className={styles.number}>
              From previous
            </th>
            <th scope="col" className={styles.number}>
              Drop-off to next
            </th>
          </tr>
        </thead>
        <tbody>
          {steps.map((s) => (
            <tr key={s.position}>
              <td className={styles.number}>{s.position}</td>
              <td>
                <span className={styles.mono}>
                  <TelemetryText text={s.name} />
                </span>{' '}
                <span className={styles.kind}>{ACTION_KIND_LABELS[s.kind]}</span>
              </td>
              <td className={styles.number}>{s.units.toLocaleString('en-US')}</td>
              <td className={styles.number}>{formatFraction(s.fromFirst)}</td>
              <td className={styles.number}>
                {s.fromPrevious === null ? '—' : formatFraction(s.fromPrevious)}
              </td>
              <td className={styles.number}>
                {s.dropOff === null
                  ? '—'
                  : `${s.dropOff.units.toLocaleString('en-US')} (${formatFraction(s.dropOff.rate)})`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Coverage comes first: how much of the selected data could be counted, then what is left out. */
export function CoverageNote({ funnel }: { funnel: Funnel }) {
  const c = funnel.coverage;
  const complete = c.selected_step_events > 0 && c.excluded_selected_step_events === 0;
  return (
    <Callout tone={complete ? 'success' : 'warning'} role="status" title={coverageSentence(funnel)}>
      {c.excluded_selected_step_events > 0 && (
        <p className={styles.coverageDetail}>
          {c.excluded_selected_step_events.toLocaleString('en-US')} step{' '}
          {c.excluded_selected_step_events === 1 ? 'event was' : 'events were'} not counted: they
          carry no {funnel.query.analysis_unit === 'session' ? 'session_id' : 'distinct_id'}.
        </p>
      )}
      <LimitationsList limitations={c.limitations} />
    </Callout>
  );
}
