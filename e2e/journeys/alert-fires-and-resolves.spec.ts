import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { expect, signInThroughForm, test } from '../support/fixtures';
import { startOwnService, type OwnService } from '../support/own-service';
import { ingestEnvelope, word } from '../support/telemetry';
import {
  signatureValid,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../server/test-support/webhook-receiver';

/**
 * The alert journey on a service of its own that evaluates every second
 * (`LOOKOUT_ALERT_EVERY_SECONDS`): a log rule made in the console fires on an error ingested
 * through the ingest route, the bell shows it, a receiver on loopback gets a signed request,
 * and once the one-minute window holds no such error any more it resolves, in the bell, the
 * history and the receiver.
 */
let service: OwnService;
let receiver: WebhookReceiver;

test.beforeAll(async () => {
  service = await startOwnService({ env: { LOOKOUT_ALERT_EVERY_SECONDS: '1' } });
  receiver = await startWebhookReceiver();
});

test.afterAll(async () => {
  await receiver.close();
  await service.dispose();
});

// The rule's window is a minute (the shortest); the error is sent 40 s old, so it resolves
// about 20 s after it fires.
test.describe.configure({ timeout: 240_000 });

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const alertEntries = (page: Page) =>
  page.getByRole('list', { name: 'Alert notifications' }).getByRole('listitem');

test('an ingested error fires a log alert into the bell and a webhook, then it resolves', async ({
  page,
  request,
}) => {
  const creds = service.credentials();
  const project = creds.projects[0]!;
  const text = word();
  const base = service.baseUrl;
  await signInThroughForm(page, creds.email, creds.password, base);
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();

  // A webhook to the receiver; its secret is shown once.
  await page.goto(`${base}/alerts/webhooks`);
  await page.getByRole('button', { name: 'Add webhook' }).click();
  const add = page.getByRole('dialog', { name: 'Add a webhook' });
  await add.getByLabel('Name').fill('Journey receiver');
  await add.getByLabel('URL').fill(receiver.url);
  await add.getByRole('button', { name: 'Add webhook' }).click();
  const reveal = page.getByRole('dialog', { name: 'Webhook added' });
  const secret = (await reveal.getByLabel('Signing secret').innerText()).trim();
  await reveal.getByRole('button', { name: 'Done' }).click();

  // The rule: more than 0 error logs with the text in a minute, to Ada's inbox and the webhook.
  await page.goto(`${base}/alerts/new?kind=log&project=${project.id}&severity=error&q=${text}`);
  await page.getByLabel('Name').fill(`Payment failures ${text}`);
  await page.getByLabel('Threshold (logs)').fill('0');
  await page.getByLabel('Over a window of').selectOption('1');
  const inbox = page.getByLabel('Inbox (the bell)');
  const ada = inbox.locator('option', { hasText: /Ada/ });
  await inbox.selectOption((await ada.getAttribute('value'))!);
  await page.getByRole('checkbox', { name: /Journey receiver/ }).check();
  await page.getByRole('button', { name: 'Create rule' }).click();
  await expect(
    page.getByRole('heading', { name: `Payment failures ${text}`, level: 1 }),
  ).toBeVisible();

  // An error arrives through the ingest route, timed 40 s ago: it is in the one-minute window
  // at once and leaves it 20 s later, so the journey does not sit out a whole minute.
  await ingestEnvelope(
    request,
    project.ingest_key,
    {
      service_name: 'checkout-api',
      logs: [
        {
          id: randomUUID(),
          occurred_at: new Date(Date.now() - 40_000).toISOString(),
          severity: 'error',
          message: `payment ${text} declined by the card network`,
        },
      ],
    },
    base,
  );

  // It fires: the bell counts it, and the inbox shows it as Firing.
  await expect(bell(page)).toHaveAttribute('aria-label', /unread/, { timeout: 60_000 });
  await bell(page).click();
  const firing = alertEntries(page)
    .filter({ hasText: `Payment failures ${text}` })
    .filter({ hasText: 'Firing' });
  await expect(firing).toBeVisible();
  await expect(firing).toContainText('1 against 0');
  await page.keyboard.press('Escape');

  // The receiver got a signed alert.firing request.
  await expect
    .poll(() => receiver.received.filter((h) => h.event === 'alert.firing').length, {
      timeout: 60_000,
    })
    .toBe(1);
  const fired = receiver.received.find((h) => h.event === 'alert.firing')!;
  expect(signatureValid(secret, fired)).toBe(true);
  expect(fired.deliveryId).toBeTruthy();

  // Once the window holds no such error, it resolves: in the webhook, the bell and the history.
  await expect
    .poll(() => receiver.received.filter((h) => h.event === 'alert.resolved').length, {
      timeout: 180_000,
    })
    .toBe(1);
  const resolved = receiver.received.find((h) => h.event === 'alert.resolved')!;
  expect(signatureValid(secret, resolved)).toBe(true);

  await page.goto(`${base}/alerts/history?project=${project.id}`);
  const row = page.getByRole('row').filter({ hasText: `Payment failures ${text}` });
  await expect(row).toContainText('Resolved');
  // The view at that moment: the logs explorer with the rule's query and absolute times.
  await row.getByRole('link', { name: 'Open the view' }).click();
  await expect(page).toHaveURL(/\/logs\?/);
  await expect(page.getByText(`payment ${text} declined by the card network`)).toBeVisible();

  await bell(page).click();
  await expect(
    alertEntries(page)
      .filter({ hasText: `Payment failures ${text}` })
      .filter({ hasText: 'Resolved' }),
  ).toBeVisible();
});
