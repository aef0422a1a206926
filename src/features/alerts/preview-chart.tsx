import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceArea,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { AlertPreview } from '../../api/queries/alerts';
import { formatUtcDateTime } from '../../lib/format-time';
import { formatUtcTick } from '../../lib/time-ticks';
import { TelemetryText } from '../../ui/telemetry-text';
import { previewShape, previewSummary, type PreviewRow } from './preview-data';
import styles from './preview-chart.module.css';

const formatValue = (v: number) =>
  Number.isInteger(v)
    ? v.toLocaleString('en')
    : v.toLocaleString('en', { maximumFractionDigits: 2 });

/**
 * The rule's query over the last 24 hours: the value per bucket, the threshold as a dashed
 * line, the buckets where the rule would have fired shaded, and deployments as marks on the
 * time axis. Each has its word in the legend and the list below, never colour alone.
 */
export function PreviewChart({ preview, unit }: { preview: AlertPreview; unit: string }) {
  const shape = previewShape(preview);
  const label = `Preview of the rule over the last 24 hours. ${previewSummary(preview)}`;
  return (
    <figure className={styles.figure}>
      <div className={styles.chart} role="img" aria-label={label}>
        <LineChart
          responsive
          data={shape.rows}
          style={{ width: '100%', height: '100%' }}
          margin={{ top: 20, right: 16, bottom: 0, left: 4 }}
        >
          <CartesianGrid vertical={false} />
          {shape.spans.map((s) => (
            <ReferenceArea
              key={`${s.from}-${s.to}`}
              x1={s.from}
              x2={s.to}
              fill="var(--danger)"
              fillOpacity={0.18}
              strokeOpacity={0}
              ifOverflow="hidden"
            />
          ))}
          <XAxis
            type="number"
            dataKey="x"
            scale="time"
            domain={shape.domain}
            ticks={shape.ticks}
            tickFormatter={(v: number) => formatUtcTick(v, shape.span)}
            className={styles.axis}
            tickLine={false}
            allowDataOverflow
          />
          <YAxis
            type="number"
            domain={[0, 'auto']}
            tickFormatter={formatValue}
            className={styles.axis}
            tickLine={false}
            width={56}
          />
          <Tooltip
            content={(props) => {
              const row = props.payload?.[0]?.payload as PreviewRow | undefined;
              if (!props.active || row === undefined) return null;
              const firing = shape.spans.some((s) => row.x >= s.from && row.x < s.to);
              return (
                <div className={styles.tooltip}>
                  <p className={styles.tooltipTime}>
                    {formatUtcDateTime(new Date(row.x).toISOString())}
                  </p>
                  <p>
                    {row.value === null ? 'No data' : `${formatValue(row.value)} ${unit}`}
                    {firing ? ' · would fire' : ''}
                  </p>
                </div>
              );
            }}
            isAnimationActive={false}
          />
          <Line
            dataKey="value"
            name="Value"
            type="linear"
            connectNulls={false}
            isAnimationActive={false}
            className={styles.valueLine}
            strokeWidth={1.5}
            dot={false}
            activeDot={{ r: 3 }}
          />
          {shape.threshold !== null && (
            <ReferenceLine
              y={shape.threshold}
              className={styles.thresholdLine}
              strokeDasharray="6 4"
              ifOverflow="extendDomain"
            />
          )}
          {shape.marks.map((m) => (
            <ReferenceLine
              key={m.key}
              x={m.x}
              className={styles.deployLine}
              strokeDasharray="4 3"
              ifOverflow="visible"
              label={(props: { viewBox?: { x?: number; y?: number } }) => {
                const x = props.viewBox?.x;
                const y = props.viewBox?.y;
                if (x === undefined || y === undefined) return <g />;
                return (
                  <path
                    className={styles.deployShape}
                    d="M-5 -4L5 -4L0 5Z"
                    transform={`translate(${x} ${y - 8})`}
                    aria-hidden="true"
                  />
                );
              }}
            />
          ))}
        </LineChart>
        <span className={styles.axisTitle} aria-hidden="true">
          <TelemetryText text={unit} />
        </span>
      </div>
      <figcaption className={styles.caption}>
        <ul className={styles.legend}>
          <li>
            <span className={styles.keyValue} aria-hidden="true" /> Value per{' '}
            {preview.interval_minutes} min
          </li>
          {shape.threshold !== null && (
            <li>
              <span className={styles.keyThreshold} aria-hidden="true" /> Threshold{' '}
              {preview.op === 'below' ? 'below' : 'above'} {formatValue(shape.threshold)}
            </li>
          )}
          <li>
            <span className={styles.keyFire} aria-hidden="true" /> Would have fired
          </li>
          <li>
            <span className={styles.keyDeploy} aria-hidden="true" /> Deployment
          </li>
        </ul>
        <p className={styles.summary} role="status">
          {previewSummary(preview)}
        </p>
        {shape.marks.length > 0 && (
          <p className={styles.deployments}>
            Deployments:{' '}
            {shape.marks.map((m, i) => (
              <span key={m.key}>
                {i > 0 ? ', ' : ''}
                <TelemetryText text={m.release} /> → <TelemetryText text={m.environment} /> at{' '}
                <time dateTime={m.at}>{formatUtcDateTime(m.at)}</time>
              </span>
            ))}
          </p>
        )}
      </figcaption>
    </figure>
  );
}
