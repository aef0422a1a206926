import { randomBytes, randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { recordDeployment, word } from './support/telemetry';

/** Sends metric samples through the SDK route (the only one that takes metrics). */
async function ingestMetrics(
  request: APIRequestContext,
  ingestKey: string,
  context: { release: string; environment: string; service_name: string },
  samples: { name: string; value: number; at: number }[],
) {
  const res = await request.post('/v1/events', {
    headers: { Authorization: `Bearer ${ingestKey}` },
    data: {
      sdk: { name: 'lookout.e2e', version: '1.0.0' },
      context,
      events: samples.map((s) => ({
        id: randomUUID(),
        type: 'metric',
        occurred_at: new Date(s.at).toISOString(),
        name: s.name,
        kind: 'gauge',
        value: s.value,
        unit: 'ms',
      })),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test('metrics: a metric split by release, a deployment marker that opens its release, volume charts and the bucket limit', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const tag = word();
  const metric = `e2e.${tag}.latency`;
  const service = `e2e-svc-${tag}`;
  const oldRelease = `e2e-${tag}@1.0.0`;
  const newRelease = `e2e-${tag}@1.0.1`;
  const now = Date.now();
  const minutes = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => now - (from + i) * 60_000);
  await ingestMetrics(
    request,
    project.ingest_key,
    { release: oldRelease, environment: 'production', service_name: service },
    minutes(30, 50).map((at, i) => ({ name: metric, value: 100 + i, at })),
  );
  await ingestMetrics(
    request,
    project.ingest_key,
    { release: newRelease, environment: 'production', service_name: service },
    minutes(5, 25).map((at, i) => ({ name: metric, value: 60 + i, at })),
  );

  const deploymentId = `e2e-${tag}-deploy`;
  await recordDeployment(request, demo.account_token, deploymentId, {
    project_id: project.id,
    release: newRelease,
    environment: 'production',
    service_name: service,
    started_at: new Date(now - 29 * 60_000).toISOString(),
    finished_at: new Date(now - 27 * 60_000).toISOString(),
    commit_sha: randomBytes(20).toString('hex'),
  });

  const seriesRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/telemetry/metrics/series')) seriesRequests.push(r.url());
  });

  await page.goto(`/metrics?project=${project.id}&since=1h`);
  await expect(page.getByRole('heading', { name: 'Metrics', level: 1 })).toBeVisible();

  // Volume: events and bytes are two charts, never one axis.
  await expect(page.getByRole('img', { name: /^Events per 1-minute bucket/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Bytes per 1-minute bucket/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /Metric samples/ })).toHaveAttribute(
    'data-state',
    'on',
  );

  // The explorer: pick the metric, split it by release.
  await page.getByLabel('Metric', { exact: true }).selectOption(metric);
  await page.getByLabel('Group by', { exact: true }).selectOption('release');
  const series = page.getByRole('list', { name: 'Series' });
  await expect(series.getByRole('listitem')).toHaveCount(2);
  await expect(series).toContainText(oldRelease);
  await expect(series).toContainText(newRelease);
  await expect(
    page.getByText('Average of the samples in each 1-minute bucket (gauge)'),
  ).toBeVisible();
  await expect(page).toHaveURL(/group_by=release/);

  // The deployment is listed under the chart; opening it goes to its release page.
  const deployments = page.getByRole('list', { name: 'Deployments on the metric chart' });
  const link = deployments.getByRole('link', { name: new RegExp(`${service} ${newRelease}`) });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(
    (url) =>
      decodeURIComponent(url.pathname) === `/releases/${newRelease}` &&
      url.searchParams.get('deployment') === deploymentId &&
      url.searchParams.get('project') === project.id &&
      url.searchParams.get('service') === service &&
      url.searchParams.get('environment') === 'production',
  );

  // An interval giving more than 500 buckets is explained, and nothing is sent for it.
  await page.goto(`/metrics?project=${project.id}&since=24h&metric=${metric}`);
  await expect(page.getByRole('list', { name: 'Series' })).toBeVisible();
  const before = seriesRequests.length;
  await page.getByLabel('Interval', { exact: true }).selectOption('1m');
  const status = page.getByRole('status').filter({ hasText: 'Too many buckets for this interval' });
  await expect(status).toBeVisible();
  await expect(status).toContainText(/1,44[01]/);
  await expect(status).toContainText('at most 500');
  await expect(page.getByRole('list', { name: 'Series' })).toHaveCount(0);
  expect(seriesRequests.slice(before).filter((u) => u.includes('interval=1m'))).toEqual([]);
});

test('a deployment recorded through the API shows as a marker on the volume chart', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const tag = word();
  const service = `vol-svc-${tag}`;
  const release = `vol-${tag}@2.0.0`;
  const deploymentId = `vol-${tag}-deploy`;
  const now = Date.now();
  await recordDeployment(request, demo.account_token, deploymentId, {
    project_id: project.id,
    release,
    environment: 'staging',
    service_name: service,
    status: 'failed',
    started_at: new Date(now - 3 * 60_000).toISOString(),
    finished_at: new Date(now - 60_000).toISOString(),
  });

  await page.goto(`/metrics?project=${project.id}&since=1h`);
  await expect(page.getByRole('heading', { name: 'Metrics', level: 1 })).toBeVisible();

  // Listed below the volume charts, with its status in words.
  const list = page.getByRole('list', { name: 'Deployments on the volume charts' });
  const link = list.getByRole('link', {
    name: new RegExp(`^${service} ${release} → staging, failed`),
  });
  await expect(link).toBeVisible();
  await expect(link).toContainText('failed');

  // Drawn on the events chart: the newest marker is this deployment (hovering names it).
  const chart = page.getByRole('img', { name: /^Events per 1-minute bucket/ });
  const markers = chart.locator('g[class^="_marker_"]');
  await expect(markers.last()).toBeVisible();
  await markers.last().hover();
  await expect(chart).toContainText(release);
  await expect(chart).toContainText(service);
  await expect(chart).toContainText('Failed');
});

