import { useEffect, useRef, useState } from 'react';
import { formatDuration } from '../../lib/format-duration';
import { timeTicks, type TimeTick } from './time-axis';
import styles from './waterfall.module.css';
import type { ZoomWindow } from './zoom-window';

/** The width of an element, followed as it resizes. */
export function useElementWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** The ticks of the view for a bar column `width` pixels wide: about one per 96 px. */
export function ticksFor(traceMs: number, zoom: ZoomWindow, width: number): TimeTick[] {
  if (width <= 0) return [];
  return timeTicks(zoom.from * traceMs, zoom.to * traceMs, Math.max(2, Math.floor(width / 96)));
}

/** The tick labels of the time axis over the bar column (times from the trace start). */
export function TimeAxisTicks({
  ticks,
  axisRef,
}: {
  ticks: readonly TimeTick[];
  axisRef: React.RefObject<HTMLDivElement | null>;
}) {
  return (
    <div ref={axisRef} className={styles.axis} aria-label="Time from the trace start" role="group">
      {ticks.map((t) => (
        <span
          key={t.ms}
          className={`${styles.tick} ${t.at > 0.94 ? styles.tickEnd : ''}`}
          style={{ left: `${t.at * 100}%` }}
        >
          {formatDuration(t.ms)}
        </span>
      ))}
    </div>
  );
}
