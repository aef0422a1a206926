import type { SendableBatch } from './encoded-batch';
import { STREAMS, type Stream } from './telemetry-collector';
import type { ProjectKey } from './world-model';

/**
 * Sends planned batches, each project's in order, up to `inFlight` of them in flight at once
 * (projects side by side: a store that writes projects in parallel, like the ClickHouse tier,
 * seeds faster; a project's requests that wait together are written together), and follows
 * the ingest routes' answers the way the spec's retry rules ask: `rate_limited` waits
 * `retry_after_seconds` (then backs off with jitter) and re-sends the same body, same ids;
 * `usage_limit_exceeded` stops that stream; any other non-200 is a bug in the demo and throws.
 */
export type IngestRequest = { path: string; key: string; body: string | Uint8Array<ArrayBuffer> };
export type IngestResponse = { status: number; body: unknown };
export type IngestTransport = (req: IngestRequest) => Promise<IngestResponse>;

type FetchLike = (path: string, init: RequestInit) => Response | Promise<Response>;

async function readResponse(res: Response): Promise<IngestResponse> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page): keep the text for the error message.
  }
  return { status: res.status, body };
}

const requestInit = (req: IngestRequest): RequestInit => ({
  method: 'POST',
  headers: { Authorization: `Bearer ${req.key}`, 'Content-Type': 'application/json' },
  body: req.body,
});

/** In process, through the built app: the real routes and middleware, without a socket. */
export function appTransport(app: { request: FetchLike }): IngestTransport {
  return async (req) => readResponse(await app.request(req.path, requestInit(req)));
}

/** Over HTTP to a running service. */
export function httpTransport(baseUrl: string): IngestTransport {
  const base = baseUrl.replace(/\/+$/, '');
  return async (req) => readResponse(await fetch(`${base}${req.path}`, requestInit(req)));
}

export class DemoIngestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`demo ingest of ${what} failed: HTTP ${status} ${JSON.stringify(body).slice(0, 500)}`);
  }
}

export type StoppedStream = { stream: Stream; limit: string; reset_at: string };

export type SendReport = {
  accepted: Record<Stream, number>;
  alreadyAccepted: number;
  requests: number;
  rateLimitedRetries: number;
  stopped: StoppedStream[];
};

export type SendOptions = {
  transport: IngestTransport;
  keyOf: (project: ProjectKey) => string;
  sleep?: (ms: number) => Promise<void>;
  /** Give up on one batch after this many `rate_limited` answers in a row. */
  maxRateLimitedRetries?: number;
  onStopped?: (stopped: StoppedStream) => void;
  /** Streams already stopped (the live trickle keeps them across calls). */
  stopped?: Set<Stream>;
  /**
   * Requests of one project in flight at once (1: each waits for the previous answer). The
   * journaled ingest writes a project's requests that wait together as one insert per table.
   */
  inFlight?: number;
};

export const emptyCounts = (): Record<Stream, number> =>
  Object.fromEntries(STREAMS.map((s) => [s, 0])) as Record<Stream, number>;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type ErrorBody = {
  code?: unknown;
  retry_after_seconds?: unknown;
  limit?: unknown;
  reset_at?: unknown;
};

const asObject = (body: unknown): ErrorBody & Record<string, unknown> =>
  typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};

type Lane = { queue: (SendableBatch | undefined)[]; head: number; waiting: (() => void)[] };

/**
 * `batches` may still be in the making (an async iterable): each project's requests start as
 * soon as its first batch arrives and go on in the order they come.
 */
