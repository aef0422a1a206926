import type { DeploymentTimeline } from './deployment-timeline';
import type { Rng } from './random';
import { emitTrace, treeDurationMs, type EmittedTrace, type Failure } from './span-tree';
import type { Collector } from './telemetry-collector';
import { buildFlavor, type Flavor, type MobileApp } from './trace-flavors';
import { sampleTimes } from './traffic-shape';
import { scaled, type WorldContext } from './world-context';
import { DAY_MS, HOUR_MS, type Environment, type ServiceName, type Window } from './world-model';

export type TraceOptions = {
  environment?: Environment;
  failure?: Failure;
  /** Pin a service's release (an error that only one release has). */
  releases?: Partial<Record<ServiceName, string>>;
  app?: MobileApp;
  /** Size of an inventory reconciliation, in spans. */
  spans?: number;
};

/**
 * Builds traces and records their spans. Issues, logs and actions that refer to a trace ask
 * it for one, so every `trace_id` they carry belongs to a trace that was really sent.
 */
export type TraceFactory = {
  build(rng: Rng, flavor: Flavor, at: number, opts?: TraceOptions): EmittedTrace;
  /** Every trace built so far, for the logs that describe them. */
  readonly traces: EmittedTrace[];
};

export function createTraceFactory(
  timeline: DeploymentTimeline,
  out: Collector,
  window: Window,
): TraceFactory {
  const traces: EmittedTrace[] = [];
  return {
    traces,
    build(rng, flavor, at, opts = {}) {
      const environment = opts.environment ?? (rng.chance(0.05) ? 'staging' : 'production');
      const releases = new Map<ServiceName, string>();
      const releaseOf = (service: ServiceName): string => {
        let r = releases.get(service);
        if (r === undefined) {
          r = opts.releases?.[service] ?? timeline.releaseFor(service, environment, at, rng);
          releases.set(service, r);
        }
        return r;
      };
      const tree = buildFlavor(flavor, {
        rng,
        releaseOf,
        app: opts.app ?? (rng.chance(0.55) ? 'shop-ios' : 'shop-android'),
        ...(opts.spans !== undefined ? { spans: opts.spans } : {}),
      });
      // A trace must have ended by "now": a late one starts earlier instead.
      const duration = treeDurationMs(tree, opts.failure);
      const startMs = Math.min(at, window.to - Math.ceil(duration) - 1);
      const trace = emitTrace(rng, tree, {
        startMs,
        environment,
        releaseOf,
        ...(opts.failure ? { failure: opts.failure } : {}),
      });
      for (const s of trace.spans) out.add('trace_spans', s.project, s.sdk, s.item);
      traces.push(trace);
      return trace;
    },
  };
}

/** What the shop's traffic looks like when one request in a hundred is traced. */
const REQUEST_MIX: readonly (readonly [Flavor, number])[] = [
  ['product_page', 24],
  ['cart_page', 11],
  ['add_to_cart', 11],
  ['checkout', 5],
  ['search', 10],
  ['mobile_product', 8],
  ['mobile_cart', 7],
  ['mobile_checkout', 3],
  ['order_worker', 8],
  ['stock_lookup', 8],
];

/** `count` request traces at moments shaped by the daily rhythm, within `window`. */
export function buildRequestTraces(ctx: WorldContext, rng: Rng, count: number, window: Window) {
  for (const t of sampleTimes(rng, count, [window])) {
    ctx.traces.build(rng, rng.weighted(REQUEST_MIX), t);
  }
}

/**
 * Two weeks of traces: sampled requests, the hourly price refresh, the nightly stock
 * reconciliation (hundreds of spans) and its weekly full run on Sundays (~5,000 spans).
 */
export function generateTraces(ctx: WorldContext): void {
  const rng = ctx.rng.fork('traces');
  const { from, to } = ctx.window;
  buildRequestTraces(ctx, rng, scaled(ctx, 6000, 40), ctx.window);

  const refreshes = scaled(ctx, 336, 6);
  const step = (to - from) / refreshes;
  for (let i = 0; i < refreshes; i++) {
    ctx.traces.build(rng, 'price_refresh', from + i * step + rng.int(200, 3000), {
      environment: 'production',
    });
  }

  const fullRun = Math.min(5000, scaled(ctx, 5000, 120));
  for (let day = Math.floor(from / DAY_MS) * DAY_MS; day < to; day += DAY_MS) {
    const at = day + 2 * HOUR_MS + rng.int(0, 90_000);
    if (at < from || at > to - HOUR_MS) continue;
    const sunday = new Date(at).getUTCDay() === 0;
    const spans = sunday ? fullRun : Math.min(800, scaled(ctx, rng.int(300, 700), 12));
    ctx.traces.build(rng, 'inventory_reconcile', at, { environment: 'production', spans });
  }
}
