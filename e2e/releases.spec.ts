import { randomBytes, randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { E2E_BASE_URL } from './support/e2e-env';
import { expect, signInThroughForm, test } from './support/fixtures';
import {
  dataRowsOf,
  ingestEnvelope,
  liveIndicator,
  recordDeployment,
  word,
} from './support/telemetry';

const MINUTE = 60_000;
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const ago = (minutes: number) => new Date(Date.now() - minutes * MINUTE).toISOString();

/** One release's telemetry: traces of one span (some failed), an issue and a few logs. */
async function ingestRelease(
  request: APIRequestContext,
  ingestKey: string,
  envelope: { release: string; service_name: string; environment: string },
  at: number,
  traces: { ok: number; failed: number },
  issue: { fingerprint: string; message: string },
) {
  const spans = Array.from({ length: traces.ok + traces.failed }, (_, i) => ({
    id: randomUUID(),
    trace_id: hex(16),
    span_id: hex(8),
    name: 'GET /cart',
    operation: 'http.server',
    started_at: ago(at - i),
    duration_ms: 40 + i,
    status: i < traces.failed ? 'error' : 'ok',
  }));
  await ingestEnvelope(request, ingestKey, {
    ...envelope,
    trace_spans: spans,
    issues: [
      {
        id: randomUUID(),
        occurred_at: ago(at - 1),
        message: issue.message,
        fingerprint: issue.fingerprint,
        exception: { type: 'CartError', value: issue.message },
      },
    ],
    logs: [
      { id: randomUUID(), occurred_at: ago(at), message: `cart served ${issue.fingerprint}` },
      { id: randomUUID(), occurred_at: ago(at - 2), message: `cart saved ${issue.fingerprint}` },
    ],
  });
}

test('release health: rows, trace health, comparison, timeline and links', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `rel-${word()}`;
  const older = `${service}@1.0.0`;
  const newer = `${service}@1.1.0`;
  const environment = 'production';
  const oldIssue = `cart total missing ${word()}`;
  const newIssue = `cart currency undefined ${word()}`;

  // 1 of 4 traces failed in the older release, 2 of 4 in the newer one.
  await ingestRelease(
    request,
    project.ingest_key,
    { release: older, service_name: service, environment },
    180,
    { ok: 3, failed: 1 },
    { fingerprint: `${service}-old`, message: oldIssue },
  );
  await ingestRelease(
    request,
    project.ingest_key,
    { release: newer, service_name: service, environment },
    60,
    { ok: 2, failed: 2 },
    { fingerprint: `${service}-new`, message: newIssue },
  );

  const base = { project_id: project.id, environment, service_name: service };
  const oldSha = hex(20);
  const newSha = hex(20);
  await recordDeployment(request, demo.account_token, `${service}-a`, {
    ...base,
    release: older,
    status: 'succeeded',
    started_at: ago(195),
    finished_at: ago(190),
    commit_sha: oldSha,
  });
  await recordDeployment(request, demo.account_token, `${service}-b1`, {
    ...base,
    release: newer,
    status: 'failed',
    started_at: ago(80),
    finished_at: ago(78),
    commit_sha: newSha,
  });
  await recordDeployment(request, demo.account_token, `${service}-b2`, {
    ...base,
    release: newer,
    status: 'succeeded',
    started_at: ago(75),
    finished_at: ago(70),
    commit_sha: newSha,
  });

  // The list: both rows, newest first, with counts, trace health and latest deployment.
  await page.goto(`/releases?project=${project.id}&service=${service}`);
  const rows = dataRowsOf(page, 'Releases');
  await expect(rows).toHaveCount(2);
  const newerRow = rows.filter({ hasText: newer });
  const olderRow = rows.filter({ hasText: older });
  await expect(newerRow).toContainText('50.0%');
  await expect(newerRow).toContainText('of 4 traces had an error span');
  await expect(olderRow).toContainText('25.0%');
  await expect(olderRow).toContainText('of 4 traces had an error span');
  await expect(page.getByText(/error rate/i)).toHaveCount(0);
  // Issues, spans, logs, actions, metric samples.
  await expect(newerRow.locator('[title="1 issue"]')).toHaveText('1');
  await expect(newerRow.locator('[title="4 spans"]')).toHaveText('4');
  await expect(newerRow.locator('[title="2 logs"]')).toHaveText('2');
  await expect(newerRow.locator('[title="0 actions"]')).toHaveText('0');
  // The latest deployment of each row: the newer one succeeded after a failed attempt.
  await expect(newerRow).toContainText('Succeeded');
  await expect(newerRow).toContainText(newSha.slice(0, 7));
  await expect(olderRow).toContainText('Succeeded');
  await expect(olderRow).toContainText(oldSha.slice(0, 7));

  // The newer release: comparison with the older one (its previous succeeded deployment).
  await newerRow.getByRole('link', { name: newer }).click();
  await expect(page.getByRole('heading', { level: 1, name: newer })).toBeVisible();
  await expect(page.getByTestId('trace-health')).toContainText(
    '50.0% of 4 traces had an error span',
  );
  const comparison = page.getByRole('region', { name: 'Comparison with the previous release' });
  await expect(comparison.getByRole('link', { name: older })).toBeVisible();
  await expect(page.getByTestId('error-share-change')).toContainText('+25.0 pp');
  const fresh = page.getByTestId('new-issues');
  await expect(fresh).toContainText('1 new issue');
  await expect(fresh).toContainText(newIssue);
  await expect(fresh).not.toContainText(oldIssue);

  // The timeline: every deployment of the service to the environment, with status text.
  const deployments = page.getByRole('region', { name: 'Deployments' }).getByTestId('deployment');
  await expect(deployments).toHaveCount(3);
  await expect(deployments.nth(0)).toContainText('Succeeded');
  await expect(deployments.nth(0)).toContainText(newSha.slice(0, 7));
  await expect(deployments.nth(1)).toContainText('Failed');
  await expect(deployments.nth(2)).toContainText('Succeeded');
  await expect(deployments.nth(2)).toContainText(older);

  // The release's issues open the issue board with the release filter.
  await page.getByRole('link', { name: 'Open in Issues' }).click();
  await expect(page).toHaveURL(/\/issues\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('release')).toBe(newer);
  expect(url.searchParams.get('service')).toBe(service);
  expect(url.searchParams.get('environment')).toBe(environment);
  await expect(page.getByText(newIssue).first()).toBeVisible();
  await expect(page.getByText(oldIssue)).toHaveCount(0);
});

