import { randomBytes, randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import type { DemoCredentials } from './support/demo';
import { expect, test } from './support/fixtures';
import { ingestEnvelope, recordDeployment, word } from './support/telemetry';

const MARKUP = '<img src=x onerror=window.__pwned=1>';
const SCRIPT = '<script>window.__pwned=2</script>';

type Occurrence = {
  release: string;
  occurred_at: string;
  trace_id?: string;
};

/** Sends occurrences of one issue (same fingerprint) through the real ingest route. */
async function ingestIssue(
  request: APIRequestContext,
  ingestKey: string,
  service: string,
  title: string,
  occurrences: Occurrence[],
) {
  await ingestEnvelope(request, ingestKey, {
    environment: 'e2e',
    service_name: service,
    issues: occurrences.map((o) => ({
      id: randomUUID(),
      severity: 'error',
      title,
      message: `checkout failed ${MARKUP} ${SCRIPT}`,
      exception: { type: 'TypeError', value: `bad ${MARKUP}` },
      fingerprint: `e2e-${service}`,
      stack_trace: [
        `TypeError: bad ${MARKUP}`,
        `    at priceOf (src/checkout/${SCRIPT}.ts:42:17)`,
        '    at Router.handle (node_modules/hono/dist/router.js:120:5)',
      ].join('\n'),
      breadcrumbs: [
        { timestamp: o.occurred_at, category: 'ui.click', message: `clicked ${MARKUP}` },
      ],
      breadcrumbs_truncated: true,
      attributes: { http: { method: 'POST', note: SCRIPT } },
      ...o,
    })),
  });
}

/** The id of the issue of a service, read with the account token as any API client would. */
async function issueIdOf(request: APIRequestContext, demo: DemoCredentials, service: string) {
  const res = await request.get('/api/telemetry/issues', {
    headers: { Authorization: `Bearer ${demo.account_token}` },
    params: { service_name: service, since: '30d' },
  });
  expect(res.status()).toBe(200);
  const issues = (await res.json()) as { id: string }[];
  expect(issues).toHaveLength(1);
  return issues[0]!.id;
}

async function newIssue(
  request: APIRequestContext,
  demo: DemoCredentials,
  occurrences: Occurrence[],
) {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `e2e-issue-${word()}`;
  const title = `Checkout ${MARKUP} ${SCRIPT} ${service}`;
  await ingestIssue(request, project.ingest_key, service, title, occurrences);
  return { id: await issueIdOf(request, demo, service), title, project, service };
}

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const pwned = (page: Page) =>
  page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned);

