import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { demoMembers } from './support/demo';
import { expect, signInThroughForm, test } from './support/fixtures';
import { startOwnService } from './support/own-service';

/** `npm run account -- set-plan …` against the database of a running service. */
function setPlan(dataDir: string, email: string, ...args: string[]): string {
  return execFileSync('npx', ['tsx', 'server/admin/account-cli.ts', 'set-plan', email, ...args], {
    env: { ...process.env, LOOKOUT_DATA_DIR: dataDir },
    encoding: 'utf8',
  });
}

const subscription = (page: Page) => page.getByRole('region', { name: 'Subscription' });
const organizations = (page: Page) => page.getByRole('region', { name: 'Organizations' });
const createButton = (page: Page) =>
  organizations(page).getByRole('button', { name: 'Create organization' });

test('a free account sees the organization gate, with the blocker in words and "Choose a plan"', async ({
  page,
  demo,
}) => {
  // Read-only on the shared world: chen stays on the free plan for the other specs.
  await signInThroughForm(page, demoMembers.member, demo.password);
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await page.goto('/plan');
  await expect(page.getByRole('heading', { name: 'Plan', level: 1 })).toBeVisible();
  await expect(subscription(page).getByText('Free plan, no subscription')).toBeVisible();
  await expect(subscription(page).locator('dd').first()).toHaveText('free');
  const limits = page.getByRole('region', { name: 'Limits' });
  await expect(limits.getByRole('row', { name: /Organizations owned/ })).toContainText(
    'none on this plan',
  );
  await expect(createButton(page)).toBeDisabled();
  // The blocker in the console's own words (from the identifier), which also describes the button.
  await expect(createButton(page)).toHaveAccessibleDescription(
    'Creating an organization needs a paid plan, and this account is on the free plan.',
  );
  await expect(organizations(page).getByText('subscription_required')).toBeVisible();

  await organizations(page).getByRole('button', { name: 'Choose a plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose a plan' });
  await expect(dialog.getByText(/no pricing page, billing system or checkout/)).toBeVisible();
  await expect(dialog.getByText(`npm run account -- set-plan ${demoMembers.member}`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
});

test('after the operator puts the account on a paid plan it can create an organization, shown on /projects', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // Its own service: the organization it creates stays, and sign-out-everywhere in another
  // spec ends chen's sign-ins on the shared service.
  const service = await startOwnService();
  const email = demoMembers.member;
  try {
    const { password } = service.credentials();
    await signInThroughForm(page, email, password, service.baseUrl);
    await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
    await page.goto(`${service.baseUrl}/plan`);
    await expect(createButton(page)).toBeDisabled();

    expect(setPlan(service.dataDir, email, 'pro')).toMatch(/pro \(active, billing monthly\)/);
    await page.reload();
    await expect(subscription(page).locator('dd').first()).toHaveText('pro');
    await expect(subscription(page).getByText('monthly', { exact: true })).toBeVisible();
    await expect(
      organizations(page).getByText('This account can create an organization.'),
    ).toBeVisible();
    await expect(createButton(page)).toBeEnabled();

    const name = `Chen Labs ${Date.now().toString(36)}`;
    await createButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Create organization' });
    await dialog.getByLabel('Organization name').fill(name);
    await dialog.getByRole('button', { name: 'Create organization' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: name })).toBeVisible();
    await expect(organizations(page).getByRole('listitem').filter({ hasText: name })).toContainText(
      'owner',
    );

    await page.getByRole('link', { name: 'Open projects' }).click();
    await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
    await expect(page.getByText(`${name} (owner)`)).toBeVisible();

    // A paid plan can still be blocked: past due is "Resume subscription".
    setPlan(service.dataDir, email, 'pro', '--state', 'past_due');
    await page.goto(`${service.baseUrl}/plan`);
    await expect(createButton(page)).toBeDisabled();
    await expect(createButton(page)).toHaveAccessibleDescription(/not active \(payment past due\)/);
    await expect(
      organizations(page).getByRole('button', { name: 'Resume subscription' }),
    ).toBeVisible();

    expect(setPlan(service.dataDir, email, 'free')).toMatch(/free \(free, billing none\)/);
    await page.reload();
    await expect(subscription(page).locator('dd').first()).toHaveText('free');
    await expect(createButton(page)).toBeDisabled();
  } finally {
    await service.dispose();
  }
});
