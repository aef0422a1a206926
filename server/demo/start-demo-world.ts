import { Worker } from 'node:worker_threads';
import type { SendableBatch } from './encoded-batch';
import { demoWorldStages, type DemoWorldOptions, type DemoWorldSummary } from './generate-world';
import type { WorldMessage } from './world-message';

export type DemoWorldSource = {
  /** The world's batches in the plan's order, each as soon as it is made. */
  batches: AsyncIterable<SendableBatch>;
  /** Settles once every batch has been made. */
  summary: Promise<DemoWorldSummary>;
  /** When generating started (`performance.now()`), so a seed's time counts all of it. */
  startedAt: number;
  /** Where the world is generated: a worker thread, or this one when no worker could start. */
  thread(): 'worker' | 'main';
};

/**
 * Starts generating the demo world, in a worker thread when one can load the generator, so
 * the seed's sending starts with the first stage while generation runs on another core and
 * its 200 MB of objects stay out of the main thread's heap (whose collector otherwise walks
 * them throughout the seed). Where no worker can load this TypeScript (a runner without the
 * tsx loader) the world is generated on this thread, the same batches either way.
 */
export function startDemoWorld(
  opts: DemoWorldOptions,
  how: { worker?: boolean } = {},
): DemoWorldSource {
  const startedAt = performance.now();
  const queue: SendableBatch[] = [];
  let head = 0;
  let ended = false;
  let error: unknown = null;
  let wake: (() => void) | null = null;
  let thread: 'worker' | 'main' = how.worker === false ? 'main' : 'worker';
  let settle: { resolve(s: DemoWorldSummary): void; reject(e: unknown): void } | null = null;
  const summary = new Promise<DemoWorldSummary>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // The sender reads the error from the iterator; this only keeps an unread one quiet.
  summary.catch(() => undefined);
  const signal = () => {
    wake?.();
    wake = null;
  };
  const finish = (e: unknown, s?: DemoWorldSummary) => {
    if (ended) return;
    ended = true;
    error = e;
    if (s) settle?.resolve(s);
    else settle?.reject(e);
    signal();
  };

  // On this thread the stages run as the sender asks for them, between its requests.
  const inThread = demoWorldStages(opts);
  const pullInThread = () => {
    try {
      const next = inThread.next();
      if (next.done) finish(null, next.value);
      else queue.push(...next.value.batches);
    } catch (e) {
      finish(e);
    }
  };

  const worker = thread === 'worker' ? startWorker(opts) : null;
  if (!worker) thread = 'main';
  else {
    let heard = false;
    worker.on('message', (m: WorldMessage) => {
      heard = true;
      if (m.type === 'batch') queue.push(m.batch);
      else finish(null, m.summary);
      signal();
    });
    const failed = (e: unknown) => {
      if (ended) return;
      if (!heard) {
        thread = 'main';
        signal();
      } else finish(e);
    };
    worker.on('error', failed);
    worker.on('exit', (code) => {
      if (!ended) failed(new Error(`demo world worker exited with code ${code} before the end`));
    });
  }

  async function* batches(): AsyncGenerator<SendableBatch> {
    for (;;) {
      if (head < queue.length) {
        const batch = queue[head];
        // Let go of what was handed over: the sender keeps a batch only while sending it.
        queue[head] = undefined as unknown as SendableBatch;
        head++;
        if (batch) yield batch;
        continue;
      }
      if (ended) {
        if (error !== null) throw error;
        return;
      }
      if (thread === 'main') {
        pullInThread();
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  }

  return {
    batches: { [Symbol.asyncIterator]: batches },
    summary,
    startedAt,
    thread: () => thread,
  };
}

/**
 * The worker registers tsx's loader itself, then loads the generator: a worker does not get
 * the loader the service runs under (tsx's `--import` in execArgv is not applied to a worker's
 * first module on Node 20). Null where tsx cannot be resolved.
 */
function startWorker(opts: DemoWorldOptions): Worker | null {
  let api: string;
  try {
    api = import.meta.resolve('tsx/esm/api');
  } catch {
    return null;
  }
  const entry = new URL('./world-worker.ts', import.meta.url).href;
  const code =
    `import(${JSON.stringify(api)})` +
    `.then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { eval: true, workerData: opts });
}
