import { TelemetryText } from '../../ui/telemetry-text';
import { useQuery, useSuspenseQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { analyticsQueries } from '../../api/queries/analytics';
import { releaseQueries } from '../../api/queries/releases';
import { formatFraction, formatPointChange } from '../../lib/format-share';
import { readRangeOf } from '../../lib/read-range';
import { FilterInput } from '../../ui/filter-input';
import field from '../../ui/labelled-field.module.css';
import { ReadBoundary } from '../../ui/read-boundary';
import { ReportSection } from '../../ui/report-section';
import { SegmentedChoice } from '../../ui/segmented-choice';
import { FunnelChart } from './funnel-chart';
import styles from './funnel-comparison.module.css';
import { stepFigures, unitCount, UNIT_NOUNS } from './funnel-figures';
import { COMPARE_LABELS, type FunnelComparison, type FunnelPlan } from './funnel-plan';
import { CoverageNote } from './funnel-result-section';
import result from './funnel-result.module.css';
import type { CompareField } from './funnels-search';
import { useFunnelsSearch, useSetFunnelsSearch } from './use-funnels-search';

type CompareChoice = 'off' | CompareField;
const COMPARE_OPTIONS: readonly { value: CompareChoice; label: string }[] = [
  { value: 'off', label: 'Off' },
  { value: 'environment', label: 'Environments' },
  { value: 'release', label: 'Releases' },
];

/**
 * The service's `next_action` for a funnel is `compare_funnel_contexts`: the same funnel read
 * once per environment or release, side by side, with the change in conversion per step.
 */
export function FunnelComparisonSection({ plan }: { plan: FunnelPlan }) {
  const search = useFunnelsSearch();
  const setSearch = useSetFunnelsSearch();
  const compare: CompareChoice = search.compare ?? 'off';
  const problem = plan.problems.find((p) => p.field === 'compare')?.message;
  return (
    <ReportSection
      title="Compare"
      note="The same funnel in two environments or two releases, side by side."
    >
      <div className={styles.controls}>
        <SegmentedChoice
          label="Compare by"
          caption="Compare by"
          value={compare}
          options={COMPARE_OPTIONS}
          onChange={(next) =>
            setSearch({
              compare: next === 'off' ? undefined : next,
              compare_a: undefined,
              compare_b: undefined,
            })
          }
        />
        {compare !== 'off' && plan.project && (
          <CompareValues field={compare} project={plan.project} problem={problem} />
        )}
      </div>
      {compare === 'off' ? null : plan.comparison ? (
        <ReadBoundary resetKey={JSON.stringify(plan.comparison)} label="Reading both funnels…">
          <ComparisonResult comparison={plan.comparison} />
        </ReadBoundary>
      ) : (
        <p className={result.blocked}>
          {problem ??
            (plan.request === null
              ? 'Not read: complete the definition above first.'
              : `Choose two ${COMPARE_LABELS[compare]}s to compare.`)}
        </p>
      )}
    </ReportSection>
  );
}

function CompareValues({
  field: compareField,
  project,
  problem,
}: {
  field: CompareField;
  project: string;
  problem: string | undefined;
}) {
  const search = useFunnelsSearch();
  const setSearch = useSetFunnelsSearch();
  // Suggestions only: the most recently seen release rows of the project in range.
  const rows = useQuery(
    releaseQueries.rows({ project_id: project, since: readRangeOf(search).since }, 1),
  );
  const suggestions = useMemo(() => {
    const values = new Set(
      (rows.data?.releases ?? []).map((r) =>
        compareField === 'release' ? r.release : r.environment,
      ),
    );
    return [...values].sort();
  }, [rows.data, compareField]);
  const noun = COMPARE_LABELS[compareField];
  return (
    <>
      <div className={field.field}>
        <span className={field.label}>First {noun}</span>
        <FilterInput
          label={`First ${noun}`}
          placeholder={compareField === 'release' ? 'e.g. web@1.8.1' : 'e.g. production'}
          trim
          value={search.compare_a}
          suggestions={suggestions}
          onCommit={(compare_a) => setSearch({ compare_a })}
        />
      </div>
      <span className={styles.versus} aria-hidden="true">
        vs
      </span>
      <div className={field.field}>
        <span className={field.label}>Second {noun}</span>
        <FilterInput
          label={`Second ${noun}`}
          placeholder={compareField === 'release' ? 'e.g. web@1.8.2' : 'e.g. staging'}
          trim
          value={search.compare_b}
          suggestions={suggestions}
          onCommit={(compare_b) => setSearch({ compare_b })}
        />
      </div>
      <span className={problem ? field.problem : field.hint}>
        {problem ??
          `Exact ${noun} names${suggestions.length > 0 ? '; the list offers those seen recently' : ''}.`}
      </span>
    </>
  );
}

function ComparisonResult({ comparison }: { comparison: FunnelComparison }) {
  const results = useSuspenseQueries({
    queries: comparison.sides.map((s) => analyticsQueries.funnel(s.request)),
  });
  const [a, b] = results.map((r) => r.data);
  const [labelA, labelB] = comparison.sides.map((s) => s.label);
  if (!a || !b) return null;
  const unit = a.query.analysis_unit;
  const stepsA = stepFigures(a);
  const stepsB = stepFigures(b);
  const noun = COMPARE_LABELS[comparison.field];
  return (
    <div className={styles.result}>
      <div className={styles.sides}>
        {[
          { label: labelA, funnel: a, steps: stepsA },
          { label: labelB, funnel: b, steps: stepsB },
        ].map((side) => (
          <div
            key={side.label}
            className={styles.side}
            aria-label={`${noun} ${side.label}`}
            role="group"
          >
            <h3 className={styles.sideTitle}>
              <span className={styles.sideNoun}>{noun}</span>{' '}
              <span className={styles.mono}>{side.label}</span>
            </h3>
            <CoverageNote funnel={side.funnel} />
            <p className={result.summary}>
              <strong>{unitCount(side.funnel.summary.entered_units, unit)}</strong> entered;{' '}
              <strong>{formatFraction(side.funnel.summary.overall_conversion_rate)}</strong>{' '}
              completed every step.
            </p>
            {side.funnel.summary.entered_units > 0 ? (
              <FunnelChart steps={side.steps} unit={unit} />
            ) : (
              <p className={result.blocked}>
                No {UNIT_NOUNS[unit].one} reached step 1 in {noun} {side.label}.
              </p>
            )}
          </div>
        ))}
      </div>
      <table className={result.table}>
        <caption className={result.caption}>
          Conversion from step 1, {labelA} against {labelB} (change in percentage points)
        </caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col" className={result.number}>
              {labelA}
            </th>
            <th scope="col" className={result.number}>
              {labelB}
            </th>
            <th scope="col" className={result.number}>
              Change
            </th>
          </tr>
        </thead>
        <tbody>
          {stepsA.map((s, i) => {
            const other = stepsB[i];
            return (
              <tr key={s.position}>
                <td>
                  {s.position}.{' '}
                  <span className={result.mono}>
                    <TelemetryText text={s.name} />
                  </span>
                </td>
                <td className={result.number}>
                  {s.units.toLocaleString('en-US')} ({formatFraction(s.fromFirst)})
                </td>
                <td className={result.number}>
                  {other
                    ? `${other.units.toLocaleString('en-US')} (${formatFraction(other.fromFirst)})`
                    : '—'}
                </td>
                <td className={result.number}>
                  {other ? formatPointChange((other.fromFirst - s.fromFirst) * 100) : '—'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
