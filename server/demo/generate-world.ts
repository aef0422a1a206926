import { buildDeploymentTimeline, type DemoDeployment } from './deployment-timeline';
import { generateActions } from './generate-actions';
import { generateIssues } from './generate-issues';
import { generateLogs } from './generate-logs';
import { generateMetrics } from './generate-metrics';
import { generateTraces } from './generate-traces';
import { createTraceFactory } from './trace-factory';
import { planBatches, type PlannedBatch } from './plan-batches';
import { createRng } from './random';
import { STREAMS, createCollector, type Stream } from './telemetry-collector';
import type { WorldContext } from './world-context';
import { worldWindow } from './world-model';

export type DemoWorldOptions = {
  seed: number;
  /** The service's start time; the world covers the two weeks before it. */
  now: number;
  /** Multiplies volumes (1 = the full world). */
  scale: number;
};

export type DemoWorld = {
  batches: PlannedBatch[];
  /** Kept as data until the deployment route exists (see deployment-timeline.ts). */
  deployments: DemoDeployment[];
  counts: Record<Stream, number>;
  traceCount: number;
};

/**
 * The whole demo world as ingest requests. Pure: the same seed, now and scale give the same
 * requests, byte for byte.
 */
export function generateDemoWorld(opts: DemoWorldOptions): DemoWorld {
  if (!(opts.scale > 0) || !Number.isFinite(opts.scale)) {
    throw new Error(`demo scale must be a positive number, got ${opts.scale}`);
  }
  const rng = createRng(opts.seed);
  const window = worldWindow(opts.now);
  const timeline = buildDeploymentTimeline(rng.fork('deployments'), opts.now);
  const out = createCollector();
  const ctx: WorldContext = {
    rng,
    window,
    scale: opts.scale,
    timeline,
    out,
    traces: createTraceFactory(timeline, out, window),
  };
  generateTraces(ctx);
  generateIssues(ctx);
  generateActions(ctx);
  // Last of the trace users: logs describe every trace built above.
  generateLogs(ctx);
  generateMetrics(ctx);
  const counts = Object.fromEntries(STREAMS.map((s) => [s, out.count(s)])) as Record<
    Stream,
    number
  >;
  return {
    batches: planBatches(out.buckets()),
    deployments: timeline.deployments,
    counts,
    traceCount: ctx.traces.traces.length,
  };
}
