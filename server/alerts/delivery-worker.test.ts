import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../test-support/api-client';
import { addPerson, type Person } from '../test-support/issues';
import { startService, type RunningService } from '../test-support/start-service';
import { createTenant, type Tenant } from '../test-support/telemetry';
import {
  signatureValid,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../test-support/webhook-receiver';
import { RETRY_DELAYS_MS, sendDueDeliveries } from './delivery-worker';

type Delivery = {
  id: string;
  state: string;
  attempts: {
    at: string;
    status: number | null;
    response_ms: number | null;
    error: string | null;
  }[];
  next_attempt_at: string | null;
};
const silent = { error: () => undefined };

describe('webhook deliveries', () => {
  let svc: RunningService<false>;
  let tenant: Tenant;
  let admin: Person;
  let receiver: WebhookReceiver;
  const send = (method: string, path: string, json?: unknown) =>
    call(svc.baseUrl, method, path, { token: admin.token, json });
  const work = (timeoutMs?: number) =>
    sendDueDeliveries({ store: svc.deps.store, now: svc.clock.now, log: silent, timeoutMs });
  const webhook = async (url = receiver.url) => {
    const res = await send('POST', '/api/alerts/webhooks', {
      organization_id: tenant.organizationId,
      name: 'Receiver',
      url,
    });
    expect(res.status, res.text).toBe(200);
    return res.body as { id: string; secret: string };
  };
  const log = async (webhookId: string) =>
    (
      (await send('GET', `/api/alerts/webhooks/${webhookId}/deliveries`)).body as {
        deliveries: Delivery[];
      }
    ).deliveries;

  beforeAll(async () => {
    svc = await startService({ config: { accessTokenTtlSeconds: 7 * 24 * 3600 } });
    tenant = await createTenant(svc);
    admin = await addPerson(svc, tenant.organizationId, 'admin');
    receiver = await startWebhookReceiver();
  }, 60_000);
  afterAll(async () => {
    await receiver.close();
    await svc.close();
  });

  it('delivers a signed test delivery and logs the attempt', async () => {
    const hook = await webhook();
    const queued = (await send('POST', `/api/alerts/webhooks/${hook.id}/test`)).body as Delivery;
    const before = receiver.received.length;
    expect(await work()).toBe(1);
    const got = receiver.received[before];
    expect(got).toMatchObject({ event: 'test', deliveryId: queued.id });
    expect(signatureValid(hook.secret, got!)).toBe(true);
    expect(signatureValid('whsec_wrong', got!)).toBe(false);
    const t = Number(/^t=(\d+)/.exec(got?.signature ?? '')?.[1]);
    expect(t).toBe(Math.floor(svc.clock.now() / 1000));
    expect(JSON.parse(got?.body ?? '{}')).toMatchObject({
      event: 'test',
      webhook: { id: hook.id },
    });
    const [delivery] = await log(hook.id);
    expect(delivery).toMatchObject({ id: queued.id, state: 'delivered', next_attempt_at: null });
    expect(delivery?.attempts).toHaveLength(1);
    expect(delivery?.attempts[0]).toMatchObject({ status: 200, error: null });
    expect(delivery?.attempts[0]?.response_ms).toBeGreaterThanOrEqual(0);
    // Delivered is final: nothing is sent again.
    expect(await work()).toBe(0);
  });

  it('retries with backoff and gives up after the last delay', async () => {
    const hook = await webhook();
    await send('POST', `/api/alerts/webhooks/${hook.id}/test`);
    receiver.fallback = 500;
    try {
      expect(await work()).toBe(1);
      let [delivery] = await log(hook.id);
      expect(delivery).toMatchObject({
        state: 'pending',
        next_attempt_at: new Date(svc.clock.now() + (RETRY_DELAYS_MS[0] ?? 0)).toISOString(),
      });
      expect(delivery?.attempts[0]).toMatchObject({ status: 500, error: 'answered 500' });
      // Not due before its time.
      svc.clock.advance((RETRY_DELAYS_MS[0] ?? 0) - 1);
      expect(await work()).toBe(0);
      for (const delay of RETRY_DELAYS_MS) {
        svc.clock.advance(delay);
        expect(await work()).toBe(1);
      }
      [delivery] = await log(hook.id);
      expect(delivery).toMatchObject({ state: 'failed', next_attempt_at: null });
      expect(delivery?.attempts).toHaveLength(RETRY_DELAYS_MS.length + 1);
      svc.clock.advance(24 * 3_600_000);
      expect(await work()).toBe(0);
    } finally {
      receiver.fallback = 200;
    }
  });

  it('records a timeout and an unreachable receiver as failed attempts', async () => {
    const hook = await webhook();
    await send('POST', `/api/alerts/webhooks/${hook.id}/test`);
    receiver.reply.push('hang');
    await work(300);
    const [delivery] = await log(hook.id);
    expect(delivery?.attempts[0]).toMatchObject({
      status: null,
      response_ms: null,
      error: 'timeout after 0.3 s',
    });
    expect(delivery?.state).toBe('pending');
    const closed = await webhook('http://127.0.0.1:9/nothing-listens');
    await send('POST', `/api/alerts/webhooks/${closed.id}/test`);
    await work();
    const [refused] = await log(closed.id);
    expect(refused?.attempts[0]?.error).toMatch(/^not reached/);
  });
});
