import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, Tooltip, XAxis, YAxis } from 'recharts';
import {
  bucketPlacement,
  type DeploymentMarker,
} from '../../widgets/deployment-marks/deployment-markers';
import {
  DeploymentMarkerLines,
  DeploymentMarkerTooltip,
  useHoveredMarker,
} from '../../widgets/deployment-marks/deployment-marker-lines';
import { useAfterFirstPaint } from '../../ui/after-first-paint';
import frame from '../../ui/bar-chart-frame.module.css';
import type { HistoryRow, HistorySeries } from './usage-history-data';
import styles from './usage-page.module.css';

/**
 * One measure (events or bytes) per bucket as stacked bars, a colour per series with its name
 * in the legend. The current bucket is drawn lighter and named "so far": it is still counting.
 * A bucket without usage is a zero (no bar above the axis), never a gap. Deployments of the
 * account's projects are marked on the bar of their period, as on every time chart.
 */
export function UsageHistoryChart({
  label,
  measure,
  rows,
  series,
  format,
  formatTick,
  ticks,
  markers,
  onOpenDeployment,
  drawAfterFirstPaint = false,
}: {
  label: string;
  measure: 'events' | 'bytes';
  rows: HistoryRow[];
  series: HistorySeries[];
  format: (n: number) => string;
  formatTick: (n: number) => string;
  /** Fixed ticks (round byte sizes); the axis ends at the last one. */
  ticks?: number[] | undefined;
  markers: readonly DeploymentMarker[];
  onOpenDeployment: (marker: DeploymentMarker) => void;
  /** Not the page's first content: the frame is laid out at once, the bars right after. */
  drawAfterFirstPaint?: boolean;
}) {
  const [hovered, setHovered] = useHoveredMarker();
  const drawn = useAfterFirstPaint(drawAfterFirstPaint);
  const data = rows.map((r) => ({
    ...r,
    name: barName(r),
    ...prefixed(r[measure]),
  }));
  const place = useMemo(
    () => bucketPlacement(rows.map((r) => ({ start: r.x, label: barName(r) }))),
    [rows],
  );
  return (
    <div className={styles.chartBox}>
      <div className={frame.chart} role="img" aria-label={label}>
        {drawn && (
          <BarChart
            responsive
            data={data}
            style={{ width: '100%', height: '100%' }}
            margin={{ top: markers.length > 0 ? 24 : 8, right: 12, bottom: 0, left: 0 }}
            barCategoryGap={rows.length > 20 ? 2 : '18%'}
          >
            <CartesianGrid vertical={false} />
            <XAxis
              dataKey="name"
              className={frame.axis}
              tickLine={false}
              interval="preserveStartEnd"
              minTickGap={12}
            />
            <YAxis
              type="number"
              allowDecimals={false}
              tickFormatter={formatTick}
              {...(ticks ? { ticks, domain: [0, ticks.at(-1) ?? 0] } : {})}
              className={frame.axis}
              tickLine={false}
              axisLine={false}
              width={64}
            />
            <Tooltip
              cursor={{ className: frame.cursor }}
              isAnimationActive={false}
              content={({ active, payload }) => {
                const row = active ? (payload[0]?.payload as HistoryRow | undefined) : undefined;
                if (!row) return null;
                return (
                  <div className={frame.tooltip}>
                    <p className={frame.tooltipTime}>
                      {row.label}
                      {row.current ? ' — current period, still counting' : ''}
                    </p>
                    <dl className={styles.tooltipList}>
                      {series.map((s, i) => (
                        <div key={s.key} className={styles.tooltipRow}>
                          <dt>
                            <span
                              className={styles.swatch}
                              style={{ background: `var(--line-${i})` }}
                            />
                            {s.label}
                          </dt>
                          <dd>{format(row[measure][s.key] ?? 0)}</dd>
                        </div>
                      ))}
                    </dl>
                  </div>
                );
              }}
            />
            {series.map((s, i) => (
              <Bar
                key={s.key}
                dataKey={`s:${s.key}`}
                stackId="usage"
                fill={`var(--line-${i})`}
                isAnimationActive={false}
                minPointSize={0}
              >
                {rows.map((r) => (
                  <Cell key={r.start} fillOpacity={r.current ? 0.45 : 1} />
                ))}
              </Bar>
            ))}
            <DeploymentMarkerLines
              markers={markers}
              onHover={setHovered}
              onOpen={onOpenDeployment}
              at={place}
            />
          </BarChart>
        )}
        <DeploymentMarkerTooltip hovered={hovered} />
      </div>
    </div>
  );
}

/** A bar's category: its label, and "(so far)" on the current period. */
const barName = (r: HistoryRow) => (r.current ? `${r.label} (so far)` : r.label);

// Series keys are project ids or stream names: prefixed so none collides with a row field.
function prefixed(values: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [`s:${k}`, v]));
}
