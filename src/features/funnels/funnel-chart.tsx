import { TelemetryText } from '../../ui/telemetry-text';
import { markBidiControls } from '../../lib/bidi-controls';
import type { AnalysisUnit } from '../../api/queries/analytics';
import { formatFraction } from '../../lib/format-share';
import { unitCount, type StepFigures } from './funnel-figures';
import styles from './funnel-chart.module.css';

/**
 * The funnel as bars: each step's units as a share of step 1, with the units lost since the
 * previous step hatched above the bar and the conversion from the previous step between the
 * columns. The numbers are written on the chart and repeated in the table below it.
 */
export function FunnelChart({ steps, unit }: { steps: StepFigures[]; unit: AnalysisUnit }) {
  const label = steps
    .map(
      (s) =>
        `Step ${s.position} ${s.name}: ${unitCount(s.units, unit)}, ${formatFraction(s.fromFirst)} of step 1`,
    )
    .join('; ');
  const shares = steps.map((s) => (s.position === 1 ? (s.units > 0 ? 1 : 0) : s.fromFirst));
  return (
    <div
      className={styles.chart}
      role="img"
      aria-label={`Funnel chart. ${label}.`}
      style={{ gridTemplateColumns: `repeat(${steps.length}, minmax(0, 1fr))` }}
    >
      {steps.map((s, i) => {
        const share = shares[i] ?? 0;
        const lost = i === 0 ? 0 : Math.max(0, (shares[i - 1] ?? 0) - share);
        return (
          <div key={s.position} className={styles.column}>
            <div className={styles.figures}>
              <span className={styles.units}>{s.units.toLocaleString('en-US')}</span>
              <span className={styles.share}>{formatFraction(s.fromFirst)}</span>
            </div>
            <div className={styles.track}>
              {lost > 0 && (
                <div
                  className={styles.lost}
                  style={{ height: `${lost * 100}%`, bottom: `${share * 100}%` }}
                />
              )}
              <div className={styles.bar} style={{ height: `${share * 100}%` }} />
              {s.fromPrevious !== null && (
                <span className={styles.step} title="Conversion from the previous step">
                  {formatFraction(s.fromPrevious)} →
                </span>
              )}
            </div>
            <div className={styles.caption}>
              <span className={styles.position}>{s.position}</span>
              <span className={styles.name} title={markBidiControls(s.name)}>
                <TelemetryText text={s.name} />
              </span>
            </div>
          </div>
        );
      })}
    </div>
  );
}