test("the release chart: the row's telemetry per stream over the range, its deployments marked as the timeline lists them", async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `chart-${word()}`;
  const release = `${service}@2.0.0`;
  const environment = 'production';
  await ingestRelease(
    request,
    project.ingest_key,
    { release, service_name: service, environment },
    30,
    { ok: 2, failed: 1 },
    { fingerprint: `${service}-issue`, message: `chart issue ${word()}` },
  );
  const base = { project_id: project.id, service_name: service, status: 'succeeded' };
  // Marked: this release to this environment. In the timeline but not marked: an older
  // release of the service. Neither: this release to staging.
  await recordDeployment(request, demo.account_token, `${service}-this`, {
    ...base,
    release,
    environment,
    started_at: ago(45),
    finished_at: ago(40),
  });
  await recordDeployment(request, demo.account_token, `${service}-older`, {
    ...base,
    release: `${service}@1.9.0`,
    environment,
    started_at: ago(130),
    finished_at: ago(120),
  });
  await recordDeployment(request, demo.account_token, `${service}-staging`, {
    ...base,
    release,
    environment: 'staging',
    started_at: ago(55),
    finished_at: ago(50),
  });

  const url = `/releases/${encodeURIComponent(release)}?project=${project.id}&environment=${environment}&service=${service}`;
  await page.goto(url);
  const panel = page.getByRole('region', { name: 'Telemetry over time' });
  const chart = panel.getByRole('img', { name: /^Items of this release per 1-hour bucket/ });
  await expect(chart).toHaveAccessibleName(/Spans 3, Actions 0, Metric samples 0$/);
  await expect(chart.locator('.recharts-line')).toHaveCount(5);
  // One marker, the timeline's "this release" entry.
  const markers = chart.locator('[data-deployment]');
  await expect(markers).toHaveCount(1);
  await expect(markers).toHaveAttribute('data-deployment', `${project.id}/${service}-this`);
  const timeline = page.getByRole('region', { name: 'Deployments' }).getByTestId('deployment');
  await expect(timeline).toHaveCount(2);
  await expect(timeline.filter({ hasText: 'this release' })).toContainText(`${service}-this`);
  await markers.hover();
  await expect(chart).toContainText(release);
  await expect(chart).toContainText('Succeeded');
  // Listed for the keyboard through the summary.
  await panel.getByRole('button', { name: '1 deployment' }).click();
  const list = page.getByRole('list', { name: 'Deployments on the release chart' });
  await expect(list.getByRole('link')).toHaveCount(1);
  await expect(
    list.getByRole('link', { name: new RegExp(`^${service} ${service}@2\\.0\\.0 → production`) }),
  ).toBeVisible();
  await page.keyboard.press('Escape');

  // A range without the release's telemetry says so.
  const since = new Date(Date.now() - 10 * 86_400_000).toISOString();
  const until = new Date(Date.now() - 9 * 86_400_000).toISOString();
  await page.goto(`${url}&since=${since}&until=${until}`);
  await expect(panel.getByText('No telemetry of this release in the range.')).toBeVisible();
  await expect(panel.getByRole('img')).toHaveCount(0);
});

