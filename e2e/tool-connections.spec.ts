import { DIALOG, expectNoSeriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';

/** A read through the API with a tool connection's token, as the tool would send it. */
async function readLogs(origin: string, token: string, projectId: string) {
  const res = await fetch(`${origin}/api/logs?project_id=${projectId}&limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

test('creates a tool connection, shows its token once, and revokes it', async ({
  signedInPage: page,
  demo,
}) => {
  const [covered, other] = demo.projects;
  if (!covered || !other) throw new Error('the demo has at least two projects');
  const name = `CI release check ${Date.now()}`;
  await page.goto('/tool-connections');
  await expect(page.getByRole('heading', { level: 1, name: 'Tool connections' })).toBeVisible();

  await page.getByRole('button', { name: 'New connection' }).first().click();
  const form = page.getByRole('dialog');
  await form.getByLabel('Name').fill(name);
  await form.getByRole('checkbox', { name: covered.name }).check();
  await form.getByLabel('Expires').selectOption('30');
  await page.screenshot({ path: 'test-results/tool-connections-form.png', animations: 'disabled' });
  await form.getByRole('button', { name: 'Create connection' }).click();

  const reveal = page.getByRole('dialog', { name: 'Tool connection created' });
  await expect(reveal.getByText(/you will not see it again/i)).toBeVisible();
  const token = (await reveal.getByLabel('Token').innerText()).trim();
  expect(token).toMatch(/^lk_tc_/);
  await expect(reveal.getByLabel('Example request')).toContainText(`Bearer ${token}`);
  await expectNoSeriousViolations(page, 'tool connection token dialog', DIALOG);
  await page.screenshot({
    path: 'test-results/tool-connections-reveal.png',
    animations: 'disabled',
  });

  // The tool reads the project it covers, and is refused any other.
  const origin = new URL(page.url()).origin;
  expect((await readLogs(origin, token, covered.id)).status).toBe(200);
  const refused = await readLogs(origin, token, other.id);
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({ code: 'forbidden' });

  await reveal.getByRole('button', { name: 'Done' }).click();
  await expect(reveal).toBeHidden();
  // Shown once: the token is nowhere on the page once the dialog is closed.
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(page.getByText(token)).toHaveCount(0);
  await expect(row.getByRole('cell', { name: covered.name })).toBeVisible();
  // Last used: the read above (uses are written when the list is read, at the latest).
  await expect(row.getByRole('cell').nth(2)).not.toHaveText('Never');
  await expect(row.getByRole('img', { name: /uses per day: 2 total/ })).toBeVisible();
  await expectNoSeriousViolations(page, 'tool connections list');
  await page.screenshot({ path: 'test-results/tool-connections-list.png', fullPage: true });

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('next request is refused');
  await confirm.getByRole('button', { name: 'Revoke connection' }).click();
  await expect(confirm).toBeHidden();
  await expect(row.getByText('Revoked')).toBeVisible();

  const afterRevoke = await readLogs(origin, token, covered.id);
  expect(afterRevoke.status).toBe(401);
  expect(afterRevoke.body).toMatchObject({ code: 'unauthorized' });
});

test('a refused create shows what happened and what to do', async ({ signedInPage: page }) => {
  await page.route('**/api/account/tool-connections', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    await route.fulfill({
      status: 422,
      contentType: 'application/json',
      body: JSON.stringify({
        error: 'an account holds at most 25 active tool connections',
        code: 'validation_failed',
        next: 'Revoke a tool connection you no longer use, then create this one.',
        next_action: { code: 'fix_request', target: 'request' },
      }),
    });
  });
  await page.goto('/tool-connections');
  await page.getByRole('button', { name: 'New connection' }).first().click();
  const form = page.getByRole('dialog');
  await form.getByLabel('Name').fill('One too many');
  await form.getByRole('checkbox').first().check();
  await form.getByRole('button', { name: 'Create connection' }).click();
  const alert = form.getByRole('alert');
  await expect(alert).toContainText('at most 25 active tool connections');
  await expect(alert).toContainText('Revoke a tool connection you no longer use');
});

test("an organization owner sees a member's connection and can revoke it", async ({
  signedInPage: page,
  teammatePage,
}) => {
  const name = `Bruno's assistant ${Date.now()}`;
  await teammatePage.goto('/tool-connections');
  await teammatePage.getByRole('button', { name: 'New connection' }).first().click();
  const form = teammatePage.getByRole('dialog');
  await form.getByLabel('Name').fill(name);
  await form.getByRole('checkbox').first().check();
  await form.getByRole('button', { name: 'Create connection' }).click();
  await teammatePage
    .getByRole('dialog', { name: 'Tool connection created' })
    .getByRole('button', { name: 'Done' })
    .click();

  await page.goto('/tool-connections');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Created by Bruno Castillo');
  await page.screenshot({ path: 'test-results/tool-connections-owner.png', fullPage: true });
  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke connection' }).click();
  await expect(row.getByText('Revoked')).toBeVisible();

  // The member sees it revoked too.
  await teammatePage.reload();
  await expect(teammatePage.getByRole('row').filter({ hasText: name })).toContainText('Revoked');
});
