import type { Page } from '@playwright/test';
import { signedInContext, expect, test } from './support/fixtures';
import { demoMembers } from './support/demo';
import { randomUUID } from 'node:crypto';
import { ingestEnvelope, ingestIssues, word } from './support/telemetry';
import { signatureValid, startWebhookReceiver } from '../server/test-support/webhook-receiver';

const preview = (page: Page) =>
  page.getByRole('img', { name: /^Preview of the rule over the last 24 hours/ });

test('a log rule made from the logs explorer view keeps its query and shows the preview', async ({
  signedInPage: page,
  demo,
}) => {
  const project = demo.projects[0]!;
  const text = word();
  await page.goto(`/logs?project=${project.id}&severity=error&q=${text}&service=checkout-api`);
  await page.getByRole('link', { name: 'Create alert from this view' }).click();

  await expect(page.getByRole('heading', { name: 'New alert rule', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Search messages')).toHaveValue(text);
  await expect(page.getByLabel('Severity')).toHaveValue('error');
  await expect(page.getByLabel('Service', { exact: true })).toHaveValue('checkout-api');
  // The chart of the last 24 hours, with its words: where it would have fired.
  await expect(preview(page)).toBeVisible({ timeout: 15_000 });
  await expect(
    page.getByRole('status').filter({ hasText: /over the last 24 hours/ }),
  ).toBeVisible();

  const name = `Checkout errors ${text}`;
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Threshold (logs)').fill('5');
  await page.getByRole('button', { name: 'Create rule' }).click();

  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByText('OK', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'All rules' }).click();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(
    `Logs (severity error, message contains ${text}, service checkout-api) above 5 logs`,
  );
});

test("a log rule's attribute filters are added, changed and removed in the rule editor", async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0]!;
  const key = `e2e_${word()}`;
  await ingestEnvelope(request, project.ingest_key, {
    service_name: 'checkout-api',
    logs: [
      { plan: 'pro', status: 503 },
      { plan: 'free', status: 200 },
    ].map((attributes) => ({
      id: randomUUID(),
      occurred_at: new Date().toISOString(),
      severity: 'error',
      message: `payment declined ${key}`,
      attributes: { [key]: attributes },
    })),
  });
  const filterBar = page.getByRole('group', { name: 'Attribute filters' });
  const editor = page.getByRole('form', { name: 'Attribute filter' });
  const addFilter = async (path: RegExp, operator: string, value: string) => {
    await filterBar.getByRole('button', { name: 'Attribute filter', exact: true }).click();
    await page.getByRole('combobox', { name: 'Attribute path' }).fill(key);
    await page.getByRole('option', { name: path }).click();
    await editor.getByLabel('Operator').selectOption({ label: operator });
    await editor.getByLabel('Value').fill(value);
    await editor.getByRole('button', { name: 'Apply filter' }).click();
  };

  await page.goto(`/alerts/new?kind=log&project=${project.id}&q=${key}`);
  await addFilter(new RegExp(`${key} › plan`), 'is', 'pro');
  await addFilter(new RegExp(`${key} › status`), '>', '500');
  await expect(
    filterBar.getByRole('button', { name: `Change filter ${key} › plan is "pro"` }),
  ).toBeVisible();
  // Removed again before saving: the rule keeps the other one only.
  // Applying a filter never submits the rule around it.
  await expect(page.getByRole('alert').filter({ hasText: 'Not saved' })).toBeHidden();
  await filterBar.getByRole('button', { name: `Remove filter ${key} › status > 500` }).click();
  await expect(filterBar.getByRole('button', { name: /^Change filter/ })).toHaveCount(1);
  await expect(preview(page)).toBeVisible({ timeout: 15_000 });

  const name = `Pro plan declines ${key}`;
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Threshold (logs)').fill('0');
  await page.getByRole('button', { name: 'Create rule' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(
    filterBar.getByRole('button', { name: `Change filter ${key} › plan is "pro"` }),
  ).toBeVisible();

  // Editing the saved rule: the plan filter changed to "free", kept after a reload.
  await filterBar.getByRole('button', { name: `Change filter ${key} › plan is "pro"` }).click();
  await editor.getByLabel('Value').fill('free');
  await editor.getByRole('button', { name: 'Update filter' }).click();
  const saved = page.waitForResponse(
    (r) => r.url().includes('/api/alerts/rules/') && r.request().method() === 'PATCH',
  );
  await page.getByRole('button', { name: 'Save changes' }).click();
  expect((await saved).status()).toBe(200);
  await page.reload();
  await expect(
    filterBar.getByRole('button', { name: `Change filter ${key} › plan is "free"` }),
  ).toBeVisible();
  await expect(preview(page)).toBeVisible({ timeout: 15_000 });
  await page.screenshot({
    path: test.info().outputPath('rule-attribute-filters.png'),
    fullPage: true,
  });
  // The explorer link carries the same filter.
  await page.getByRole('link', { name: 'Open this query in the logs explorer' }).click();
  await expect(
    page.getByRole('button', { name: `Change filter ${key} › plan is "free"` }),
  ).toBeVisible();
});

test('a rule that cannot be saved says which field to fix', async ({
  signedInPage: page,
  demo,
}) => {
  await page.goto(`/alerts/new?kind=trace&project=${demo.projects[0]!.id}`);
  await page.getByLabel('Name').fill('Slow checkout');
  await page.getByRole('button', { name: 'Create rule' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not saved' })).toContainText(
    'Choose the service whose root spans are measured.',
  );
  // The preview says what it needs instead of drawing an empty chart.
  await expect(page.getByText(/The preview appears once the rule can be read/)).toBeVisible();
});

test('mutes a rule until a time, then unmutes it', async ({ signedInPage: page, demo }) => {
  const name = `Mutable ${word()}`;
  await page.goto(`/alerts/new?kind=log&project=${demo.projects[0]!.id}&severity=critical`);
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create rule' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();

  await page.getByLabel('Mute for').selectOption({ label: 'for 4 hours' });
  await page.getByRole('button', { name: 'Mute', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'nobody is notified' })).toBeVisible();
  await expect(page.getByText(/^Muted until \d+ \w+ \d{4}, [\d:]+ UTC$/)).toBeVisible();
  await page.getByRole('button', { name: 'Unmute' }).click();
  await expect(page.getByRole('button', { name: 'Mute', exact: true })).toBeVisible();
});

test("snoozes an issue's alerts, shows the snooze after a reload, and lifts it", async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const service = `e2e-snooze-${word()}`;
  await ingestIssues(request, demo.projects[0]!.ingest_key, service, [
    { title: `Snoozable ${service}` },
  ]);
  const res = await request.get('/api/telemetry/issues', {
    headers: { Authorization: `Bearer ${demo.account_token}` },
    params: { service_name: service, since: '30d' },
  });
  expect(res.status()).toBe(200);
  const [issue] = (await res.json()) as { id: string }[];

  await page.goto(`/issues/${issue!.id}`);
  const alerts = page.getByRole('region', { name: 'Alerts' });
  await expect(alerts.getByRole('status')).toHaveText('Alerts are not snoozed.');
  await alerts.getByLabel('Snooze alerts for').selectOption({ label: 'for 4 hours' });
  await alerts.getByRole('button', { name: 'Snooze alerts' }).click();
  const snoozed = /^Alerts snoozed until \d+ \w+ \d{4}, [\d:]+ UTC\.$/;
  await expect(alerts.getByRole('status')).toHaveText(snoozed);
  // Read from the service, not kept by the page: a reload still shows it.
  await page.reload();
  await expect(alerts.getByRole('status')).toHaveText(snoozed);
  await alerts.getByRole('button', { name: 'Lift snooze' }).click();
  await expect(alerts.getByRole('status')).toHaveText('Alerts are not snoozed.');
  await expect(alerts.getByRole('button', { name: 'Lift snooze' })).toBeHidden();
});

test('adds a webhook (secret shown once), sends a signed test, reads its delivery log, deletes it', async ({
  signedInPage: page,
}) => {
  const receiver = await startWebhookReceiver();
  try {
    const name = `Receiver ${word()}`;
    await page.goto('/alerts/webhooks');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('URL').fill(receiver.url);
    await dialog.getByRole('button', { name: 'Add webhook' }).click();

    const reveal = page.getByRole('dialog', { name: 'Webhook added' });
    await expect(reveal.getByText('Copy the signing secret now')).toBeVisible();
    await expect(reveal.getByRole('button', { name: 'Copy secret' })).toBeVisible();
    const secret = (await reveal.getByLabel('Signing secret').innerText()).trim();
    expect(secret.length).toBeGreaterThan(16);
    await reveal.getByRole('button', { name: 'Done' }).click();
    // Never again: not on the page, not after a reload.
    await page.reload();
    await expect(page.getByText(secret)).toHaveCount(0);

    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByRole('button', { name: 'Send test' }).click();
    const log = page.getByRole('table', { name: `Deliveries to ${name}` });
    // The service's delivery worker sends it on its own schedule.
    await expect(log.getByRole('row').filter({ hasText: 'Test' })).toContainText('Delivered', {
      timeout: 30_000,
    });
    await expect(log.getByRole('row').filter({ hasText: 'Test' })).toContainText(
      /HTTP 200 · \d+ ms/,
    );
    const hook = receiver.received.find((h) => h.event === 'test');
    expect(hook, 'the receiver got the test').toBeDefined();
    expect(signatureValid(secret, hook!)).toBe(true);

    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete webhook' }).click();
    await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});

test('a member reads the rules but its controls say why they are disabled', async ({
  signedInPage: page,
  demo,
  browser,
  sessions,
}) => {
  const name = `Read only ${word()}`;
  await page.goto(`/alerts/new?kind=log&project=${demo.projects[0]!.id}&severity=error`);
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create rule' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const ruleUrl = page.url();

  const context = await signedInContext(browser, sessions, demoMembers.member);
  try {
    const member = await context.newPage();
    await member.goto(ruleUrl);
    await expect(member.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(member.getByText('You can read this rule, not change it')).toBeVisible();
    await expect(member.getByRole('button', { name: 'Save changes' })).toBeDisabled();
    await expect(member.getByRole('button', { name: 'Delete rule' })).toBeDisabled();
    await expect(member.getByRole('button', { name: 'Mute', exact: true })).toBeDisabled();
    await expect(
      member.getByText(/an owner or admin creates and changes them/).first(),
    ).toBeVisible();
  } finally {
    await context.close();
  }
});

test('with every project in scope, rules and history list each project under its name', async ({
  signedInPage: page,
  demo,
}) => {
  await page.goto('/alerts');
  for (const p of demo.projects)
    await expect(page.getByRole('region', { name: `Rules of ${p.name}` })).toBeVisible();
  // The demo world's rules watch Checkout API.
  const api = page.getByRole('region', { name: 'Rules of Checkout API' });
  await expect(api.getByRole('link', { name: 'Checkout API crashed' })).toBeVisible();
  await expect(api.getByRole('link', { name: 'Busy issue in Checkout API' })).toBeVisible();

  // History lists each project's incidents the same way.
  await page.getByRole('link', { name: 'History' }).click();
  for (const p of demo.projects)
    await expect(page.getByRole('region', { name: `Incidents of ${p.name}` })).toBeVisible();
  await page.getByRole('link', { name: 'Rules' }).click();

  // A new rule can be started from here: the editor asks for its project.
  await page.getByRole('link', { name: 'New alert rule' }).click();
  await expect(page).toHaveURL(/\/alerts\/new/);
  await expect(page.getByLabel('Project', { exact: true })).toHaveValue('');
  await page.goBack();

  // Picking a project narrows the page to its list.
  const web = demo.projects.find((p) => p.name === 'Storefront Web');
  if (!web) throw new Error('demo world has no Storefront Web project');
  await page.getByLabel('Project', { exact: true }).selectOption(web.id);
  await expect(page.getByRole('region', { name: /^Rules of / })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Checkout API crashed' })).toHaveCount(0);

  // A rule's full history opens on its project, not on every project's incidents.
  const checkout = demo.projects.find((p) => p.name === 'Checkout API');
  if (!checkout) throw new Error('demo world has no Checkout API project');
  await page.goto('/alerts');
  await api.getByRole('link', { name: 'Checkout API crashed' }).click();
  await page.getByRole('link', { name: 'Full history' }).click();
  await expect(page).toHaveURL(/\/alerts\/history\?/);
  await expect(page.getByLabel('Project', { exact: true })).toHaveValue(checkout.id);
  await expect(page.getByRole('region', { name: /^Incidents of / })).toHaveCount(0);
});