test('an unknown release says so and links back', async ({ signedInPage: page, demo }) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  await page.goto(`/releases/missing-${word()}?project=${project.id}&service=nope`);
  await expect(page.getByRole('heading', { name: 'No such release in this scope' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to releases' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Releases' })).toBeVisible();
});

test("the demo world's bad release: checkout-api@2.14.0 spikes against 2.13.0 in production", async ({
  signedInPage: page,
  demo,
}) => {
  const project = demo.projects.find((p) => p.name === 'Checkout API');
  if (!project) throw new Error('demo world has no Checkout API project');
  const bad = 'checkout-api@2.14.0';

  await page.goto(`/releases?project=${project.id}&since=14d&service=checkout-api`);
  const row = dataRowsOf(page, 'Releases')
    .filter({ hasText: bad })
    .filter({ hasText: 'production' });
  await expect(row).toHaveCount(1);
  await row.getByRole('link', { name: bad }).click();

  await expect(page.getByRole('heading', { level: 1, name: bad })).toBeVisible();
  await expect(page).toHaveURL(
    (url) =>
      url.searchParams.get('environment') === 'production' &&
      url.searchParams.get('service') === 'checkout-api' &&
      url.searchParams.get('project') === project.id,
  );
  const comparison = page.getByRole('region', { name: 'Comparison with the previous release' });
  // The previous release: 2.13.0, by the deployment timeline (its last succeeded deployment).
  await expect(comparison.getByRole('link', { name: 'checkout-api@2.13.0' })).toBeVisible();
  await expect(comparison).toContainText('the release of the last succeeded deployment');
  // The spike: more traces with an error span than before, in percentage points.
  const change = page.getByTestId('error-share-change');
  await expect(change).toContainText(/\+\d+\.\d pp\s*more/);
  await expect(change.locator('[data-direction="up"]')).toBeVisible();
  const text = await change.locator('[data-direction="up"]').innerText();
  const points = Number(/\+(\d+\.\d) pp/.exec(text)?.[1]);
  // The story's spike, not noise: the share grows by tens of points (about 56% against 8%).
  expect(points).toBeGreaterThanOrEqual(20);
});

