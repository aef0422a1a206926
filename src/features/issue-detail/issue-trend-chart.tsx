import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCompactCount } from '../../lib/format-bytes';
import { formatUtcTick } from '../../lib/time-ticks';
import frame from '../../ui/bar-chart-frame.module.css';
import type { DeploymentMarker } from '../../widgets/deployment-marks/deployment-markers';
import {
  DeploymentMarkerLines,
  DeploymentMarkerTooltip,
  useHoveredMarker,
} from '../../widgets/deployment-marks/deployment-marker-lines';
import { bucketRangeText, eventCount, type IssueTrend, type TrendBar } from './issue-trend-data';
import styles from './issue-trend.module.css';

/**
 * The issue's events per bucket as bars on a UTC time axis, with the deployments of its
 * service and environment marked as on every time chart. Only draws: `issueTrend` shapes it.
 */
export function IssueTrendChart({
  label,
  trend,
  markers,
  onOpenDeployment,
}: {
  label: string;
  trend: IssueTrend;
  markers: readonly DeploymentMarker[];
  onOpenDeployment: (marker: DeploymentMarker) => void;
}) {
  const [hovered, setHovered] = useHoveredMarker();
  return (
    <div className={`${frame.chart} ${styles.chart}`} role="img" aria-label={label}>
      <BarChart
        responsive
        data={trend.bars}
        style={{ width: '100%', height: '100%' }}
        margin={{ top: 22, right: 8, bottom: 0, left: 0 }}
        barCategoryGap={trend.bars.length > 60 ? 0 : 1}
      >
        <CartesianGrid vertical={false} />
        <XAxis
          type="number"
          dataKey="x"
          scale="time"
          domain={trend.domain}
          ticks={trend.ticks}
          tickFormatter={(v: number) => formatUtcTick(v, trend.span)}
          className={frame.axis}
          tickLine={false}
          allowDataOverflow
        />
        <YAxis
          type="number"
          allowDecimals={false}
          tickCount={3}
          tickFormatter={formatCompactCount}
          className={frame.axis}
          tickLine={false}
          axisLine={false}
          width={36}
        />
        <Tooltip
          cursor={{ className: frame.cursor }}
          isAnimationActive={false}
          content={({ active, payload }) => {
            const bar = active ? (payload[0]?.payload as TrendBar | undefined) : undefined;
            if (!bar) return null;
            return (
              <div className={frame.tooltip}>
                <p className={frame.tooltipTime}>{bucketRangeText(bar.start, bar.end)}</p>
                <p className={styles.tooltipValue}>{eventCount(bar.count)}</p>
              </div>
            );
          }}
        />
        <Bar dataKey="count" className={styles.bar} isAnimationActive={false} minPointSize={0} />
        <DeploymentMarkerLines markers={markers} onHover={setHovered} onOpen={onOpenDeployment} />
      </BarChart>
      <DeploymentMarkerTooltip hovered={hovered} />
    </div>
  );
}
