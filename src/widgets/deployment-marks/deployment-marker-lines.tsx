import { useState } from 'react';
import { ReferenceLine } from 'recharts';
import { DeploymentTooltip, MarkerShape } from './deployment-marker';
import type { DeploymentMarker } from './deployment-markers';
import styles from './deployment-marker-lines.module.css';

/** The marker under the pointer and where it is drawn (px from the chart's left). */
export type HoveredMarker = { marker: DeploymentMarker; left: number };

/** The hover state a chart keeps for its markers (one tooltip at a time). */
export function useHoveredMarker() {
  return useState<HoveredMarker | null>(null);
}

/**
 * Deployments on a recharts time chart: a dashed vertical line per deployment with its shape
 * above the plot (a triangle when it succeeded, a crossed square when it failed). Hovering a
 * shape reports it (for `DeploymentMarkerTooltip`), clicking opens its release. Render it
 * inside the chart, after the data; leave about 24px of top margin for the shapes. `at` places
 * a marker on a category axis (the bucket label); a time axis takes `marker.x` as it is.
 */
export function DeploymentMarkerLines({
  markers,
  onHover,
  onOpen,
  at,
}: {
  markers: readonly DeploymentMarker[];
  onHover: (hovered: HoveredMarker | null) => void;
  onOpen: (marker: DeploymentMarker) => void;
  at?: (marker: DeploymentMarker) => number | string | undefined;
}) {
  return (
    <>
      {markers.map((m) => {
        const x = at ? at(m) : m.x;
        if (x === undefined) return null;
        return (
          <ReferenceLine
            key={m.key}
            x={x}
            className={m.failed ? styles.lineFailed : styles.line}
            strokeDasharray={m.failed ? '2 2' : '4 3'}
            ifOverflow="visible"
            label={(props: { viewBox?: { x?: number; y?: number } }) => {
              const left = props.viewBox?.x;
              const top = props.viewBox?.y;
              if (left === undefined || top === undefined) return <g />;
              return (
                <g
                  className={styles.marker}
                  data-deployment={m.key}
                  transform={`translate(${left} ${top - 10})`}
                  onMouseEnter={() => onHover({ marker: m, left })}
                  onMouseLeave={() => onHover(null)}
                  onClick={() => onOpen(m)}
                  aria-hidden="true"
                >
                  <rect x={-7} y={-7} width={14} height={16} fill="transparent" />
                  <MarkerShape failed={m.failed} />
                </g>
              );
            }}
          />
        );
      })}
    </>
  );
}

/** The hovered deployment's tooltip, over the chart (its box must be `position: relative`). */
export function DeploymentMarkerTooltip({ hovered }: { hovered: HoveredMarker | null }) {
  if (hovered === null) return null;
  return (
    <div className={styles.tooltip} style={{ left: hovered.left }}>
      <DeploymentTooltip marker={hovered.marker} />
    </div>
  );
}
