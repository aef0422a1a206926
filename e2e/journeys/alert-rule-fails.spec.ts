import Database from 'better-sqlite3';
import path from 'node:path';
import { expect, signInThroughForm, test } from '../support/fixtures';
import { startOwnService, type OwnService } from '../support/own-service';
import { word } from '../support/telemetry';

/**
 * A rule whose evaluation fails shows the failure on its page with what to do next. The
 * routes check every condition they save, so the failing rule is one an earlier version could
 * have saved: its stored condition names a severity this version no longer reads (written into
 * the state store of a service of the test's own, which evaluates every second). Once the
 * condition is corrected in the editor, the next evaluation clears the failure.
 */
let service: OwnService;

test.beforeAll(async () => {
  service = await startOwnService({ env: { LOOKOUT_ALERT_EVERY_SECONDS: '1' } });
});

test.afterAll(async () => {
  await service.dispose();
});

test.describe.configure({ timeout: 120_000 });

test('a rule whose saved condition no longer reads shows why on its page, until it is fixed', async ({
  page,
  request,
}) => {
  const creds = service.credentials();
  const project = creds.projects[0]!;
  const name = `Legacy severity ${word()}`;
  const created = await request.post(`${service.baseUrl}/api/alerts/rules`, {
    headers: { authorization: `Bearer ${creds.account_token}` },
    data: {
      project_id: project.id,
      name,
      kind: 'log',
      condition: {
        query: { severity: 'error', search: 'legacy' },
        op: 'above',
        threshold: 10,
        window_minutes: 5,
      },
      notify: { inbox: null, webhook_ids: [] },
      // Disabled while its condition is rewritten, so no evaluation runs in between.
      enabled: false,
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const rule = (await created.json()) as { id: string };

  // What an earlier version stored: a severity word it accepted and this one does not.
  const db = new Database(path.join(service.dataDir, 'lookout.sqlite'));
  try {
    db.prepare('UPDATE alert_rules SET condition = ?, enabled = 1 WHERE id = ?').run(
      JSON.stringify({
        query: { severity: 'severe', search: 'legacy' },
        op: 'above',
        threshold: 10,
        window_minutes: 5,
      }),
      rule.id,
    );
  } finally {
    db.close();
  }

  await signInThroughForm(page, creds.email, creds.password, service.baseUrl);
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await page.goto(`${service.baseUrl}/alerts/rules/${rule.id}`);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  // The evaluation runs every second; the page shows its failure once a reload reads it.
  const callout = page.getByRole('status').filter({ hasText: 'The last evaluation failed' });
  await expect(async () => {
    await page.reload();
    await expect(callout).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(callout).toContainText(
    "This rule's saved condition no longer reads: condition.query.severity must be one of",
  );
  await expect(callout).toContainText('Correct it in the editor on this page and save the rule');
  // Its state does not claim OK while its windows go unread.
  await expect(page.getByText('Not evaluated', { exact: true })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('rule-failure.png'), fullPage: true });

  // Corrected in the editor, the rule is evaluated again and the failure is gone.
  await page.getByLabel('Severity').selectOption('error');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible({ timeout: 2_000 });
    await expect(callout).toBeHidden({ timeout: 2_000 });
    await expect(page.getByText('OK', { exact: true })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
});
