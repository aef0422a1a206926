import { TelemetryText } from '../../ui/telemetry-text';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useId, useMemo, type ReactNode } from 'react';
import { ApiError } from '../../api/errors';
import { metricQueries, type MetricName, type SeriesParams } from '../../api/queries/metrics';
import { deploymentQueries } from '../../api/queries/releases';
import type { Project } from '../../api/queries/projects';
import type { WindowCheck } from '../../lib/series-window';
import { Button } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { EmptyState } from '../../ui/empty-state';
import { OneProjectPicker } from '../../ui/one-project-picker';
import { ErrorState } from '../../ui/error-state';
import { PendingState } from '../../ui/pending-state';
import { QueryBoundary } from '../../ui/query-boundary';
import { investigationQueries } from '../../api/queries/investigations';
import { InvestigateButton } from '../../widgets/investigate/investigate-button';
import { ReportSection } from '../../ui/report-section';
import {
  aggregationText,
  formatMetricValue,
  formatValueTick,
  seriesChartData,
  truncationText,
} from './chart-data';
import { DeploymentList } from '../../widgets/deployment-marks/deployment-marker';
import {
  deploymentMarkers,
  deploymentReadOf,
  releaseLinkOf,
  type DeploymentMarker,
} from '../../widgets/deployment-marks/deployment-markers';
import styles from './metrics-page.module.css';
import type { ExplorerPlan } from './metrics-reads';
import {
  explorerChoices,
  GROUP_BY_LABELS,
  GROUP_BY_OPTIONS,
  MAX_SERIES_LIMIT,
  DEFAULT_SERIES_LIMIT,
} from './metrics-search';
import { LineSwatch, TimeSeriesChart } from '../../widgets/time-series/time-series-chart';
import { useMetricsSearch, useSetMetricsSearch } from './use-metrics-search';
import { isolateText } from '../../lib/isolate-text';
import { useProjectOpening } from '../../widgets/project-opening/use-project-opening';
import { METRICS_BUSIEST_REASON, MetricProjectOpener } from './metric-project-opener';

/** The metric explorer: one metric of one project, split by a field, a line per series. */
export function ExplorerSection({
  plan,
  window,
  projects,
}: {
  plan: ExplorerPlan;
  window: WindowCheck;
  projects: readonly Project[];
}) {
  const search = useMetricsSearch();
  const setSearch = useSetMetricsSearch();
  const choices = explorerChoices(search, projects);
  const singleScope = choices.length === 1 && search.project !== undefined;
  const opening = useProjectOpening({
    busiestReason: METRICS_BUSIEST_REASON,
    projects,
    shownProject: plan.project,
    fromScope: singleScope,
    openInUrl: useCallback(
      // A link's metric stays: it is read in the project opened (or said to have no samples).
      (projectId: string) => setSearch({ metric_project: projectId }, { replace: true }),
      [setSearch],
    ),
  });
  const pickCallout = (note?: ReactNode) => (
    <Callout tone="info" role="status" title="Pick a project for the metric explorer">
      {note}
      <p>
        Metric series are read for one project at a time, and the header&rsquo;s scope holds{' '}
        {search.projects ? 'several projects' : 'every project'}. Choose one in the
        &ldquo;Project&rdquo; field above; the volume above still counts the whole scope.
      </p>
    </Callout>
  );
  return (
    <ReportSection
      title="Metric explorer"
      note="Samples of one metric in one project, aggregated per bucket by the service."
    >
      {opening.openedNote && (
        <p className={styles.controlHint} role="status">
          {opening.openedNote}
        </p>
      )}
      <div className={styles.controls} role="group" aria-label="Metric explorer settings">
        {!singleScope && (
          <OneProjectPicker
            choices={choices}
            value={plan.project}
            onChange={(id) => {
              if (id === undefined) opening.pickCleared();
              setSearch({ metric_project: id, metric: undefined });
            }}
          />
        )}
        {plan.names ? (
          <QueryBoundary
            resetKey={JSON.stringify(plan.names)}
            pending={<span className={styles.controlHint}>Reading metric names…</span>}
            renderError={() => null}
          >
            <MetricPicker names={plan.names} />
          </QueryBoundary>
        ) : null}
        <GroupByPicker />
        <SeriesLimitPicker />
      </div>
      {plan.project === null || !plan.names ? (
        opening.autoOpen && !singleScope && choices.length > 0 ? (
          <MetricProjectOpener
            since={plan.namesSince}
            choices={choices}
            onOpen={opening.open}
            pickCallout={pickCallout}
          />
        ) : (
          pickCallout()
        )
      ) : (
        <QueryBoundary
          resetKey={JSON.stringify(plan)}
          pending={<PendingState label="Loading metric…" />}
          renderError={(error, retry) => (
            <ErrorState
              error={error}
              reset={error instanceof ApiError && error.status === 422 ? undefined : retry}
              compact
            />
          )}
        >
          <ExplorerBody plan={plan} names={plan.names} window={window} />
        </QueryBoundary>
      )}
    </ReportSection>
  );
}