test('the metric picker lists a rare metric under thousands of newer samples', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[1];
  if (!project) throw new Error('demo world has fewer than two projects');
  const tag = word();
  const rare = `e2e.${tag}.rare_stall`;
  const common = `e2e.${tag}.busy`;
  const context = { release: `e2e-${tag}@1.0.0`, environment: 'production', service_name: 'e2e' };
  const now = Date.now();
  // The rare sample is the oldest in range; 6,000 newer samples of another name follow it.
  await ingestMetrics(request, project.ingest_key, context, [
    { name: rare, value: 1, at: now - 50 * 60_000 },
  ]);
  for (let batch = 0; batch < 2; batch++) {
    await ingestMetrics(
      request,
      project.ingest_key,
      context,
      Array.from({ length: 3000 }, (_, i) => ({
        name: common,
        value: i,
        at: now - 20 * 60_000 + batch * 3000 + i,
      })),
    );
  }

  await page.goto(`/metrics?project=${project.id}&since=1h`);
  const picker = page.getByLabel('Metric', { exact: true });
  await expect(picker.locator('option', { hasText: rare })).toHaveCount(1);
  await expect(picker.locator('option', { hasText: common })).toHaveCount(1);
  await picker.selectOption(rare);
  await expect(page).toHaveURL(new RegExp(`metric=${rare.replaceAll('.', '\\.')}`));
});

test('with several projects in scope the explorer opens on the one with the most metrics; a cleared pick stays clear', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const quiet = demo.projects[0];
  const busy = demo.projects[2];
  if (!quiet || !busy) throw new Error('demo world has fewer than three projects');
  const tag = word();
  // More names in the last hour than any other test gives a project.
  const names = Array.from({ length: 15 }, (_, i) => `e2e.${tag}.m${i}`);
  const context = { release: `e2e-${tag}@1.0.0`, environment: 'production', service_name: 'e2e' };
  await ingestMetrics(
    request,
    busy.ingest_key,
    context,
    names.map((name, i) => ({ name, value: i, at: Date.now() - 60_000 })),
  );

  // A link naming a metric but no project: the metric stays when the project is opened.
  const linked = names[3] ?? '';
  await page.goto(`/metrics?projects=${quiet.id},${busy.id}&since=1h&metric=${linked}`);
  const projectField = page.getByLabel('Project', { exact: true });
  await expect(projectField).toHaveValue(busy.id);
  await expect(page.getByLabel('Metric', { exact: true })).toHaveValue(linked);
  await expect(
    page.getByText(`Opened on ${busy.name}: the project with the most metric names in this range`),
  ).toBeVisible();
  const picker = page.getByLabel('Metric', { exact: true });
  await expect(picker.locator('option', { hasText: names[0] })).toHaveCount(1);
  await expect(page).toHaveURL(new RegExp(`metric_project=${busy.id}`));

  // Clearing the pick is a choice the page keeps: it does not open a project again.
  await projectField.selectOption('');
  await expect(page.getByText('Pick a project for the metric explorer')).toBeVisible();
  await expect(projectField).toHaveValue('');
  await expect(picker).toHaveCount(0);
});

test('when the reads that choose a project fail, the explorer says so and retries, never "no metrics"', async ({
  signedInPage: page,
}) => {
  const next = 'Wait a moment, then read again.';
  await page.route('**/api/telemetry/metrics/names?**', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'the store is busy', code: 'unavailable', next }),
    }),
  );
  await page.goto('/metrics?since=24h');
  const explorer = page.getByRole('region', { name: 'Metric explorer' });
  await expect(explorer.getByRole('alert')).toContainText(next);
  await expect(explorer.getByText(/has a metric sample in this range/)).toHaveCount(0);

  await page.unroute('**/api/telemetry/metrics/names?**');
  await explorer.getByRole('button', { name: 'Try again' }).click();
  await expect(
    explorer.getByText(/^Opened on .+: the project with the most metric names/),
  ).toBeVisible();
});