export async function sendBatches(
  batches: Iterable<SendableBatch> | AsyncIterable<SendableBatch>,
  opts: SendOptions,
): Promise<SendReport> {
  const sleep = opts.sleep ?? defaultSleep;
  const maxRetries = opts.maxRateLimitedRetries ?? 20;
  const stopped = opts.stopped ?? new Set<Stream>();
  const report: SendReport = {
    accepted: emptyCounts(),
    alreadyAccepted: 0,
    requests: 0,
    rateLimitedRetries: 0,
    stopped: [],
  };
  const inFlight = Math.max(1, Math.floor(opts.inFlight ?? 1));
  // After a failure no batch is started (those in flight finish), so the error is the last word.
  let failed = false;
  let firstError: unknown = null;
  let ended = false;
  const lanes = new Map<string, Lane>();
  const runners: Promise<void>[] = [];
  const wakeAll = () => {
    for (const lane of lanes.values()) for (const w of lane.waiting.splice(0)) w();
  };
  const fail = (e: unknown) => {
    if (!failed) firstError = e;
    failed = true;
    wakeAll();
  };
  const take = async (lane: Lane): Promise<SendableBatch | undefined> => {
    while (!failed && lane.head >= lane.queue.length && !ended)
      await new Promise<void>((resolve) => lane.waiting.push(resolve));
    if (failed || lane.head >= lane.queue.length) return undefined;
    const batch = lane.queue[lane.head];
    // Let go of it once taken: a sent body is not kept for the rest of the seed.
    lane.queue[lane.head] = undefined;
    lane.head += 1;
    return batch;
  };
  const run = async (lane: Lane) => {
    for (let batch = await take(lane); batch; batch = await take(lane)) await sendOne(batch);
  };
  try {
    for await (const batch of batches) {
      if (failed) break;
      let lane = lanes.get(batch.project);
      if (!lane) {
        const created: Lane = { queue: [], head: 0, waiting: [] };
        lanes.set(batch.project, (lane = created));
        for (let i = 0; i < inFlight; i++) runners.push(run(created).catch(fail));
      }
      lane.queue.push(batch);
      lane.waiting.shift()?.();
    }
  } catch (e) {
    fail(e);
  } finally {
    ended = true;
    wakeAll();
  }
  await Promise.all(runners);
  if (failed) throw firstError;
  return report;

  async function sendOne(batch: SendableBatch): Promise<void> {
    if (stopped.has(batch.stream)) return;
    // Serialized once: a retry re-sends exactly the same body, so the same ids.
    const req = {
      path: batch.path,
      key: opts.keyOf(batch.project),
      body: batch.body instanceof Uint8Array ? batch.body : JSON.stringify(batch.body),
    };
    for (let attempt = 0; ; attempt++) {
      report.requests++;
      const res = await opts.transport(req);
      const body = asObject(res.body);
      if (res.status === 200) {
        for (const stream of STREAMS) {
          const n = body[stream];
          if (typeof n === 'number') report.accepted[stream] += n;
        }
        if (typeof body.already_accepted === 'number')
          report.alreadyAccepted += body.already_accepted;
        break;
      }
      if (res.status === 429 && body.code === 'rate_limited' && attempt < maxRetries) {
        report.rateLimitedRetries++;
        const base = typeof body.retry_after_seconds === 'number' ? body.retry_after_seconds : 1;
        // The first wait is what the service asked for; later ones back off with jitter.
        const wait =
          base * 1000 * 2 ** Math.min(attempt, 5) + (attempt > 0 ? Math.random() * 250 : 0);
        await sleep(wait);
        continue;
      }
      if (res.status === 429 && body.code === 'usage_limit_exceeded') {
        // Another request of the stream in flight at the time may be refused too: stopped once.
        if (stopped.has(batch.stream)) break;
        const s: StoppedStream = {
          stream: batch.stream,
          limit: String(body.limit ?? 'unknown'),
          reset_at: String(body.reset_at ?? ''),
        };
        stopped.add(batch.stream);
        report.stopped.push(s);
        opts.onStopped?.(s);
        break;
      }
      throw new DemoIngestError(
        res.status,
        res.body,
        `${batch.items} ${batch.stream} (${batch.project})`,
      );
    }
  }
}
