import type { DemoCredentials } from './demo-accounts';
import { buildDeploymentTimeline } from './deployment-timeline';
import { generateSessions } from './generate-actions';
import { generateIssuesNow } from './generate-issues';
import { generateBackgroundLogs, generateTraceLogs } from './generate-logs';
import { buildRequestTraces } from './generate-traces';
import { createTraceFactory } from './trace-factory';
import { planBatches } from './plan-batches';
import { createRng } from './random';
import { ingestKeysByProject } from './seed-demo-world';
import {
  emptyCounts,
  httpTransport,
  sendBatches,
  type IngestTransport,
  type StoppedStream,
} from './send-batches';
import { STREAMS, createCollector, type Stream } from './telemetry-collector';
import type { WorldContext } from './world-context';

/**
 * Keeps new telemetry flowing into a running service so the live feed has something to show:
 * mostly logs, some traced requests, shopping sessions and the odd error, at about `rate`
 * events per second, dated now. One request per stream, project and SDK each second.
 */
export type LiveOptions = {
  baseUrl: string;
  credentials: DemoCredentials;
  /** Events per second (about; traces and sessions come in whole). */
  rate: number;
  seed: number;
  signal: AbortSignal;
  print: (line: string) => void;
  transport?: IngestTransport;
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** How often to print a summary line. */
  reportEveryMs?: number;
};

/** Shares of the event rate, and how many events one unit brings (a trace ~12 spans + logs). */
const MIX = {
  logs: { share: 0.6, perUnit: 1 },
  traces: { share: 0.25, perUnit: 13 },
  sessions: { share: 0.12, perUnit: 4 },
  issues: { share: 0.03, perUnit: 1 },
} as const;
type Unit = keyof typeof MIX;

const TICK_MS = 1000;

const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });

const sum = (c: Record<Stream, number>) => STREAMS.reduce((n, s) => n + c[s], 0);

export async function runLiveTrickle(opts: LiveOptions): Promise<Record<Stream, number>> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? abortableSleep;
  const transport = opts.transport ?? httpTransport(opts.baseUrl);
  const keys = ingestKeysByProject(opts.credentials);
  const root = createRng(opts.seed);
  const timeline = buildDeploymentTimeline(root.fork('deployments'), now());
  const stopped = new Set<Stream>();
  const carry: Record<Unit, number> = { logs: 0, traces: 0, sessions: 0, issues: 0 };
  const total = emptyCounts();
  let minute = emptyCounts();
  let last = now();
  let lastReport = last;
  const reportEvery = opts.reportEveryMs ?? 60_000;

  for (let tick = 0; !opts.signal.aborted; tick++) {
    const started = now();
    const rng = root.fork(`tick-${tick}`);
    const window = { from: last, to: started };
    const seconds = Math.max(0, (started - last) / 1000);
    last = started;
    const counts = {} as Record<Unit, number>;
    for (const unit of Object.keys(MIX) as Unit[]) {
      carry[unit] += (opts.rate * seconds * MIX[unit].share) / MIX[unit].perUnit;
      counts[unit] = Math.floor(carry[unit]);
      carry[unit] -= counts[unit];
    }
    const out = createCollector();
    const ctx: WorldContext = {
      rng,
      window,
      scale: 1,
      timeline,
      out,
      traces: createTraceFactory(timeline, out, window),
    };
    generateBackgroundLogs(ctx, rng, counts.logs);
    buildRequestTraces(ctx, rng, counts.traces, window);
    generateSessions(ctx, rng, counts.sessions);
    generateIssuesNow(ctx, rng, counts.issues);
    generateTraceLogs(ctx, rng, ctx.traces.traces);

    try {
      const report = await sendBatches(planBatches(out.buckets()), {
        transport,
        keyOf: (project) => keys[project],
        stopped,
        onStopped: (s: StoppedStream) =>
          opts.print(
            `usage limit reached: not sending ${s.stream} until ${s.reset_at} (${s.limit})`,
          ),
      });
      for (const s of STREAMS) {
        total[s] += report.accepted[s];
        minute[s] += report.accepted[s];
      }
    } catch (e) {
      // A service that is restarting refuses connections for a moment: keep trying.
      if (e instanceof TypeError) opts.print(`service unreachable at ${opts.baseUrl}; retrying`);
      else throw e;
    }

    if (now() - lastReport >= reportEvery) {
      lastReport = now();
      opts.print(
        `${new Date(lastReport).toISOString().slice(11, 19)} sent ${sum(minute)} events in the last minute ` +
          `(${minute.logs} logs, ${minute.trace_spans} spans, ${minute.actions} actions, ` +
          `${minute.issues} issue events); ${sum(total)} since start`,
      );
      minute = emptyCounts();
    }
    await sleep(Math.max(0, TICK_MS - (now() - started)), opts.signal);
  }
  return total;
}
