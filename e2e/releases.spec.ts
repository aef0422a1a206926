import { randomBytes, randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { dataRowsOf, ingestEnvelope, word } from './support/telemetry';

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

async function recordDeployment(
  request: APIRequestContext,
  token: string,
  id: string,
  body: Record<string, unknown>,
) {
  const res = await request.put(`/api/telemetry/deployments/${id}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: body,
  });
  expect(res.status(), await res.text()).toBe(201);
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

test('an unknown release says so and links back', async ({ signedInPage: page, demo }) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  await page.goto(`/releases/missing-${word()}?project=${project.id}&service=nope`);
  await expect(page.getByRole('heading', { name: 'No such release in this scope' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to releases' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Releases' })).toBeVisible();
});
