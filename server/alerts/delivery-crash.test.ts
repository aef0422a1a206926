import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../test-support/api-client';
import { startServiceProcess, type ServiceProcess } from '../test-support/service-process';
import {
  signatureValid,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../test-support/webhook-receiver';

type Delivery = {
  id: string;
  state: string;
  attempts: { status: number | null; error: string | null }[];
};

/**
 * Deliveries are rows written before any attempt: the service is killed (SIGKILL) while its
 * first attempt is in flight, and after the restart the same delivery reaches the receiver,
 * signed, and is logged as delivered.
 */
describe('a webhook delivery survives kill -9', () => {
  let svc: ServiceProcess;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    svc = await startServiceProcess();
    receiver = await startWebhookReceiver();
  }, 60_000);
  afterAll(async () => {
    await receiver.close();
    await svc.dispose();
  });

  it('sends the pending delivery after the restart', async () => {
    const token = svc.credentials().account_token;
    const projects = await call(svc.baseUrl, 'GET', '/api/projects', { token });
    const organizationId = (projects.body as { organization_id: string }[])[0]?.organization_id;
    const created = await call(svc.baseUrl, 'POST', '/api/alerts/webhooks', {
      token,
      json: { organization_id: organizationId, name: 'Crash receiver', url: receiver.url },
    });
    expect(created.status, created.text).toBe(200);
    const hook = created.body as { id: string; secret: string };
    // The first attempt never gets an answer: the service dies while it waits.
    receiver.reply.push('hang');
    const queued = await call(svc.baseUrl, 'POST', `/api/alerts/webhooks/${hook.id}/test`, {
      token,
    });
    expect(queued.status, queued.text).toBe(200);
    const deliveryId = (queued.body as Delivery).id;
    await receiver.waitFor(1);
    await svc.kill();

    await svc.start();
    await receiver.waitFor(2, 60_000);
    const again = receiver.received[1];
    expect(again?.deliveryId).toBe(deliveryId);
    expect(again?.body).toBe(receiver.received[0]?.body);
    expect(signatureValid(hook.secret, again!)).toBe(true);
    let delivery: Delivery | undefined;
    for (let i = 0; i < 50; i++) {
      const log = await call(svc.baseUrl, 'GET', `/api/alerts/webhooks/${hook.id}/deliveries`, {
        token,
      });
      delivery = (log.body as { deliveries: Delivery[] }).deliveries[0];
      if (delivery?.state === 'delivered') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // The killed attempt left no record; the one after the restart did.
    expect(delivery).toMatchObject({ id: deliveryId, state: 'delivered' });
    expect(delivery?.attempts).toEqual([expect.objectContaining({ status: 200, error: null })]);
  }, 120_000);
});