test('record a deployment in the console: validation, conflict on a changed body, already recorded', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `rec-${word()}`;
  const release = `${service}@3.0.0`;
  const environment = 'production';
  await ingestRelease(
    request,
    project.ingest_key,
    { release, service_name: service, environment },
    30,
    { ok: 2, failed: 0 },
    { fingerprint: `${service}-issue`, message: `rec issue ${word()}` },
  );
  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().includes('/api/telemetry/deployments/')) puts.push(r.url());
  });

  await page.goto(
    `/releases/${encodeURIComponent(release)}?project=${project.id}&environment=${environment}&service=${service}`,
  );
  await expect(page.getByRole('heading', { level: 1, name: release })).toBeVisible();
  const timeline = page.getByRole('region', { name: 'Deployments' }).getByTestId('deployment');
  await expect(timeline).toHaveCount(0);

  await page.getByRole('button', { name: 'Record deployment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record deployment' });
  await expect(dialog).toBeVisible();
  // Prefilled with this row and a fresh id that fits the service's rule.
  await expect(dialog).toContainText(release);
  await expect(dialog).toContainText(service);
  const idField = dialog.getByLabel('Deployment id');
  await expect(idField).toHaveValue(new RegExp(`^${service}-${environment}-3\\.0\\.0-\\d{12}$`));

  // Checked before sending: an id the service refuses, an end before the start, a bad sha.
  const id = `${service}-deploy-1`;
  await idField.fill(`${service} deploy 1`);
  await dialog.getByLabel('Started at (UTC)').fill('2026-01-10T10:30');
  await dialog.getByLabel('Finished at (UTC)').fill('2026-01-10T10:20');
  await dialog.getByLabel('Commit sha (optional)').fill('xyz');
  await dialog.getByRole('button', { name: 'Record deployment' }).click();
  await expect(dialog.getByText('Use only letters, digits')).toBeVisible();
  await expect(
    dialog.getByText('It cannot finish before it started: make "Finished at" later.'),
  ).toBeVisible();
  await expect(dialog.getByText('A commit sha is 7 to 64 hex characters')).toBeVisible();
  expect(puts).toEqual([]);

  // The first recording: 200, the dialog closes, the deployment is in the timeline.
  const sha = hex(20);
  const started = new Date(Date.now() - 20 * MINUTE);
  const finished = new Date(Date.now() - 12 * MINUTE);
  const input = (d: Date) => d.toISOString().slice(0, 16);
  await idField.fill(id);
  await dialog.getByLabel('Started at (UTC)').fill(input(started));
  await dialog.getByLabel('Finished at (UTC)').fill(input(finished));
  await dialog.getByLabel('Commit sha (optional)').fill(sha);
  await dialog.getByRole('button', { name: 'Record deployment' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Deployment recorded' })).toContainText(
    id,
  );
  await expect(timeline).toHaveCount(1);
  await expect(timeline.first()).toContainText('Succeeded');
  await expect(timeline.first()).toContainText(sha.slice(0, 7));
  await expect(timeline.first()).toContainText(id);

  // The same id with another status and commit: 409, explained, nothing changed.
  await page.getByRole('button', { name: 'Record deployment' }).click();
  await expect(dialog).toBeVisible();
  await idField.fill(id);
  await dialog.getByLabel('Started at (UTC)').fill(input(started));
  await dialog.getByLabel('Finished at (UTC)').fill(input(finished));
  await dialog.getByRole('radio', { name: 'Failed' }).check();
  await dialog.getByLabel('Commit sha (optional)').fill(hex(20));
  await dialog.getByRole('button', { name: 'Record deployment' }).click();
  const conflict = dialog.getByRole('alert').filter({ hasText: 'already recorded' });
  await expect(conflict).toContainText(
    'This deployment id was already recorded with different values',
  );
  await expect(conflict).toContainText(
    'Either send the original values again, or choose a new id if this is a new deployment.',
  );
  // The service's own words, shown as they came.
  await expect(conflict).toContainText('this deployment_id already holds a different deployment');
  await expect(conflict).toContainText('Retry the original request unchanged');
  await expect(conflict).toContainText('HTTP 409 · idempotency_conflict');
  // What is recorded under the id.
  await expect(conflict).toContainText(`Recorded: succeeded`);
  await expect(conflict).toContainText(`commit ${sha}`);
  await expect(dialog).toBeVisible();
  await expect(timeline).toHaveCount(1);
  await expect(timeline.first()).toContainText('Succeeded');

  // Re-sending the original values is a success: 200, as the first recording was.
  await dialog.getByRole('radio', { name: 'Succeeded' }).check();
  await dialog.getByLabel('Commit sha (optional)').fill(sha);
  await dialog.getByRole('button', { name: 'Record deployment' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Deployment recorded' })).toContainText(
    id,
  );
  await expect(timeline).toHaveCount(1);
  expect(puts.every((u) => u.endsWith(`/api/telemetry/deployments/${id}`))).toBe(true);
  expect(puts).toHaveLength(3);
});