const nameOption = (n: MetricName) =>
  `${isolateText(n.name)} — ${n.kind}${n.unit ? `, ${isolateText(n.unit)}` : ''}`;

function MetricPicker({ names }: { names: { project_id: string; since: string } }) {
  const search = useMetricsSearch();
  const setSearch = useSetMetricsSearch();
  const { data } = useSuspenseQuery(metricQueries.names(names));
  const id = useId();
  const hintId = useId();
  const linked = search.metric !== undefined && !data.names.some((n) => n.name === search.metric);
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.controlLabel}>
        Metric
      </label>
      <select
        id={id}
        className={`${styles.select} ${styles.metricSelect}`}
        value={search.metric ?? ''}
        aria-describedby={hintId}
        onChange={(e) => setSearch({ metric: e.target.value === '' ? undefined : e.target.value })}
      >
        <option value="">
          {data.names.length === 0 ? 'No metrics in range' : 'Choose a metric…'}
        </option>
        {data.names.map((n) => (
          <option key={n.name} value={n.name}>
            {nameOption(n)}
          </option>
        ))}
        {linked && (
          <option value={search.metric}>
            {isolateText(search.metric ?? '')} — no samples in range
          </option>
        )}
      </select>
      <span id={hintId} className={styles.controlHint}>
        {data.truncated
          ? `The first ${data.names.length.toLocaleString('en-US')} names by name with samples in range (there are more)`
          : `${data.names.length.toLocaleString('en-US')} ${data.names.length === 1 ? 'name' : 'names'} with samples in range`}
      </span>
    </div>
  );
}

function GroupByPicker() {
  const search = useMetricsSearch();
  const setSearch = useSetMetricsSearch();
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.controlLabel}>
        Group by
      </label>
      <select
        id={id}
        className={styles.select}
        value={search.group_by ?? 'none'}
        onChange={(e) => {
          const value = e.target.value as (typeof GROUP_BY_OPTIONS)[number];
          setSearch({ group_by: value === 'none' ? undefined : value });
        }}
      >
        {GROUP_BY_OPTIONS.map((g) => (
          <option key={g} value={g}>
            {GROUP_BY_LABELS[g]}
          </option>
        ))}
      </select>
    </div>
  );
}

function SeriesLimitPicker() {
  const search = useMetricsSearch();
  const setSearch = useSetMetricsSearch();
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.controlLabel}>
        Series limit
      </label>
      <select
        id={id}
        className={styles.select}
        value={search.series_limit ?? DEFAULT_SERIES_LIMIT}
        onChange={(e) => {
          const n = Number(e.target.value);
          setSearch({ series_limit: n === DEFAULT_SERIES_LIMIT ? undefined : n });
        }}
      >
        {Array.from({ length: MAX_SERIES_LIMIT }, (_, i) => i + 1).map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </div>
  );
}