test('markup in an issue shows as text; older occurrences show their own release', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const traceId = randomBytes(16).toString('hex');
  const { id, title } = await newIssue(request, demo, [
    { release: 'e2e@1.0.0', occurred_at: ago(30), trace_id: traceId },
    { release: 'e2e@2.0.0', occurred_at: ago(1) },
  ]);

  await page.goto(`/issues/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.getByText(`bad ${MARKUP}`).first()).toBeVisible();
  await expect(page.getByText(`clicked ${MARKUP}`)).toBeVisible();
  await expect(page.getByText('History truncated')).toBeVisible();
  await expect(page.getByText(/Source context unavailable/)).toBeVisible();
  // The in-app frame is a frame, its file name shown as text.
  await expect(
    page.getByRole('list', { name: 'Stack frames' }).getByText(`src/checkout/${SCRIPT}.ts`),
  ).toBeVisible();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await pwned(page)).toBeUndefined();

  // The latest occurrence has the latest release; the older one keeps its own, and its trace.
  await expect(page.getByTestId('occurrence-release')).toHaveText('e2e@2.0.0');
  await page.getByRole('button', { name: 'Older occurrence' }).click();
  await expect(page.getByTestId('occurrence-release')).toHaveText('e2e@1.0.0');
  await expect(page.getByText(traceId)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Logs of this trace' })).toHaveAttribute(
    'href',
    new RegExp(`trace_id=${traceId}`),
  );
  await expect(page.getByRole('button', { name: 'Older occurrence' })).toBeDisabled();
  await page.getByRole('button', { name: 'Newer occurrence' }).click();
  await expect(page.getByTestId('occurrence-release')).toHaveText('e2e@2.0.0');
  expect(await pwned(page)).toBeUndefined();
});

test('status, priority and a team assignee set on the page are kept after a reload', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const { id, project } = await newIssue(request, demo, [
    { release: 'e2e@1.0.0', occurred_at: ago(1) },
  ]);
  const res = await request.get('/api/telemetry/issues/assignees', {
    headers: { Authorization: `Bearer ${demo.account_token}` },
    params: { project_id: project.id, response_version: '2' },
  });
  const team = ((await res.json()) as { teams: { name: string }[] }).teams[0];
  if (!team) throw new Error('demo organization has no team');

  await page.goto(`/issues/${id}`);
  await expect(page.getByRole('radio', { name: 'Unresolved' })).toBeChecked();
  await expect(page.getByText('Derived', { exact: true })).toBeVisible();

  await page.getByRole('radio', { name: 'Resolved', exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Resolved', exact: true })).toBeChecked();
  await page.getByLabel('Priority').selectOption('low');
  await expect(page.getByText('Manual', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: /^Assignee/ }).click();
  await page
    .getByRole('dialog', { name: 'Assign issue' })
    .getByRole('button', { name: team.name })
    .click();
  await expect(page.getByRole('button', { name: /^Assignee/ })).toContainText(team.name);

  // The activity timeline records each change.
  await expect(page.getByText(/marked this resolved/)).toBeVisible();
  await expect(page.getByText(new RegExp(`assigned this to team ${team.name}`))).toBeVisible();

  await page.reload();
  await expect(page.getByRole('radio', { name: 'Resolved', exact: true })).toBeChecked();
  await expect(page.getByLabel('Priority')).toHaveValue('low');
  await expect(page.getByText('Manual', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Assignee/ })).toContainText(team.name);
});

/** Records a deployment through the API, as a CI pipeline would. */
/** A deployment of the test's own, finished 45 minutes ago unless `body` says otherwise. */
function recordDeploymentAgo(
  request: APIRequestContext,
  demo: DemoCredentials,
  id: string,
  body: Record<string, unknown>,
) {
  return recordDeployment(request, demo.account_token, id, {
    started_at: ago(50),
    finished_at: ago(45),
    ...body,
  });
}

test("the events chart: bars over the range, the service's deployments to its environment marked, an empty range or a failed read said", async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const { id, project, service } = await newIssue(request, demo, [
    { release: 'e2e@1.0.0', occurred_at: ago(90) },
    { release: 'e2e@1.0.1', occurred_at: ago(20) },
    { release: 'e2e@1.0.1', occurred_at: ago(10) },
  ]);
  const here = { project_id: project.id, service_name: service };
  // Marked: this service to the environment it threw in. Not marked: another environment.
  await recordDeploymentAgo(request, demo, `${service}-e2e`, {
    ...here,
    release: 'e2e@1.0.1',
    environment: 'e2e',
  });
  await recordDeploymentAgo(request, demo, `${service}-staging`, {
    ...here,
    release: 'e2e@1.0.1',
    environment: 'staging',
  });

  await page.goto(`/issues/${id}`);
  const trend = page.getByRole('region', { name: 'Events over time' });
  await expect(trend).toContainText(`Deployments of ${service} to e2e`);
  const chart = trend.getByRole('img', { name: /^Events of this issue, last 24 hours/ });
  await expect(chart).toHaveAccessibleName(/: 3 events,/);
  await expect(chart.locator('path.recharts-rectangle').first()).toBeVisible();
  // One marker: the deployment of this service to this environment, named on hover.
  const markers = chart.locator('[data-deployment]');
  await expect(markers).toHaveCount(1);
  await expect(markers).toHaveAttribute('data-deployment', `${project.id}/${service}-e2e`);
  await markers.hover();
  await expect(chart).toContainText('e2e@1.0.1');
  await expect(chart).toContainText('Succeeded');
  // The same deployment, reachable by keyboard through the summary.
  await trend.getByRole('button', { name: '1 deployment' }).focus();
  await page.keyboard.press('Enter');
  const list = page.getByRole('list', { name: "Deployments on the issue's events chart" });
  await expect(list.getByRole('link')).toHaveCount(1);
  await expect(
    list.getByRole('link', { name: new RegExp(`^${service} e2e@1\\.0\\.1 → e2e, finished`) }),
  ).toBeVisible();
  await page.keyboard.press('Escape');

  // A range without its events says so, in the chart's place only.
  const since = new Date(Date.now() - 10 * 86_400_000).toISOString();
  const until = new Date(Date.now() - 9 * 86_400_000).toISOString();
  await page.goto(`/issues/${id}?since=${since}&until=${until}`);
  await expect(trend.getByText('No events of this issue in the range.')).toBeVisible();
  await expect(trend.getByRole('img')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 2, name: 'Latest occurrence' })).toBeVisible();

  // A failed read: the service's words and a retry in the chart's place; the page stays.
  const next = 'Send since as RFC3339 or a compact duration.';
  await page.route('**/api/telemetry/issues/histograms?**', (route) =>
    route.fulfill({
      status: 422,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'since is invalid', code: 'validation_failed', next }),
    }),
  );
  await page.goto(`/issues/${id}?since=7d`);
  await expect(trend.getByRole('alert')).toContainText(next);
  await expect(page.getByRole('heading', { level: 2, name: 'Latest occurrence' })).toBeVisible();
  await page.unroute('**/api/telemetry/issues/histograms?**');
  await trend.getByRole('button', { name: 'Try again' }).click();
  await expect(
    trend.getByRole('img', { name: /^Events of this issue, last 7 days/ }),
  ).toBeVisible();
});

test('an unknown issue is "issue not found" with a way back to the board', async ({
  signedInPage: page,
}) => {
  await page.goto(`/issues/${randomUUID()}`);
  await expect(page.getByRole('heading', { name: 'Issue not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to issues' })).toHaveAttribute(
    'href',
    /\/issues/,
  );
});
