import type { APIRequestContext, Page } from '@playwright/test';
import { formatFraction } from '../../src/lib/format-share';
import { expect, test } from '../support/fixtures';
import type { DemoCredentials } from '../support/demo';

/**
 * A product manager builds a funnel from the step picker (typing each name and pressing Enter),
 * compares it across environments, and shares it by link: a teammate opening the link in a
 * browser of their own sees the same definition and the same figures.
 */

type TopAction = { name: string; kind: string; events: number };
type Overview = { totals: { events: number }; top_actions: TopAction[] };
type FunnelAnswer = {
  summary: { entered_units: number };
  steps: { units: number; conversion_from_first: number }[];
};

const SHOP = ['Home', 'Product', 'Add to cart', 'Checkout', 'Place order'];
const KIND_LABELS: Record<string, string> = {
  page_view: 'Page view',
  screen_view: 'Screen view',
  interaction: 'Interaction',
};

/** A fixed range in the past: the live trickle cannot move the numbers between two reads. */
function pastWeek() {
  const until = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000).toISOString();
  const since = new Date(Date.parse(until) - 7 * 86_400_000).toISOString();
  return {
    since,
    until,
    query: `since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`,
  };
}

async function overviewOf(
  request: APIRequestContext,
  demo: DemoCredentials,
  projectId: string,
  range: { since: string; until: string },
) {
  const res = await request.get('/api/telemetry/analytics/overview', {
    headers: { Authorization: `Bearer ${demo.account_token}` },
    params: { project_id: projectId, since: range.since, until: range.until, top_limit: '50' },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Overview;
}

async function funnelOf(
  request: APIRequestContext,
  demo: DemoCredentials,
  body: Record<string, unknown>,
) {
  const res = await request.post('/api/telemetry/analytics/funnel', {
    headers: { Authorization: `Bearer ${demo.account_token}` },
    data: body,
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as FunnelAnswer;
}

const stepList = (page: Page) =>
  page.getByRole('list', { name: 'Funnel steps' }).getByRole('listitem');
const stepsTable = (page: Page) =>
  page.getByRole('table', { name: 'Steps, as the service counted them' });

/** The service's figures, row by row, as the result table must show them. */
async function expectFigures(page: Page, answer: FunnelAnswer) {
  const rows = stepsTable(page).getByRole('row');
  await expect(rows).toHaveCount(answer.steps.length + 1);
  for (const [i, s] of answer.steps.entries()) {
    const cells = rows.nth(i + 1).getByRole('cell');
    await expect(cells.nth(2)).toHaveText(s.units.toLocaleString('en-US'));
    await expect(cells.nth(3)).toHaveText(formatFraction(s.conversion_from_first));
  }
}

test('a product manager builds a funnel from the picker, compares it, and shares it by link', async ({
  signedInPage: page,
  teammatePage,
  demo,
  request,
}) => {
  test.setTimeout(60_000);
  const range = pastWeek();
  // Which project has the most product actions in the range, as the service counts them.
  const counted = await Promise.all(
    demo.projects.map(async (p) => ({
      ...p,
      overview: await overviewOf(request, demo, p.id, range),
    })),
  );
  const busiest = counted.reduce((a, b) =>
    b.overview.totals.events > a.overview.totals.events ? b : a,
  );
  expect(busiest.overview.totals.events).toBeGreaterThan(0);

  // With every project in the header's scope, Funnels opens on the busiest one, not on "Pick a project".
  await page.goto(`/analytics/funnels?${range.query}`);
  await expect(page.getByRole('heading', { name: 'Funnels', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Project', { exact: true })).toHaveValue(busiest.id);
  await expect(
    page.getByText(
      `Opened on ${busiest.name}: the project with the most product actions in this range`,
    ),
  ).toBeVisible();
  await expect(page.getByText('Pick a project to build a funnel')).toBeHidden();
  // The shop funnel is suggested, since its actions were all seen there.
  await expect(page.getByRole('group', { name: 'Suggested funnels' })).toContainText(
    'Home → Product → Add to cart → Checkout → Place order',
  );

  // Built from the picker: each name typed, Enter takes the action seen (never a free-text entry).
  for (const [i, name] of SHOP.entries()) {
    await page.getByRole('button', { name: 'Add step' }).click();
    const picker = page.getByRole('dialog', { name: 'Add a step' });
    await picker.getByPlaceholder('Search actions or type an exact name').fill(name);
    await expect(picker.getByRole('option').first()).toContainText(name);
    await picker.getByPlaceholder('Search actions or type an exact name').press('Enter');
    await expect(picker).toBeHidden();
    // The most frequent seen action of that exact name, with its kind.
    const seen = busiest.overview.top_actions.find((a) => a.name === name);
    if (!seen) throw new Error(`${name} was not seen in ${busiest.name}`);
    await expect(stepList(page).nth(i)).toContainText(`${name}${KIND_LABELS[seen.kind]}`);
  }
  await page.getByLabel('Conversion window').selectOption({ label: '1 hour' });

  const steps = SHOP.map((name) => ({
    kind: busiest.overview.top_actions.find((a) => a.name === name)?.kind,
    event_name: name,
  }));
  const body = {
    project_id: busiest.id,
    since: range.since,
    until: range.until,
    analysis_unit: 'session',
    conversion_window_seconds: 3600,
    steps,
  };
  const answer = await funnelOf(request, demo, body);
  expect(answer.summary.entered_units).toBeGreaterThan(0);
  await expectFigures(page, answer);
  await expect(page.getByText(/No session reached step 1/)).toBeHidden();

  // Compared: the same funnel in production and in staging, side by side.
  await page.getByRole('radio', { name: 'Environments' }).click();
  await page.getByLabel('First environment').fill('production');
  await page.getByLabel('Second environment').fill('staging');
  await page.getByLabel('Second environment').press('Enter');
  const production = await funnelOf(request, demo, { ...body, environment: 'production' });
  await expect(page.getByRole('group', { name: 'environment production' })).toContainText(
    `${production.summary.entered_units.toLocaleString('en-US')} sessions entered`,
  );
  const comparison = page.getByRole('table', { name: /production against staging/ });
  await expect(comparison).toBeVisible();

  // Shared by link: the teammate's browser shows the same definition and the same figures.
  const link = page.url();
  const definition = await stepList(page).allInnerTexts();
  const figures = await stepsTable(page).innerText();
  const compared = await comparison.innerText();
  await teammatePage.goto(link);
  await expect(teammatePage.getByRole('heading', { name: 'Funnels', level: 1 })).toBeVisible();
  await expect(teammatePage.getByLabel('Project', { exact: true })).toHaveValue(busiest.id);
  await expect(stepList(teammatePage)).toHaveCount(SHOP.length);
  expect(await stepList(teammatePage).allInnerTexts()).toEqual(definition);
  await expect(teammatePage.getByLabel('Conversion window')).toHaveValue('3600');
  await expectFigures(teammatePage, answer);
  await expect.poll(() => stepsTable(teammatePage).innerText()).toBe(figures);
  const teammateComparison = teammatePage.getByRole('table', {
    name: /production against staging/,
  });
  await expect.poll(() => teammateComparison.innerText()).toBe(compared);
});

test('funnels open on the last project used, and its suggested shop funnel is read from the service', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const range = pastWeek();
  const app = demo.projects.find((p) => p.name === 'Mobile App');
  if (!app) throw new Error('demo world has no Mobile App project');
  const overview = await overviewOf(request, demo, app.id, range);

  // A funnel read in the Mobile App, then Funnels again with every project in scope.
  await page.goto(`/analytics/funnels?${range.query}&analytics_project=${app.id}`);
  await expect(page.getByLabel('Project', { exact: true })).toHaveValue(app.id);
  await page.goto('/projects');
  await page.goto(`/analytics/funnels?${range.query}`);
  await expect(page.getByLabel('Project', { exact: true })).toHaveValue(app.id);
  await expect(
    page.getByText('Opened on Mobile App: the project of your last funnel'),
  ).toBeVisible();

  // The suggestion is a definition from the app's own actions (screen views), not a result.
  await page.getByRole('button', { name: 'Use the Shop checkout funnel' }).click();
  await expect(stepList(page)).toHaveCount(SHOP.length);
  const steps = SHOP.map((name) => {
    const seen = overview.top_actions
      .filter((a) => a.name === name)
      .sort((a, b) => b.events - a.events)[0];
    if (!seen) throw new Error(`${name} was not seen in the Mobile App`);
    return { kind: seen.kind, event_name: name };
  });
  for (const [i, s] of steps.entries())
    await expect(stepList(page).nth(i)).toContainText(`${s.event_name}${KIND_LABELS[s.kind]}`);
  const answer = await funnelOf(request, demo, {
    project_id: app.id,
    since: range.since,
    until: range.until,
    analysis_unit: 'session',
    conversion_window_seconds: 86_400,
    steps,
  });
  await expectFigures(page, answer);
});
