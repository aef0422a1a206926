import {
  CartesianGrid,
  ReferenceArea,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from 'recharts';
import { formatDuration } from '../../lib/format-duration';
import { formatUtcDateTime } from '../../lib/format-time';
import { type DurationScale, type TraceChartData, type TracePoint } from './trace-chart-data';
import { errorSpanLabel } from './trace-format';
import { formatUtcTick } from '../../lib/time-ticks';
import { useAfterFirstPaint } from '../../ui/after-first-paint';
import styles from './trace-scatter.module.css';
import type { DeploymentMarker } from '../../widgets/deployment-marks/deployment-markers';
import {
  DeploymentMarkerLines,
  DeploymentMarkerTooltip,
  useHoveredMarker,
} from '../../widgets/deployment-marks/deployment-marker-lines';

type ShapeProps = { cx?: number; cy?: number };

/** A trace without error spans: a circle. */
function OkPoint({ cx, cy }: ShapeProps) {
  if (cx === undefined || cy === undefined) return <g />;
  return <circle cx={cx} cy={cy} r={3.5} className={styles.okPoint} />;
}

/** A trace with an error span: a triangle (shape and colour both differ). */
function ErrorPoint({ cx, cy }: ShapeProps) {
  if (cx === undefined || cy === undefined) return <g />;
  return (
    <path
      d={`M${cx} ${cy - 5}L${cx + 5} ${cy + 4}L${cx - 5} ${cy + 4}Z`}
      className={styles.errorPoint}
    />
  );
}

function PointTooltip({ active, payload }: Pick<TooltipContentProps, 'active' | 'payload'>) {
  const point = active ? (payload[0]?.payload as TracePoint | undefined) : undefined;
  if (!point) return null;
  return (
    <div className={styles.tooltip}>
      <p className={styles.tooltipName}>{point.name}</p>
      <p className={styles.tooltipLine}>
        {point.service} · <strong>{formatDuration(point.durationMs)}</strong>
      </p>
      <p className={styles.tooltipLine}>{formatUtcDateTime(point.startedAt, { ms: true })}</p>
      {point.errorSpans > 0 && (
        <p className={styles.tooltipError}>{errorSpanLabel(point.errorSpans)}</p>
      )}
      <p className={styles.tooltipHint}>Click to open the trace</p>
    </div>
  );
}

/**
 * Duration over time over the whole selected range: a circle per loaded trace, a triangle in
 * the danger colour for traces with an error span, and the older part of the range whose
 * traces are not loaded yet shaded and labelled, and the scope's deployments marked as on every
 * time chart. Clicking a point opens its trace. Draws what
 * `traceChartData` shaped; nothing is computed here.
 */
export function TraceScatter({
  data,
  scale,
  onOpen,
  markers,
  onOpenDeployment,
}: {
  data: TraceChartData;
  scale: DurationScale;
  onOpen: (traceId: string) => void;
  /** The deployments of the chart's scope, marked on its time axis. */
  markers: readonly DeploymentMarker[];
  onOpenDeployment: (marker: DeploymentMarker) => void;
}) {
  const [hovered, setHovered] = useHoveredMarker();
  // The list below is the page's first content: the chart's frame is laid out at once and the
  // points are drawn right after the rows are painted.
  const drawn = useAfterFirstPaint();
  const open = (item: { payload?: unknown }) => {
    const point = item.payload as TracePoint | undefined;
    if (point) onOpen(point.traceId);
  };
  return (
    <div className={styles.chart}>
      {drawn && (
        <ScatterChart
          responsive
          style={{ width: '100%', height: '100%' }}
          margin={{ top: 24, right: 12, bottom: 0, left: 0 }}
        >
          <CartesianGrid vertical={false} />
          {data.notLoaded !== null && (
            <ReferenceArea
              x1={data.notLoaded[0]}
              x2={data.notLoaded[1]}
              className={styles.notLoaded}
              ifOverflow="hidden"
              label={{
                value: 'Not loaded yet',
                position: 'center',
                className: styles.notLoadedLabel,
              }}
            />
          )}
          <XAxis
            type="number"
            dataKey="x"
            domain={data.xDomain}
            ticks={data.xTicks}
            scale="time"
            tickFormatter={(v: number) => formatUtcTick(v, data.xSpanMs)}
            className={styles.axis}
            tickLine={false}
            allowDataOverflow
          />
          <YAxis
            type="number"
            dataKey="y"
            scale={scale === 'log' ? 'log' : 'linear'}
            domain={data.yDomain}
            ticks={data.yTicks}
            tickFormatter={(v: number) => formatDuration(v)}
            className={styles.axis}
            tickLine={false}
            width={56}
            allowDataOverflow
          />
          <Tooltip
            content={(props) => <PointTooltip active={props.active} payload={props.payload} />}
            cursor={{ strokeDasharray: '3 3', className: styles.cursor }}
            isAnimationActive={false}
          />
          <Scatter
            name="OK"
            data={data.ok}
            shape={OkPoint}
            isAnimationActive={false}
            className={styles.series}
            onClick={open}
          />
          <Scatter
            name="Error"
            data={data.error}
            shape={ErrorPoint}
            isAnimationActive={false}
            className={styles.series}
            onClick={open}
          />
          <DeploymentMarkerLines markers={markers} onHover={setHovered} onOpen={onOpenDeployment} />
        </ScatterChart>
      )}
      <DeploymentMarkerTooltip hovered={hovered} />
    </div>
  );
}

/** The legend, beside the chart's title: each mark drawn as on the chart, with its words. */
export function TraceScatterLegend({ ok, error }: { ok: number; error: number }) {
  return (
    <ul className={styles.legend} aria-label="Legend">
      <li>
        <svg width="10" height="10" viewBox="0 0 10 10" aria-hidden="true">
          <circle cx="5" cy="5" r="3.5" className={styles.okPoint} />
        </svg>
        No errors ({ok.toLocaleString('en-US')})
      </li>
      <li>
        <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
          <path d="M6 1.5L11 10.5L1 10.5Z" className={styles.errorPoint} />
        </svg>
        With error spans ({error.toLocaleString('en-US')})
      </li>
    </ul>
  );
}
