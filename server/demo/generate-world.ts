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

/** What is known once every batch has been made. */
export type DemoWorldSummary = Omit<DemoWorld, 'batches'>;

/**
 * A stage of the world: the requests of the streams no later generator adds to, in the order
 * `planBatches` gives them, so the stages joined are the whole world's batches, byte for byte.
 */
export type DemoWorldStage = { batches: PlannedBatch[] };

/**
 * Each stream's requests as soon as its items are all made (a stream's bucket is sorted by
 * time before it is cut into requests, so nothing of it can go earlier): issues after the
 * issue generator; logs, spans and actions (in the plan's order: logs before spans) after the
 * log generator; metrics last. A sender can start on the issues while the rest is generated.
 */
export function* demoWorldStages(
  opts: DemoWorldOptions,
): Generator<DemoWorldStage, DemoWorldSummary, void> {
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
  const stage = (streams: readonly Stream[]): DemoWorldStage => {
    // A generator that later added to a stream already sent would be a bug: seal throws then.
    for (const s of streams) out.seal(s);
    return { batches: planBatches(out.buckets().filter((b) => streams.includes(b.stream))) };
  };
  generateTraces(ctx);
  generateIssues(ctx);
  yield stage(['issues']);
  generateActions(ctx);
  // Last of the trace users: logs describe every trace built above.
  generateLogs(ctx);
  yield stage(['logs', 'trace_spans', 'actions']);
  generateMetrics(ctx);
  yield stage(['metrics']);
  const counts = Object.fromEntries(STREAMS.map((s) => [s, out.count(s)])) as Record<
    Stream,
    number
  >;
  return { deployments: timeline.deployments, counts, traceCount: ctx.traces.traces.length };
}

/**
 * The whole demo world as ingest requests. Pure: the same seed, now and scale give the same
 * requests, byte for byte.
 */
export function generateDemoWorld(opts: DemoWorldOptions): DemoWorld {
  const stages = demoWorldStages(opts);
  const batches: PlannedBatch[] = [];
  for (;;) {
    const next = stages.next();
    if (next.done) return { batches, ...next.value };
    batches.push(...next.value.batches);
  }
}
