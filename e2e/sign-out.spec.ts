import { request as playwrightRequest } from '@playwright/test';
import { E2E_BASE_URL } from './support/e2e-env';
import { startOwnService } from './support/own-service';
import { expect, signInThroughForm, test } from './support/fixtures';

test('sign out ends this sign-in on the service and locally', async ({
  ownSignInPage: page,
  context,
}) => {
  const session = (await context.cookies()).find((c) => c.name === 'svc_session');
  expect(session?.httpOnly).toBe(true);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Lookout' })).toBeVisible();
  await expect(page.getByText('You are signed out.')).toBeVisible();

  // The old session cookie no longer yields tokens.
  const api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
  const res = await api.post('/api/auth/refresh', {
    data: {},
    headers: { Cookie: `svc_session=${session?.value ?? ''}` },
  });
  expect(res.status()).toBe(401);
  await api.dispose();

  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'Sign in to Lookout' })).toBeVisible();
});

test('sign out clears local credentials even when the service cannot be reached', async ({
  signedInPage: page,
}) => {
  await page.route('**/api/auth/logout', (route) => route.abort('connectionrefused'));
  await page.route('**/api/auth/web/logout', (route) => route.abort('connectionrefused'));
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Lookout' })).toBeVisible();
  // A reload must not quietly sign back in with a cookie the service never cleared.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to Lookout' })).toBeVisible();
});

test('sign out everywhere asks first, then revokes every sign-in of the account', async ({
  page,
}) => {
  // Its own service: revoking every sign-in of a demo member on the shared service would end
  // that member's sign-ins in tests running beside this one.
  const service = await startOwnService();
  try {
    const { email, password } = service.credentials();
    await signInThroughForm(page, email, password, service.baseUrl);
    await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();

    const api = await playwrightRequest.newContext({ baseURL: service.baseUrl });
    const other = await api.post('/api/auth/login', { data: { email, password } });
    const { access_token } = (await other.json()) as { access_token: string };
    const accountStatus = async () =>
      (
        await api.get('/api/account', { headers: { Authorization: `Bearer ${access_token}` } })
      ).status();

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out everywhere…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Sign out everywhere?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(await accountStatus()).toBe(200);

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out everywhere…' }).click();
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to Lookout' })).toBeVisible();
    await expect(page.getByText(/revoked/)).toBeVisible();
    expect(await accountStatus()).toBe(401);
    await api.dispose();
  } finally {
    await service.dispose();
  }
});

test('sign out everywhere says nothing about other sessions when its response is lost', async ({
  page,
  demo,
}) => {
  await signInThroughForm(page, 'oncall-bot@lookout.dev', demo.password);
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await page.route('**/api/auth/logout-all', (route) => route.abort('timedout'));
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out everywhere…' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Lookout' })).toBeVisible();
  await expect(page.getByText(/could not (be )?confirm/i)).toBeVisible();
  await expect(page.getByText(/were revoked/)).toHaveCount(0);
});
