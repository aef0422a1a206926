import { expect, test } from './support/fixtures';

test('navigation links only to pages that exist', async ({ signedInPage: page }) => {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Projects' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Issues' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Logs' })).toBeVisible();
  const pages = [
    'Traces',
    'Releases',
    'Metrics',
    'Analytics',
    'Funnels',
    'Usage',
    'Plan',
    'Tool connections',
  ];
  for (const label of pages) {
    await expect(nav.getByRole('link', { name: label })).toBeVisible();
  }
  await expect(page.getByText(/coming soon/i)).toHaveCount(0);
});

test('the time range lives in the URL and survives a reload', async ({ signedInPage: page }) => {
  await page.getByRole('button', { name: /time range/i }).click();
  await page.getByRole('option', { name: /7 days/i }).click();
  await expect(page).toHaveURL(/since=7d/);
  await page.reload();
  await expect(page.getByRole('button', { name: /time range/i })).toContainText(/7 days/i);
});

test('the project scope lives in the URL', async ({ signedInPage: page, demo }) => {
  const first = demo.projects[0];
  if (!first) throw new Error('demo world has no project');
  await page.getByRole('button', { name: /project scope/i }).click();
  await page.getByRole('checkbox', { name: first.name }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`project=${first.id}`));
  await expect(page.getByRole('button', { name: /project scope/i })).toContainText(first.name);
});

test('an unknown page says so and offers a way back', async ({ signedInPage: page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByText(/not found/i).first()).toBeVisible();
  await expect(page.getByRole('link', { name: /projects/i }).first()).toBeVisible();
});
