import { request as playwrightRequest } from '@playwright/test';
import { demoMembers } from './support/demo';
import { expect, signInThroughForm, test } from './support/fixtures';
import { startOwnService } from './support/own-service';

test('the demo account signs in and lands on its projects', async ({ page, demo }) => {
  await signInThroughForm(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/projects/);
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  for (const p of demo.projects)
    await expect(page.getByRole('cell', { name: p.name })).toBeVisible();
});

test("a wrong password shows the service's error and stays on sign-in", async ({ page, demo }) => {
  await signInThroughForm(page, demo.email, 'not-the-password');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('email or password is incorrect');
  await expect(page.getByRole('heading', { name: 'Sign in to Lookout' })).toBeVisible();
});

test('a page opened while signed out leads to sign-in, then back to that page', async ({
  page,
  demo,
}) => {
  await page.goto('/projects?since=7d');
  await expect(page.getByRole('heading', { name: 'Sign in to Lookout' })).toBeVisible();
  await page.getByLabel('Email').fill(demo.email);
  await page.getByLabel('Password').fill(demo.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await expect(page).toHaveURL(/\/projects\?.*since=7d/);
});

test('a reload keeps the sign-in, and no token is written to storage', async ({
  signedInPage: page,
}) => {
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  expect(stored).not.toMatch(/lk_(at|rt|ss)_/);
  expect(page.url()).not.toMatch(/lk_/);
});

test('a session ended by the service leads back to sign-in with an explanation', async ({
  page,
}) => {
  // Its own service: signing a demo member out everywhere on the shared service would end
  // that member's sign-ins in tests running beside this one.
  const service = await startOwnService();
  try {
    const { password } = service.credentials();
    await signInThroughForm(page, demoMembers.admin, password, service.baseUrl);
    await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();

    // Another client of the same account signs out everywhere: this browser's sign-in is now refused.
    const api = await playwrightRequest.newContext({ baseURL: service.baseUrl });
    const login = await api.post('/api/auth/login', {
      data: { email: demoMembers.admin, password },
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const revoked = await api.post('/api/auth/logout-all', {
      headers: { Authorization: `Bearer ${access_token}` },
    });
    expect(revoked.status()).toBe(200);
    await api.dispose();

    await page.getByRole('button', { name: 'New project' }).click();
    await page.getByLabel('Name').fill('Created after the session ended');
    await page.getByRole('button', { name: 'Create project' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to Lookout' })).toBeVisible();
    await expect(page.getByText('Your session has ended. Sign in again.')).toBeVisible();
  } finally {
    await service.dispose();
  }
});

test('after repeated wrong passwords the form says to wait, and until when', async ({ page }) => {
  // Its own service: the demo account's sign-ins on the shared one must not be held back.
  const service = await startOwnService();
  try {
    const { email } = service.credentials();
    await page.goto(`${service.baseUrl}/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not-the-password');
    const alert = page.getByRole('alert');
    // The default allowance is five failures: those are answered as wrong passwords.
    for (let i = 0; i < 5; i++) {
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/auth/login'));
      await page.getByRole('button', { name: 'Sign in' }).click();
      expect((await answered).status()).toBe(401);
      await expect(alert).toContainText('email or password is incorrect');
    }
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(alert).toContainText('too many failed sign-in attempts');
    // The service's next, shown as written: how long, and until what time.
    await expect(alert).toContainText(
      /Wait \d+ seconds? \(until \d\d:\d\d:\d\d UTC\), then sign in again\./,
    );
    await expect(page.getByRole('heading', { name: 'Sign in to Lookout' })).toBeVisible();
  } finally {
    await service.dispose();
  }
});
