import type { DeploymentTimeline } from './deployment-timeline';
import type { Rng } from './random';
import { emitTrace, treeDurationMs, type EmittedTrace, type Failure } from './span-tree';
import type { Collector } from './telemetry-collector';
import { buildFlavor, type Flavor, type MobileApp } from './trace-flavors';
import type { Environment, ServiceName, Window } from './world-model';

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
