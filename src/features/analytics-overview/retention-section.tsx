import { useSuspenseQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import {
  analyticsQueries,
  type OverviewParams,
  type RetentionRequest,
} from '../../api/queries/analytics';
import { SegmentedChoice } from '../../ui/segmented-choice';
import { ActionSelect } from './action-select';
import type { RetentionPeriod } from './analytics-overview-search';
import { formatCount, formatRate, plural, retentionCoverageLine } from './analytics-text';
import { offsetLabel, retentionGrid, type ShadeLevel } from './retention-grid';
import styles from './retention-section.module.css';
import { ReadBoundary } from '../../ui/read-boundary';
import { ReportSection } from '../../ui/report-section';
import { Coverage, NoActions } from './analytics-coverage';
import { useAnalyticsSearch, useSetAnalyticsSearch } from './use-analytics-search';

const PERIOD_OPTIONS = [
  { value: 'day', label: 'Days' },
  { value: 'week', label: 'Weeks' },
] as const;

const LEVEL_CLASS: Record<ShadeLevel, string | undefined> = {
  0: styles.level0,
  1: styles.level1,
  2: styles.level2,
  3: styles.level3,
  4: styles.level4,
  5: styles.level5,
};

/** Cohorts of users by the period of their first start action, and who came back later. */
export function RetentionSection({
  request,
  overview,
}: {
  request: RetentionRequest;
  overview: OverviewParams;
}) {
  const search = useAnalyticsSearch();
  const setSearch = useSetAnalyticsSearch();
  const period: RetentionPeriod = request.period ?? 'day';
  return (
    <ReportSection
      title="Retention"
      note="A user joins the cohort of the period of their first start action; a cell is the share of the cohort with a return action that many periods later."
      controls={
        <>
          <SegmentedChoice
            label="Retention period"
            caption="Period"
            value={period}
            options={PERIOD_OPTIONS}
            onChange={(v) => setSearch({ retention_period: v === 'day' ? undefined : v })}
          />
          <ActionSelect
            label="Start action"
            anyLabel="Any action"
            value={search.retention_start}
            overview={overview}
            onChange={(a) => setSearch({ retention_start: a })}
          />
          <ActionSelect
            label="Return action"
            anyLabel="Any action"
            value={search.retention_return}
            overview={overview}
            onChange={(a) => setSearch({ retention_return: a })}
          />
        </>
      }
    >
      <ReadBoundary resetKey={JSON.stringify(request)} label="Reading retention…" belowFold>
        <RetentionBody request={request} period={period} />
      </ReadBoundary>
    </ReportSection>
  );
}

function RetentionBody({
  request,
  period,
}: {
  request: RetentionRequest;
  period: RetentionPeriod;
}) {
  const { data } = useSuspenseQuery(analyticsQueries.retention(request));
  const grid = useMemo(() => retentionGrid(data, period), [data, period]);
  const { coverage, summary } = data;
  const noun = period === 'day' ? 'day' : 'week';
  return (
    <>
      <Coverage
        lines={[retentionCoverageLine(coverage, data.query.start_event, data.query.return_event)]}
        limitations={coverage.limitations}
      />
      {coverage.events === 0 ? (
        <NoActions detail={false} />
      ) : (
        <>
          <p className={styles.summary} aria-label="Retention summary">
            <strong>{plural(summary.units, 'user', 'users')}</strong> in cohorts;{' '}
            <strong>{formatCount(summary.returning_units)}</strong> returned in a later {noun}, a
            return rate of <strong>{formatRate(summary.return_rate)}</strong>.
          </p>
          <div className={styles.gridWrap}>
            <table className={styles.grid} aria-label="Retention cohorts">
              <thead>
                <tr>
                  <th scope="col" className={styles.rowHead}>
                    Cohort (UTC)
                  </th>
                  <th scope="col" className={styles.size}>
                    Users
                  </th>
                  {Array.from({ length: grid.columns - 1 }, (_, i) => (
                    <th key={i + 1} scope="col">
                      {offsetLabel(period, i + 1)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {grid.rows.map((row) => (
                  <tr key={row.start}>
                    <th scope="row" className={styles.rowHead}>
                      {row.startLabel}
                    </th>
                    {row.cells.map((cell, offset) => {
                      if (cell.kind === 'size') {
                        return (
                          <td key={offset} className={styles.size} title={cell.label}>
                            {cell.text}
                          </td>
                        );
                      }
                      if (cell.kind === 'future') {
                        return <td key={offset} className={`${styles.cell} ${styles.future}`} />;
                      }
                      return (
                        <td
                          key={offset}
                          className={`${styles.cell} ${cell.kind === 'rate' ? LEVEL_CLASS[cell.level] : styles.empty}`}
                          title={cell.label}
                          aria-label={cell.label}
                        >
                          {cell.text}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ShadeLegend />
        </>
      )}
    </>
  );
}

const LEGEND: readonly [ShadeLevel, string][] = [
  [0, '0%'],
  [1, 'under 5%'],
  [2, '5–15%'],
  [3, '15–30%'],
  [4, '30–50%'],
  [5, '50% or more'],
];

function ShadeLegend() {
  return (
    <p className={styles.legend}>
      <span>Shade:</span>
      {LEGEND.map(([level, text]) => (
        <span key={level} className={styles.legendItem}>
          <span className={`${styles.swatch} ${LEVEL_CLASS[level]}`} aria-hidden="true" />
          {text}
        </span>
      ))}
      <span>· an empty cell is a period after the range ends.</span>
    </p>
  );
}
