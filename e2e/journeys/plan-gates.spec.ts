import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { expect, signInThroughForm, test } from '../support/fixtures';
import { OWN_SERVICE_START_MS, startOwnService, type OwnService } from '../support/own-service';

/**
 * An account owner on each plan state goes from Usage to Plan and meets every gate: New
 * project and Create ingest key on Projects, Create organization on Plan. The two pages tell the
 * same story. One service of this file's own (plans change here), states in sequence.
 */
test.describe.configure({ mode: 'serial' });

type Expect = {
  /** `[status of telemetry, organizations, projects, ingest keys]` as both pages show them. */
  statuses: [string, string, string, string];
  canCreateProject: boolean;
  canCreateKey: boolean;
  canCreateOrganization: boolean;
  /** What the projects gate says, when it is closed. */
  projectGate?: RegExp;
  billing: RegExp;
};

const STATES: [string, string[], Expect][] = [
  [
    'free',
    ['free'],
    {
      statuses: ['Accepted', 'Not on this plan', 'Not on this plan', 'Allowed'],
      canCreateProject: false,
      canCreateKey: true,
      canCreateOrganization: false,
      projectGate: /Acme Shop follows your free plan, which allows no projects per organization/,
      billing: /None: the free plan is not billed/,
    },
  ],
  [
    'trialing',
    ['pro', '--state', 'trialing'],
    {
      statuses: ['Accepted', 'Allowed', 'Allowed', 'Allowed'],
      canCreateProject: true,
      canCreateKey: true,
      canCreateOrganization: true,
      billing: /renews every month/,
    },
  ],
  [
    'active',
    ['pro', '--state', 'active'],
    {
      statuses: ['Accepted', 'Allowed', 'Allowed', 'Allowed'],
      canCreateProject: true,
      canCreateKey: true,
      canCreateOrganization: true,
      billing: /renews every month/,
    },
  ],
  ...(['past_due', 'paused', 'canceled'] as const).map((state): [string, string[], Expect] => [
    state,
    ['pro', '--state', state],
    {
      statuses: ['Accepted', 'Paused', 'Paused', 'Paused'],
      canCreateProject: false,
      canCreateKey: false,
      canCreateOrganization: false,
      projectGate: new RegExp(
        `Acme Shop is paused: your subscription is ${state.replace('_', ' ')}`,
      ),
      billing: state === 'canceled' ? /does not renew/ : /./,
    },
  ]),
];

let service: OwnService;

test.beforeAll(async () => {
  // A service of its own starts in seconds; on a busy machine, in more than a test's 30 s.
  test.setTimeout(OWN_SERVICE_START_MS);
  service = await startOwnService();
});
test.afterAll(async () => {
  await service.dispose();
});

/** `npm run account -- set-plan …` against this file's own service. */
function setPlan(email: string, args: string[]) {
  execFileSync('npx', ['tsx', 'server/admin/account-cli.ts', 'set-plan', email, ...args], {
    env: { ...process.env, LOOKOUT_DATA_DIR: service.dataDir },
    encoding: 'utf8',
  });
}

const standing = (page: Page) => page.getByRole('table', { name: 'What the plan allows now' });
const periods = (page: Page) => page.getByRole('region', { name: 'Which period is which' });

/** The story a page tells: the standing rows and the two periods, as text. */
async function storyOf(page: Page) {
  await expect(standing(page)).toBeVisible();
  return {
    rows: await standing(page).innerText(),
    periods: await periods(page).locator('dl').innerText(),
  };
}

test('an owner on each plan state meets every gate, and Usage and Plan agree', async ({ page }) => {
  test.setTimeout(240_000);
  const base = service.baseUrl;
  const { email, password } = service.credentials();
  await signInThroughForm(page, email, password, base);
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();

  for (const [state, args, want] of STATES) {
    await test.step(state, async () => {
      setPlan(email, args);

      // Usage first: what the plan allows now, and which period is which.
      await page.goto(`${base}/usage`);
      await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
      const rows = standing(page).getByRole('row');
      await expect(rows).toHaveCount(4);
      for (const [i, status] of want.statuses.entries())
        await expect(rows.nth(i).getByRole('cell').first()).toHaveText(status);
      await expect(periods(page)).toContainText(want.billing);
      await expect(periods(page)).toContainText('The calendar month (UTC)');
      const onUsage = await storyOf(page);

      // Then Plan, by the link beside the story: the same story, and its gate.
      await page
        .getByRole('region', { name: 'What the plan allows now' })
        .getByRole('link', { name: 'Plan', exact: true })
        .click();
      await expect(page.getByRole('heading', { name: 'Plan', level: 1 })).toBeVisible();
      expect(await storyOf(page)).toEqual(onUsage);
      const subscription = page.getByRole('region', { name: 'Subscription' });
      await expect(subscription.getByText(state, { exact: true }).first()).toBeVisible();
      const createOrganization = page
        .getByRole('region', { name: 'Organizations' })
        .getByRole('button', { name: 'Create organization' });
      if (want.canCreateOrganization) await expect(createOrganization).toBeEnabled();
      else await expect(createOrganization).toBeDisabled();

      // Projects: New project and Create ingest key, open or closed with the reason.
      await page.goto(`${base}/projects`);
      const newProject = page.getByRole('button', { name: 'New project' });
      const key = page
        .getByRole('row', { name: /Storefront Web/ })
        .getByRole('button', { name: 'Create ingest key' });
      if (want.canCreateProject) {
        await expect(newProject).toBeEnabled();
      } else {
        await expect(newProject).toBeDisabled();
        await expect(newProject).toHaveAccessibleDescription(want.projectGate ?? /./);
        await expect(page.getByRole('link', { name: 'See the plan and its limits' })).toBeVisible();
      }
      if (want.canCreateKey) await expect(key).toBeEnabled();
      else await expect(key).toBeDisabled();

      if (state === 'trialing') {
        // Open gates do what they say: a project, then a key for it.
        const name = `Trial project ${Date.now().toString(36)}`;
        await newProject.click();
        await page.getByLabel('Project name').fill(name);
        await page.getByRole('button', { name: 'Create project' }).click();
        await page
          .getByRole('row', { name: new RegExp(name) })
          .getByRole('button', { name: 'Create ingest key' })
          .click();
        await page.getByRole('dialog').getByRole('button', { name: 'Create key' }).click();
        await expect(
          page
            .getByRole('dialog')
            .getByText(/lk_ik_/)
            .first(),
        ).toBeVisible();
      }
    });
  }
});
