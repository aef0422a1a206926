import { createHmac } from 'node:crypto';
import type { Logger } from '../core/logger';
import type { DeliveryRecord, WebhookRecord } from '../core/store/state/alerts';
import type { Store } from '../core/store/store';

/** Waits after the 1st, 2nd, … failed attempt; after the last one the delivery is `failed`. */
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000] as const;
/** An attempt without an answer within this long is a failure (`timeout`). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Deliveries sent at once per round; each is claimed so another instance skips it. */
const ROUND = 20;
/** Longer than an attempt can take: a claim left by a killed instance frees itself soon after. */
const CLAIM_MS = ATTEMPT_TIMEOUT_MS + 5_000;

export type DeliveryDeps = {
  store: Store;
  /** The service clock: due times, attempt times and the signature's `t`. */
  now: () => number;
  log: Pick<Logger, 'error'>;
  timeoutMs?: number;
};

/** `Lookout-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export function signature(secret: string, unixSeconds: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/**
 * Sends the deliveries due now, all at once (a slow receiver delays only its own), and records
 * each attempt: a 2xx is `delivered`; otherwise the next attempt waits per `RETRY_DELAYS_MS`,
 * and after the last the delivery is `failed`. Returns how many attempts were made.
 */
export async function sendDueDeliveries(d: DeliveryDeps): Promise<number> {
  const now = d.now();
  const due = await d.store.alerts.claimDueDeliveries(now, now + CLAIM_MS, ROUND);
  await Promise.all(
    due.map(async (delivery) => {
      const webhook = await d.store.alerts.webhook(delivery.webhookId);
      // A deleted webhook takes its deliveries with it; nothing is left to send.
      if (webhook === null) return;
      await attempt(d, webhook, delivery).catch((err: unknown) =>
        d.log.error(`alerts: delivery ${delivery.id} not recorded (${String(err)})`),
      );
    }),
  );
  return due.length;
}

async function attempt(d: DeliveryDeps, webhook: WebhookRecord, delivery: DeliveryRecord) {
  const at = d.now();
  const started = performance.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    const res = await fetch(webhook.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(d.timeoutMs ?? ATTEMPT_TIMEOUT_MS),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Lookout-Webhooks/1',
        'lookout-event': delivery.event,
        'lookout-delivery': delivery.id,
        'lookout-signature': signature(webhook.secret, Math.floor(at / 1000), delivery.payload),
      },
      body: delivery.payload,
    });
    status = res.status;
    await res.body?.cancel();
    if (status < 200 || status > 299) error = `answered ${status}`;
  } catch (err) {
    error =
      err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')
        ? `timeout after ${(d.timeoutMs ?? ATTEMPT_TIMEOUT_MS) / 1000} s`
        : `not reached (${err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err)})`;
  }
  const responseMs = status === null ? null : Math.round(performance.now() - started);
  const failures = delivery.attempts.length + 1;
  const delay = RETRY_DELAYS_MS[failures - 1];
  const next =
    error === null
      ? { state: 'delivered' as const, nextAttemptAt: null }
      : delay === undefined
        ? { state: 'failed' as const, nextAttemptAt: null }
        : { state: 'pending' as const, nextAttemptAt: at + delay };
  await d.store.alerts.recordAttempt(delivery.id, { at, status, responseMs, error }, next);
}
