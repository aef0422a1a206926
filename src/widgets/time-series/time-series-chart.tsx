import { TelemetryText } from '../../ui/telemetry-text';
import {
  CartesianGrid,
  Line,
  LineChart,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from 'recharts';
import { formatUtcDateTime } from '../../lib/format-time';
import { formatUtcTick } from '../../lib/time-ticks';
import type { DeploymentMarker } from '../../widgets/deployment-marks/deployment-markers';
import {
  DeploymentMarkerLines,
  DeploymentMarkerTooltip,
  useHoveredMarker,
} from '../../widgets/deployment-marks/deployment-marker-lines';
import type { ChartRow, LineKey, TimeAxis } from './chart-rows';
import { useAfterFirstPaint } from '../../ui/after-first-paint';
import styles from './time-series-chart.module.css';

export type ChartLine = LineKey & { isolated?: ReadonlySet<number> };

type Props = {
  /** The chart's accessible name (the section's heading says the rest). */
  label: string;
  rows: ChartRow[];
  lines: ChartLine[];
  axis: TimeAxis;
  /** The y axis's title: the unit, `events` or `bytes`. */
  yLabel: string;
  formatTick: (value: number) => string;
  formatValue: (value: number | null | undefined) => string;
  markers: DeploymentMarker[];
  onOpenDeployment: (marker: DeploymentMarker) => void;
  /** Not the page's first content: the frame is laid out at once, the lines right after. */
  drawAfterFirstPaint?: boolean;
};

type DotProps = { cx?: number; cy?: number; index?: number; value?: unknown };

/**
 * Lines over time with deployment markers on the time axis. Draws what the shaping functions
 * made: `null` values stay gaps (`connectNulls` is off), a value alone between gaps is a dot.
 * Markers are dashed vertical lines with a shape above the plot (a triangle for a succeeded
 * deployment, a crossed square for a failed one); hovering one shows its deployment, clicking
 * opens it. The same deployments are listed as links below the chart for the keyboard.
 */
export function TimeSeriesChart({
  label,
  rows,
  lines,
  axis,
  yLabel,
  formatTick,
  formatValue,
  markers,
  onOpenDeployment,
  drawAfterFirstPaint = false,
}: Props) {
  const [hovered, setHovered] = useHoveredMarker();
  const drawn = useAfterFirstPaint(drawAfterFirstPaint);
  return (
    <div className={styles.chart} role="img" aria-label={label}>
      {drawn && (
        <LineChart
          responsive
          data={rows}
          style={{ width: '100%', height: '100%' }}
          margin={{ top: 24, right: 16, bottom: 0, left: 4 }}
        >
          <CartesianGrid vertical={false} />
          <XAxis
            type="number"
            dataKey="x"
            scale="time"
            domain={axis.domain}
            ticks={axis.ticks}
            tickFormatter={(v: number) => formatUtcTick(v, axis.span)}
            className={styles.axis}
            tickLine={false}
            allowDataOverflow
          />
          <YAxis
            type="number"
            tickFormatter={formatTick}
            className={styles.axis}
            tickLine={false}
            width={64}
          />
          <Tooltip
            content={(props) => (
              <RowTooltip
                active={props.active}
                payload={props.payload}
                label={props.label}
                lines={lines}
                formatValue={formatValue}
              />
            )}
            cursor={{ strokeDasharray: '3 3', className: styles.cursor }}
            isAnimationActive={false}
          />
          {lines.map((line) => (
            <Line
              key={line.dataKey}
              dataKey={line.dataKey}
              name={line.label}
              type="linear"
              connectNulls={false}
              isAnimationActive={false}
              className={styles.line}
              data-color={line.color}
              stroke={`var(--line-${line.color})`}
              strokeWidth={1.5}
              strokeDasharray={line.dashed ? '5 3' : undefined}
              dot={(p: DotProps) =>
                line.isolated?.has(p.index ?? -1) && p.cx !== undefined && p.cy !== undefined ? (
                  <circle
                    key={`${line.dataKey}-${p.index}`}
                    cx={p.cx}
                    cy={p.cy}
                    r={2.5}
                    fill={`var(--line-${line.color})`}
                  />
                ) : (
                  <g key={`${line.dataKey}-${p.index}`} />
                )
              }
              activeDot={{ r: 3 }}
            />
          ))}
          <DeploymentMarkerLines markers={markers} onHover={setHovered} onOpen={onOpenDeployment} />
        </LineChart>
      )}
      <span className={styles.axisTitle} aria-hidden="true">
        <TelemetryText text={yLabel} />
      </span>
      <DeploymentMarkerTooltip hovered={hovered} />
    </div>
  );
}

function RowTooltip({
  active,
  payload,
  label,
  lines,
  formatValue,
}: Pick<TooltipContentProps, 'active' | 'payload' | 'label'> & {
  lines: ChartLine[];
  formatValue: (value: number | null | undefined) => string;
}) {
  const row = active ? (payload[0]?.payload as ChartRow | undefined) : undefined;
  if (!row) return null;
  const at = typeof label === 'number' ? label : row.x;
  return (
    <div className={styles.tooltip}>
      <p className={styles.tooltipTime}>{formatUtcDateTime(new Date(at).toISOString())}</p>
      <ul className={styles.tooltipList}>
        {lines.map((line) => (
          <li key={line.dataKey}>
            <LineSwatch color={line.color} dashed={line.dashed} />
            <span className={styles.tooltipLabel}>{line.label}</span>
            <span className={styles.tooltipValue}>{formatValue(row[line.dataKey])}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A line's colour and dash, drawn as in the chart (always beside its words). */
export function LineSwatch({ color, dashed }: { color: number; dashed: boolean }) {
  return (
    <svg width="16" height="8" viewBox="0 0 16 8" aria-hidden="true" className={styles.swatch}>
      <line
        x1="1"
        y1="4"
        x2="15"
        y2="4"
        stroke={`var(--line-${color})`}
        strokeWidth="2"
        strokeDasharray={dashed ? '4 2' : undefined}
      />
    </svg>
  );
}