function ExplorerBody({
  plan,
  names,
  window,
}: {
  plan: ExplorerPlan;
  names: { project_id: string; since: string };
  window: WindowCheck;
}) {
  const setSearch = useSetMetricsSearch();
  const { data } = useSuspenseQuery(metricQueries.names(names));
  if (data.names.length === 0) {
    return (
      <EmptyState title="No metric samples in this project and range">
        Metrics arrive through the SDK route <code>POST /v1/events</code> as events of type{' '}
        <code>metric</code>, sent with this project&rsquo;s ingest key. Widen the time range in the
        header, or choose another project.
      </EmptyState>
    );
  }
  if (!plan.series) {
    if (!window.ok) {
      return (
        <p className={styles.blocked}>
          Not read: this interval and range would be refused (see the note above).
        </p>
      );
    }
    return (
      <div className={styles.pick}>
        <p className={styles.pickTitle}>Choose a metric to chart</p>
        <ul className={styles.pickList}>
          {data.names.map((n) => (
            <li key={n.name}>
              <Button size="sm" onClick={() => setSearch({ metric: n.name })}>
                <span className={styles.mono}>
                  <TelemetryText text={n.name} />
                </span>
                <span className={styles.pickMeta}>
                  {n.kind}
                  {n.unit ? (
                    <>
                      , <TelemetryText text={n.unit} />
                    </>
                  ) : (
                    ''
                  )}
                </span>
              </Button>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return <SeriesChart params={plan.series} deploymentsParams={plan.deployments} />;
}

function SeriesChart({
  params,
  deploymentsParams,
}: {
  params: SeriesParams;
  deploymentsParams: ExplorerPlan['deployments'];
}) {
  const navigate = useNavigate();
  const { data: series } = useSuspenseQuery(metricQueries.series(params));
  const { data: deployments } = useSuspenseQuery(
    deploymentQueries.range(
      deploymentsParams ?? deploymentReadOf(params, { projectIds: [params.project_id] }),
    ),
  );
  // The answer only says more series matched; a read at the largest limit counts them.
  const countRead = useQuery({
    ...metricQueries.series({ ...params, series_limit: MAX_SERIES_LIMIT }),
    enabled: series.truncated_series && params.series_limit < MAX_SERIES_LIMIT,
  });
  const chart = useMemo(() => seriesChartData(series), [series]);
  const markers = useMemo(
    () => deploymentMarkers(deployments.deployments, chart.axis.domain),
    [deployments, chart.axis.domain],
  );
  const total = countRead.data
    ? countRead.data.truncated_series
      ? null
      : countRead.data.series.length
    : undefined;
  const truncation = truncationText(series.series.length, series.truncated_series, total);
  const open = (m: DeploymentMarker) => void navigate(releaseLinkOf(m.deployment));
  const unit = series.unit ?? 'value';

  return (
    <>
      <div className={styles.seriesMeta}>
        <span className={styles.mono}>
          <TelemetryText text={series.name} />
        </span>
        {series.kind && <span className={styles.badge}>{series.kind}</span>}
        <span>
          unit: <TelemetryText text={series.unit ?? 'none given'} />
        </span>
        <span>{aggregationText(series)}</span>
        <InvestigateButton title="Investigate metric" query={investigationQueries.metric(params)} />
        {truncation && (
          <span className={styles.truncated} role="status">
            {truncation}
            {params.series_limit < MAX_SERIES_LIMIT ? ' — raise the series limit to see more' : ''}
          </span>
        )}
      </div>
      {!chart.hasValues ? (
        <EmptyState title={`No samples of ${series.name} in this range`}>
          The metric was seen in the project, but not between these times with these settings. Widen
          the time range in the header.
        </EmptyState>
      ) : (
        <figure className={`${styles.chartPanel} ${styles.seriesPanel}`}>
          <TimeSeriesChart
            label={`${series.name} in ${unit}, ${chart.lines.length} series: ${chart.lines.map((l) => l.label).join(', ')}`}
            rows={chart.rows}
            lines={chart.lines}
            axis={chart.axis}
            yLabel={unit}
            formatTick={formatValueTick}
            formatValue={(v) => formatMetricValue(v, series.unit)}
            markers={markers}
            onOpenDeployment={open}
            drawAfterFirstPaint
          />
        </figure>
      )}
      {chart.hasValues && (
        <ul className={styles.legendList} aria-label="Series">
          {chart.lines.map((l) => (
            <li key={l.dataKey}>
              <LineSwatch color={l.color} dashed={l.dashed} />
              <span className={styles.legendLabel}>{l.label}</span>
              <span className={styles.legendMeta}>{l.samples.toLocaleString('en-US')} samples</span>
            </li>
          ))}
        </ul>
      )}
      <p className={styles.gapNote}>
        A gap in a line is a bucket without samples (never drawn as zero).
      </p>
      <DeploymentList
        label="Deployments on the metric chart"
        markers={markers}
        complete={deployments.complete}
      />
    </>
  );
}
