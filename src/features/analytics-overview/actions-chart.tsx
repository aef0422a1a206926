import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { DeploymentMarker } from '../../widgets/deployment-marks/deployment-markers';
import {
  DeploymentMarkerLines,
  DeploymentMarkerTooltip,
  useHoveredMarker,
} from '../../widgets/deployment-marks/deployment-marker-lines';
import { formatUtcDateTime } from '../../lib/format-time';
import { formatUtcTick } from '../../lib/time-ticks';
import frame from '../../ui/bar-chart-frame.module.css';
import styles from './actions-chart.module.css';
import type { BucketRow } from './overview-chart-data';

/**
 * Actions per bucket as bars on a time axis, with the scope's deployments marked as on every
 * time chart. Only draws: the rows come from `actionsChartData`, and the totals beside the
 * chart say the same numbers in words.
 */
export function ActionsChart({
  label,
  rows,
  ticks,
  span,
  domain,
  markers,
  onOpenDeployment,
}: {
  label: string;
  rows: BucketRow[];
  ticks: number[];
  span: number;
  domain: [number, number];
  markers: readonly DeploymentMarker[];
  onOpenDeployment: (marker: DeploymentMarker) => void;
}) {
  const [hovered, setHovered] = useHoveredMarker();
  return (
    <div className={frame.chart} role="img" aria-label={label}>
      <BarChart
        responsive
        data={rows}
        style={{ width: '100%', height: '100%' }}
        margin={{ top: 24, right: 12, bottom: 0, left: 0 }}
        barCategoryGap={rows.length > 100 ? 0 : 1}
      >
        <CartesianGrid vertical={false} />
        <XAxis
          type="number"
          dataKey="x"
          scale="time"
          domain={domain}
          ticks={ticks}
          tickFormatter={(v: number) => formatUtcTick(v, span)}
          className={frame.axis}
          tickLine={false}
        />
        <YAxis
          type="number"
          allowDecimals={false}
          tickFormatter={(v: number) => v.toLocaleString('en-US')}
          className={frame.axis}
          tickLine={false}
          axisLine={false}
          width={48}
        />
        <Tooltip
          cursor={{ className: frame.cursor }}
          isAnimationActive={false}
          content={({ active, payload }) => {
            const row = active ? (payload[0]?.payload as BucketRow | undefined) : undefined;
            if (!row) return null;
            return (
              <div className={frame.tooltip}>
                <p className={frame.tooltipTime}>
                  {formatUtcDateTime(new Date(row.x).toISOString())}
                </p>
                <p className={styles.tooltipValue}>
                  {row.events.toLocaleString('en-US')} {row.events === 1 ? 'action' : 'actions'}
                </p>
              </div>
            );
          }}
        />
        <Bar dataKey="events" className={styles.bar} isAnimationActive={false} minPointSize={0} />
        <DeploymentMarkerLines markers={markers} onHover={setHovered} onOpen={onOpenDeployment} />
      </BarChart>
      <DeploymentMarkerTooltip hovered={hovered} />
    </div>
  );
}
