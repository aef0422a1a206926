import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { recordDeployment } from './support/telemetry';

type Overview = {
  totals: { events: number; users: number; sessions: number };
  top_actions: { name: string; kind: string; events: number; users: number; sessions: number }[];
};
type Retention = {
  summary: { units: number; returning_units: number; return_rate: number };
  cohorts: { units: number; retained: number[]; rates: number[] }[];
};
type Lifecycle = { summary: { active_units: number; dormant_units: number } };
type Paths = {
  summary: { units: number; distinct_paths: number };
  paths: { steps: { kind: string; event_name: string }[]; units: number; share: number }[];
};

const KIND_LABELS: Record<string, string> = {
  page_view: 'Page view',
  screen_view: 'Screen view',
  interaction: 'Interaction',
};

const count = (n: number) => n.toLocaleString('en-US');

/** The console's percentage of a 0–1 rate (one decimal; 0% and 100% exact). */
function percent(rate: number): string {
  const p = rate * 100;
  if (p === 0) return '0%';
  if (p === 100) return '100%';
  if (p < 0.1) return `${p.toFixed(2)}%`;
  if (p > 99.9) return `${(Math.floor(p * 100) / 100).toFixed(2)}%`;
  return `${p.toFixed(1)}%`;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function readJson<T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

test('analytics overview: totals, top actions, retention and paths as the service answers them', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects.find((p) => p.name === 'Storefront Web');
  if (!project) throw new Error('demo world has no Storefront Web project');
  const headers = { Authorization: `Bearer ${demo.account_token}` };
  // A fixed range in the past: a moving `7d` could let an action at its edge in or out between
  // the page's reads and the test's.
  const until = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000).toISOString();
  const since = new Date(Date.parse(until) - 7 * 86_400_000).toISOString();

  await page.goto(
    `/analytics?project=${project.id}&since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`,
  );
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  const topActions = page.getByRole('table', { name: 'Top actions' });
  await expect(topActions).toBeVisible();

  // The same reads the page sent, straight from the service.
  const overview = await readJson<Overview>(
    await request.get('/api/telemetry/analytics/overview', {
      headers,
      params: { project_id: project.id, since, until, top_limit: '10' },
    }),
  );
  const retention = await readJson<Retention>(
    await request.post('/api/telemetry/analytics/retention', {
      headers,
      data: { project_id: project.id, since, until, period: 'day' },
    }),
  );
  const paths = await readJson<Paths>(
    await request.post('/api/telemetry/analytics/paths', {
      headers,
      data: {
        project_id: project.id,
        since,
        until,
        analysis_unit: 'session',
        depth: 3,
        limit: 10,
      },
    }),
  );
  const lifecycle = await readJson<Lifecycle>(
    await request.post('/api/telemetry/analytics/lifecycle', {
      headers,
      data: { project_id: project.id, since, until, period: 'day' },
    }),
  );
  expect(overview.totals.events, 'the demo world has product actions').toBeGreaterThan(0);

  // Totals.
  const totals = page.getByLabel('Totals', { exact: true }).getByRole('definition');
  await expect(totals.filter({ hasText: /^[\d,]+$/ })).toHaveText([
    count(overview.totals.events),
    count(overview.totals.users),
    count(overview.totals.sessions),
  ]);
  await expect(page.getByRole('img', { name: /^Actions per .* bucket/ })).toBeVisible();

  // The first top action, with its funnel link.
  const first = overview.top_actions[0];
  if (!first) throw new Error('no top action');
  const firstRow = topActions.getByRole('row').nth(1);
  await expect(firstRow.getByRole('cell')).toHaveText([
    first.name,
    KIND_LABELS[first.kind] ?? first.kind,
    count(first.events),
    count(first.users),
    count(first.sessions),
    'Start a funnel here',
  ]);
  const funnelLink = firstRow.getByRole('link', { name: /^Start a funnel here/ });
  await expect(funnelLink).toHaveAttribute('href', /^\/analytics\/funnels\?/);
  const href = new URL((await funnelLink.getAttribute('href')) ?? '', 'http://x');
  expect(JSON.parse(href.searchParams.get('steps') ?? 'null')).toEqual([
    { kind: first.kind, name: first.name },
  ]);

  // Retention: the summary and the first cohort's row.
  await expect(page.getByLabel('Retention summary')).toHaveText(
    new RegExp(
      `${escape(count(retention.summary.units))} users? in cohorts; ${escape(count(retention.summary.returning_units))} returned in a later day, a return rate of ${escape(percent(retention.summary.return_rate))}`,
    ),
  );
  const grid = page.getByRole('table', { name: 'Retention cohorts' });
  await expect(grid.getByRole('row')).toHaveCount(retention.cohorts.length + 1);
  const cohort = retention.cohorts[0];
  if (!cohort) throw new Error('no cohort');
  const cohortRow = grid.getByRole('row').nth(1);
  await expect(cohortRow.getByRole('cell').first()).toHaveText(count(cohort.units));
  if (cohort.units > 0 && cohort.rates.length > 1) {
    await expect(cohortRow.getByRole('cell').nth(1)).toHaveText(percent(cohort.rates[1] ?? 0));
  }

  // Lifecycle: the totals beside the chart.
  const lifecycleTotals = page.getByRole('list', { name: 'Lifecycle states' });
  await expect(lifecycleTotals).toBeVisible();
  await expect(page.getByLabel('Lifecycle totals')).toContainText(
    `Active users${count(lifecycle.summary.active_units)}`,
  );
  await expect(page.getByLabel('Lifecycle totals')).toContainText(
    `Dormant${count(lifecycle.summary.dormant_units)}`,
  );

  // Paths: the summary, one row per path, the first path's steps and units.
  await expect(page.getByLabel('Paths summary')).toHaveText(
    new RegExp(
      `${escape(count(paths.summary.units))} sessions? with a start, following ${escape(count(paths.summary.distinct_paths))} distinct`,
    ),
  );
  const pathRows = page.getByRole('list', { name: 'Paths', exact: true }).locator(':scope > li');
  await expect(pathRows).toHaveCount(paths.paths.length);
  const top = paths.paths[0];
  if (!top) throw new Error('no path');
  const stepsText = top.steps.map((s) => `${KIND_LABELS[s.kind]} ${s.event_name}`).join(' → ');
  await expect(pathRows.first().getByRole('list', { name: stepsText })).toBeVisible();
  await expect(pathRows.first()).toContainText(`${count(top.units)} session`);
  await expect(pathRows.first()).toContainText(percent(top.share));
});

