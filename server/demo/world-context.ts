import type { DeploymentTimeline } from './deployment-timeline';
import type { TraceFactory } from './trace-factory';
import type { Rng } from './random';
import type { Collector } from './telemetry-collector';
import type { Window } from './world-model';

/** What every generator works with. Each generator forks its own generator from `rng`. */
export type WorldContext = {
  rng: Rng;
  /** Events fall within it; nothing is dated after `window.to` ("now"). */
  window: Window;
  /** Multiplies volumes; 1 is the full demo world. */
  scale: number;
  timeline: DeploymentTimeline;
  out: Collector;
  traces: TraceFactory;
};

/** A volume at this scale, never below `min` so tiny scales still show every kind of data. */
export const scaled = (ctx: Pick<WorldContext, 'scale'>, base: number, min: number): number =>
  Math.max(min, Math.round(base * ctx.scale));
