import { useSuspenseQuery } from '@tanstack/react-query';
import { useTickingNow } from '../../ui/use-ticking-now';
import { useId, useMemo } from 'react';
import { projectsQueries } from '../../api/queries/projects';
import {
  bucketCount,
  INTERVAL_LABELS,
  MAX_BUCKETS,
  SERIES_INTERVALS,
  type IntervalChoice,
  type WindowCheck,
} from '../../lib/series-window';
import { Callout } from '../../ui/callout';
import page from '../../ui/report-page.module.css';
import palette from '../../ui/series-palette.module.css';
import { useDocumentTitle } from '../../ui/use-document-title';
import { ExplorerSection } from './explorer-section';
import styles from './metrics-page.module.css';
import { metricsReads } from './metrics-reads';
import { intervalOf } from './metrics-search';
import { useMetricsSearch, useSetMetricsSearch } from './use-metrics-search';
import { VolumeSection } from './volume-section';

/**
 * `/metrics`: telemetry volume per stream (events and bytes, each on its own chart) and the
 * metric explorer (one metric of one project, split by a field), both over the layout's range
 * in buckets of one interval, with the range's deployments marked on their time axes.
 */
export function MetricsPage() {
  useDocumentTitle('Metrics');
  const search = useMetricsSearch();
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const readableIds = useMemo(() => projects.map((p) => p.id), [projects]);
  // The window (31 days, 500 buckets) is checked against a clock that moves every minute.
  const now = useTickingNow(60_000);
  const reads = useMemo(() => metricsReads(search, readableIds, now), [search, readableIds, now]);

  return (
    <div className={`${page.page} ${palette.palette}`}>
      <header className={page.header}>
        <div className={page.titleBlock}>
          <h1 className={page.title}>Metrics</h1>
          <p className={page.subtitle}>
            Telemetry volume and metric series over the selected range, with deployments marked on
            the time axis. Times are UTC.
          </p>
        </div>
        <IntervalControl window={reads.window} bounds={reads.bounds} choice={intervalOf(search)} />
      </header>
      {!reads.window.ok && (
        <Callout
          tone="warning"
          role="status"
          title={
            reads.window.reason === 'range'
              ? 'The time range is too long to chart'
              : 'Too many buckets for this interval'
          }
        >
          <p>{reads.window.message}</p>
          <p className={page.calloutNote}>Nothing was sent to the service for the charts.</p>
        </Callout>
      )}
      <VolumeSection plan={reads.volume} window={reads.window} />
      <ExplorerSection plan={reads.explorer} window={reads.window} projects={projects} />
    </div>
  );
}

/**
 * The interval of both charts. Each choice says how many buckets it makes over the range, so
 * one over the service's 500 is explained before anything is sent.
 */
function IntervalControl({
  window,
  bounds,
  choice,
}: {
  window: WindowCheck;
  bounds: { since: number; until: number };
  choice: IntervalChoice;
}) {
  const setSearch = useSetMetricsSearch();
  const id = useId();
  const hintId = useId();
  const optionText = (value: IntervalChoice) => {
    if (value === 'auto') return 'Auto';
    const n = bucketCount(bounds.since, bounds.until, value);
    return n > MAX_BUCKETS
      ? `${INTERVAL_LABELS[value]} — ${n.toLocaleString('en-US')} buckets, over ${MAX_BUCKETS}`
      : `${INTERVAL_LABELS[value]} — ${n.toLocaleString('en-US')} buckets`;
  };
  return (
    <div className={styles.intervalControl}>
      <label htmlFor={id} className={styles.controlLabel}>
        Interval
      </label>
      <select
        id={id}
        className={styles.select}
        value={choice}
        aria-describedby={hintId}
        aria-invalid={!window.ok || undefined}
        onChange={(e) =>
          setSearch({
            interval: e.target.value === 'auto' ? undefined : (e.target.value as IntervalChoice),
          })
        }
      >
        {(['auto', ...SERIES_INTERVALS] as const).map((value) => (
          <option key={value} value={value}>
            {optionText(value)}
          </option>
        ))}
      </select>
      <span id={hintId} className={window.ok ? styles.controlHint : styles.controlProblem}>
        {window.ok
          ? `${choice === 'auto' ? `Auto: ${INTERVAL_LABELS[window.interval].toLowerCase()}, ` : ''}${window.buckets.toLocaleString('en-US')} buckets (at most ${MAX_BUCKETS}; ranges up to 31 days)`
          : window.reason === 'range'
            ? 'Range over 31 days'
            : `${window.buckets.toLocaleString('en-US')} buckets: over ${MAX_BUCKETS}`}
      </span>
    </div>
  );
}
