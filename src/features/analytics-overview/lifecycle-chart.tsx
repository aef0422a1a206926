import { Bar, BarChart, CartesianGrid, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import {
  LIFECYCLE_LABELS,
  LIFECYCLE_STATES,
  type LifecycleRow,
  symmetricTicks,
  type LifecycleState,
} from './lifecycle-data';
import frame from '../../ui/bar-chart-frame.module.css';
import styles from './lifecycle-chart.module.css';
import {
  bucketPlacement,
  type DeploymentMarker,
} from '../../widgets/deployment-marks/deployment-markers';
import {
  DeploymentMarkerLines,
  DeploymentMarkerTooltip,
  useHoveredMarker,
} from '../../widgets/deployment-marks/deployment-marker-lines';
import { useMemo } from 'react';

/** The CSS class of a state's swatch (shared by the chart's tooltip and the section's legend). */
export const STATE_SWATCH: Record<LifecycleState, string> = {
  new: `${styles.swatch} ${styles.new}`,
  returning: `${styles.swatch} ${styles.returning}`,
  resurrecting: `${styles.swatch} ${styles.resurrecting}`,
  dormant: `${styles.swatch} ${styles.dormant}`,
};

export const lifecyclePalette = styles.palette;

/**
 * Stacked bars per period: new, returning and resurrecting users above zero, dormant users
 * below it, and the scope's deployments marked on the bar of their period. Only draws what
 * `lifecycleChartData` shaped.
 */
export function LifecycleChart({
  label,
  rows,
  extent,
  markers,
  onOpenDeployment,
}: {
  label: string;
  rows: LifecycleRow[];
  extent: number;
  markers: readonly DeploymentMarker[];
  onOpenDeployment: (marker: DeploymentMarker) => void;
}) {
  const [hovered, setHovered] = useHoveredMarker();
  const place = useMemo(
    () => bucketPlacement(rows.map((r) => ({ start: Date.parse(r.start), label: r.label }))),
    [rows],
  );
  const ticks = symmetricTicks(extent);
  const top = ticks[ticks.length - 1] ?? 1;
  return (
    <div className={frame.chart} role="img" aria-label={label}>
      <BarChart
        responsive
        data={rows}
        stackOffset="sign"
        style={{ width: '100%', height: '100%' }}
        margin={{ top: 24, right: 12, bottom: 0, left: 0 }}
        barCategoryGap="18%"
      >
        <CartesianGrid vertical={false} />
        <XAxis
          dataKey="label"
          type="category"
          className={frame.axis}
          tickLine={false}
          interval="preserveStartEnd"
          minTickGap={12}
        />
        <YAxis
          type="number"
          domain={[-top, top]}
          ticks={ticks}
          allowDecimals={false}
          tickFormatter={(v: number) => Math.abs(v).toLocaleString('en-US')}
          className={frame.axis}
          tickLine={false}
          axisLine={false}
          width={48}
        />
        <ReferenceLine y={0} className={styles.zero} />
        <Tooltip
          cursor={{ className: frame.cursor }}
          isAnimationActive={false}
          content={({ active, payload }) => {
            const row = active ? (payload[0]?.payload as LifecycleRow | undefined) : undefined;
            if (!row) return null;
            return (
              <div className={frame.tooltip}>
                <p className={frame.tooltipTime}>
                  Period from {row.label} UTC · {row.active.toLocaleString('en-US')} active
                </p>
                <dl className={styles.tooltipList}>
                  {LIFECYCLE_STATES.map((state) => (
                    <StateLine key={state} state={state} value={Math.abs(row[state])} />
                  ))}
                </dl>
              </div>
            );
          }}
        />
        {LIFECYCLE_STATES.map((state) => (
          <Bar
            key={state}
            dataKey={state}
            name={LIFECYCLE_LABELS[state]}
            stackId="users"
            fill={`var(--state-${state})`}
            isAnimationActive={false}
          />
        ))}
        <DeploymentMarkerLines
          markers={markers}
          onHover={setHovered}
          onOpen={onOpenDeployment}
          at={place}
        />
      </BarChart>
      <DeploymentMarkerTooltip hovered={hovered} />
    </div>
  );
}

function StateLine({ state, value }: { state: LifecycleState; value: number }) {
  return (
    <>
      <span className={STATE_SWATCH[state]} aria-hidden="true" />
      <dt>{LIFECYCLE_LABELS[state]}</dt>
      <dd>{value.toLocaleString('en-US')}</dd>
    </>
  );
}
