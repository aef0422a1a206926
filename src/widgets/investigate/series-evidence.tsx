import { TelemetryText } from '../../ui/telemetry-text';
import type { MetricInvestigation } from '../../api/queries/investigations';
import { formatUtcDateTime } from '../../lib/format-time';
import styles from './evidence.module.css';

type Series = MetricInvestigation['series'];

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 3 });

/** A metric series as figures per series: buckets with data, lowest, highest, last. */
export function SeriesEvidence({ series }: { series: Series }) {
  return (
    <>
      <p className={styles.muted}>
        {series.aggregation ?? 'value'} per {series.interval}
        {series.unit ? ` in ${series.unit}` : ''}, {formatUtcDateTime(series.since)} to{' '}
        {formatUtcDateTime(series.until)}
        {series.truncated_series ? ' · more series exist than were read' : ''}
      </p>
      {series.series.length === 0 ? (
        <p className={styles.muted}>No sample of this metric in the range.</p>
      ) : (
        <ul className={styles.rows} aria-label="Series">
          {series.series.map((s) => {
            const values = s.values.filter((v): v is number => v !== null);
            const last = values.at(-1);
            return (
              <li key={s.key ?? 'all'} className={styles.row}>
                <span className={`${styles.grow} ${styles.mono}`}>
                  <TelemetryText text={s.key ?? 'All samples'} />
                </span>
                <span className={styles.num}>
                  {values.length} of {s.values.length} buckets with data
                </span>
                {values.length > 0 && (
                  <span className={styles.num}>
                    low {fmt(Math.min(...values))} · high {fmt(Math.max(...values))} · last{' '}
                    {fmt(last ?? 0)}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