test('only owners see "Record deployment"', async ({ signedInPage: ownerPage, demo, browser }) => {
  const project = demo.projects.find((p) => p.name === 'Checkout API');
  if (!project) throw new Error('demo world has no Checkout API project');
  const releasePage = `/releases/${encodeURIComponent('checkout-api@2.14.1')}?project=${project.id}&environment=production&service=checkout-api`;

  await ownerPage.goto(releasePage);
  await expect(
    ownerPage.getByRole('heading', { level: 1, name: 'checkout-api@2.14.1' }),
  ).toBeVisible();
  await expect(ownerPage.getByRole('button', { name: 'Record deployment' })).toBeVisible();

  // A member of the organization (its sign-ins are never revoked by other specs).
  const other = await browser.newContext({ baseURL: E2E_BASE_URL });
  const member = await other.newPage();
  await signInThroughForm(member, 'oncall-bot@lookout.dev', demo.password);
  await expect(member.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await member.goto(releasePage);
  await expect(
    member.getByRole('heading', { level: 1, name: 'checkout-api@2.14.1' }),
  ).toBeVisible();
  await expect(member.getByRole('region', { name: 'Deployments' })).toBeVisible();
  await expect(member.getByRole('button', { name: 'Record deployment' })).toHaveCount(0);
  await other.close();
});

test('release rows and a release page follow the live feed: new releases appear, counts move', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `live-${word()}`;
  const first = `${service}@1.0.0`;
  const second = `${service}@1.1.0`;
  const envelope = (release: string, logs: number) => ({
    release,
    service_name: service,
    environment: 'production',
    logs: Array.from({ length: logs }, (_, i) => ({
      id: randomUUID(),
      occurred_at: ago(1 + i / 10),
      message: `live release log ${service} ${i}`,
    })),
  });
  await ingestEnvelope(request, project.ingest_key, envelope(first, 1));

  await page.goto(`/releases?project=${project.id}&service=${service}`);
  await expect(liveIndicator(page)).toHaveAccessibleName(/^Live feed: Live/, { timeout: 15_000 });
  const rows = dataRowsOf(page, 'Releases');
  await expect(rows).toHaveCount(1);
  const firstRow = rows.filter({ hasText: first });
  await expect(firstRow.locator('[title="1 log"]')).toHaveText('1');

  // Ingested while the page is open, without a reload: a new release and more logs.
  await ingestEnvelope(request, project.ingest_key, envelope(first, 2));
  await ingestEnvelope(request, project.ingest_key, envelope(second, 1));
  await expect(rows).toHaveCount(2);
  await expect(firstRow.locator('[title="3 logs"]')).toHaveText('3');
  await expect(rows.first()).toContainText(second);
  await page.screenshot({ path: 'test-results/release-list-live.png', fullPage: true });

  // The release page's figures move too.
  await rows.filter({ hasText: second }).getByRole('link', { name: second }).click();
  await expect(page.getByRole('heading', { level: 1, name: second })).toBeVisible();
  const logs = page
    .getByRole('region', { name: 'Release summary' })
    .getByText('Logs', { exact: true });
  await expect(logs.locator('xpath=..')).toHaveText(/^Logs\s*1$/);
  await ingestEnvelope(request, project.ingest_key, envelope(second, 4));
  await expect(logs.locator('xpath=..')).toHaveText(/^Logs\s*5$/);
});

test('in a 1,024 px window a release row names a short service whole, beside its environment', async ({
  signedInPage: page,
}) => {
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto('/releases?since=24h');
  const rows = dataRowsOf(page, 'Releases');
  await expect(rows.first()).toBeVisible();
  // A service cut short ("payme…") is one whose text is wider than its box, to the fraction
  // of a pixel an ellipsis needs. Names shorter than half the line (the demo's) must read
  // whole: the project name beside them gives way instead. Longer ones (other tests') may not.
  const services = rows.locator('[title^="Service "]');
  const measured = await services.evaluateAll((spans) =>
    spans.map((s) => {
      const text = document.createRange();
      text.selectNodeContents(s);
      const width = text.getBoundingClientRect().width;
      const line = s.parentElement?.getBoundingClientRect().width ?? 0;
      return {
        name: s.textContent,
        short: width < line / 2,
        cut: width > s.getBoundingClientRect().width + 0.01,
      };
    }),
  );
  const short = measured.filter((m) => m.short);
  expect(short.length).toBeGreaterThan(3);
  expect(short.filter((m) => m.cut).map((m) => m.name)).toEqual([]);
  await expect(rows.locator('[title^="Environment "]').first()).toBeInViewport();
});