test('analytics overview: with every project in scope it opens on the busiest, and a cleared pick stays clear', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const headers = { Authorization: `Bearer ${demo.account_token}` };
  const until = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000).toISOString();
  const since = new Date(Date.parse(until) - 7 * 86_400_000).toISOString();
  // Which project has the most product actions in the range, as the service counts them.
  const counted = await Promise.all(
    demo.projects.map(async (p) => {
      const overview = await readJson<Overview>(
        await request.get('/api/telemetry/analytics/overview', {
          headers,
          params: { project_id: p.id, since, until, top_limit: '10' },
        }),
      );
      return { ...p, events: overview.totals.events };
    }),
  );
  const busiest = counted.reduce((a, b) => (b.events > a.events ? b : a));
  expect(busiest.events, 'the demo world has product actions').toBeGreaterThan(0);

  await page.goto(
    `/analytics?since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`,
  );
  await expect(page.getByLabel('Project', { exact: true })).toHaveValue(busiest.id);
  await expect(
    page.getByText(
      `Opened on ${busiest.name}: the project with the most product actions in this range`,
    ),
  ).toBeVisible();
  const totals = page.getByLabel('Totals', { exact: true }).getByRole('definition');
  await expect(totals.filter({ hasText: /^[\d,]+$/ }).first()).toHaveText(count(busiest.events));
  await expect(page.getByText('Pick a project to analyse')).toBeHidden();

  // Clearing the pick is a choice the page keeps: it does not open a project again.
  await page.getByLabel('Project', { exact: true }).selectOption('');
  await expect(page.getByText('Pick a project to analyse')).toBeVisible();
  await expect(page.getByLabel('Project', { exact: true })).toHaveValue('');
  await expect(page.getByRole('table', { name: 'Top actions' })).toHaveCount(0);
});

test('analytics overview: a range over 31 days is explained and nothing is sent', async ({
  signedInPage: page,
  demo,
}) => {
  const project = demo.projects.find((p) => p.name === 'Storefront Web');
  if (!project) throw new Error('demo world has no Storefront Web project');
  const analyticsRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/telemetry/analytics/')) analyticsRequests.push(r.url());
  });
  const until = new Date(Date.now() - 60_000);
  const since = new Date(until.getTime() - 40 * 86_400_000);
  const search = new URLSearchParams({
    project: project.id,
    since: since.toISOString(),
    until: until.toISOString(),
  });
  await page.goto(`/analytics?${search.toString()}`);
  const note = page
    .getByRole('status')
    .filter({ hasText: 'The time range is too long for analytics' });
  await expect(note).toBeVisible();
  await expect(note).toContainText('This range covers 40 days; analytics read at most 31 days.');
  await expect(note).toContainText('Nothing was sent to the service.');
  await expect(page.getByRole('table', { name: 'Top actions' })).toHaveCount(0);
  // Give a late read the time to show up before concluding none was sent.
  await page.waitForTimeout(500);
  expect(analyticsRequests).toEqual([]);
});

test('analytics overview: the actions and lifecycle charts mark the project’s deployments', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects.find((p) => p.name === 'Storefront Web');
  if (!project) throw new Error('demo world has no Storefront Web project');
  const service = `e2e-analytics-${Date.now().toString(36)}`;
  await recordDeployment(request, demo.account_token, `${service}-1`, {
    project_id: project.id,
    release: `${service}@3.1.0`,
    environment: 'production',
    service_name: service,
    started_at: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    finished_at: new Date(Date.now() - 3 * 86_400_000 + 60_000).toISOString(),
  });

  await page.goto(`/analytics?project=${project.id}&since=7d`);
  const link = new RegExp(`^${escape(service)} ${escape(service)}@3\\.1\\.0 → production`);
  for (const chart of ['actions', 'lifecycle']) {
    const section = page.getByRole('region', {
      name: chart === 'actions' ? 'Overview' : 'Lifecycle',
    });
    await section.getByRole('button', { name: /^\d+ deployments?$/ }).click();
    const list = page.getByRole('list', { name: `Deployments on the ${chart} chart` });
    await expect(list.getByRole('link', { name: link })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(list).toHaveCount(0);
  }
});
