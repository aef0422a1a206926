import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../core/logger';
import type { Store } from '../core/store/store';
import { evaluateDueRules } from './alert-evaluator';
import { sendDueDeliveries } from './delivery-worker';

/** How often (real time) the delivery worker looks for due deliveries. */
const DELIVERY_POLL_MS = 1_000;

/**
 * Runs the evaluator and the delivery worker in the background, each on its own timer and
 * never two rounds of one at once: a slow webhook delays only deliveries, never evaluation or
 * ingestion. The evaluator looks every few seconds whether a window has ended on the service
 * clock, so a restart catches up at once. Returns a stop that waits for the running rounds.
 */
export function scheduleAlerts(
  store: Store,
  now: () => number,
  log: Pick<Logger, 'error'>,
  everySeconds: number,
): () => Promise<void> {
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const everyMs = everySeconds * 1000;
  let stopped = false;
  const loop = (name: string, periodMs: number, round: () => Promise<unknown>) => {
    let running: Promise<void> = Promise.resolve();
    let busy = false;
    const tick = () => {
      if (busy || stopped) return;
      busy = true;
      running = round()
        .then(() => undefined)
        .catch((e: unknown) => log.error(`alerts: ${name} round failed (${String(e)})`))
        .finally(() => {
          busy = false;
        });
    };
    const timer = setInterval(tick, periodMs);
    timer.unref();
    setImmediate(tick);
    return async () => {
      clearInterval(timer);
      await running;
    };
  };
  const stopEvaluation = loop('evaluation', Math.min(everyMs, 5_000), () =>
    evaluateDueRules({ store, now, log, everyMs, holder }),
  );
  const stopDeliveries = loop('delivery', DELIVERY_POLL_MS, () =>
    sendDueDeliveries({ store, now, log }),
  );
  return async () => {
    stopped = true;
    await Promise.all([stopEvaluation(), stopDeliveries()]);
  };
}
