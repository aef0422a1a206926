import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import type { DemoCredentials } from './support/demo';
import { expect, test } from './support/fixtures';
import { ingestEnvelope, recordDeployment, word } from './support/telemetry';

const BAD_RELEASE = 'checkout-api@2.14.0';
const MARKUP = '<img src=x onerror=window.__pwned=1>';
const HOUR = 3_600_000;

type Bundle = {
  occurrence: { id: string; environment: string; service_name: string; trace_id: string | null };
  trace: { trace_id: string; started_at: string } | null;
  logs: { message: string }[];
};

const auth = (demo: DemoCredentials) => ({ Authorization: `Bearer ${demo.account_token}` });

function checkoutProject(demo: DemoCredentials) {
  const project = demo.projects.find((p) => p.name === 'Checkout API');
  if (!project) throw new Error('the demo world has no Checkout API project');
  return project;
}

/** The demo world's bad-release issue (the currency TypeError of checkout-api@2.14.0). */
async function badReleaseIssue(request: APIRequestContext, demo: DemoCredentials) {
  const res = await request.get('/api/telemetry/issues', {
    headers: auth(demo),
    params: { project_id: checkoutProject(demo).id, release: BAD_RELEASE, limit: '1000' },
  });
  expect(res.status()).toBe(200);
  const issues = (await res.json()) as { id: string; title: string }[];
  const issue = issues.find((i) => i.title.includes("reading 'currency'"));
  if (!issue) throw new Error(`no currency TypeError in ${BAD_RELEASE}`);
  return issue.id;
}

async function readJson<T>(request: APIRequestContext, demo: DemoCredentials, path: string) {
  const res = await request.get(path, { headers: auth(demo) });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

const panel = (page: Page) => page.getByRole('dialog', { name: 'Investigate issue' });

test('investigate the bad release’s issue: coverage first, its deployment and the logs of its failing trace, markup as text', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const issueId = await badReleaseIssue(request, demo);
  const path = `/api/telemetry/issues/${issueId}/investigation?selection=recommended`;
  const before = await readJson<Bundle>(request, demo, path);
  const traceId = before.occurrence.trace_id;
  if (!traceId || !before.trace) throw new Error('the recommended occurrence has no trace');

  // Application text with markup on the failing trace: it must show as text.
  const marked = `payment retry ${word()} ${MARKUP}`;
  await ingestEnvelope(request, checkoutProject(demo).ingest_key, {
    release: BAD_RELEASE,
    environment: before.occurrence.environment,
    service_name: before.occurrence.service_name,
    logs: [
      {
        id: randomUUID(),
        occurred_at: before.trace.started_at,
        message: marked,
        trace_id: traceId,
      },
    ],
  });
  const bundle = await readJson<Bundle>(request, demo, path);

  await page.goto(`/issues/${issueId}`);
  await page.getByRole('button', { name: 'Investigate' }).click();
  const sheet = panel(page);
  await expect(sheet.getByText('Application data').first()).toBeVisible();
  await expect(sheet.getByTestId('investigation-selection')).toContainText('Recommended');

  // Coverage comes before any evidence.
  const coverage = sheet.getByRole('region', { name: 'Coverage' });
  await expect(coverage).toBeVisible();
  const logsHeading = sheet.getByRole('heading', { name: /^Logs of the trace/ });
  const [coverageBox, logsBox] = [await coverage.boundingBox(), await logsHeading.boundingBox()];
  expect(coverageBox!.y).toBeLessThan(logsBox!.y);

  // The deployment of the bad release and the logs of the failing trace.
  const deployments = sheet.getByRole('list', { name: 'Deployments' });
  await expect(deployments.getByText(BAD_RELEASE, { exact: true }).first()).toBeVisible();
  const logs = sheet.getByRole('list', { name: 'Logs' });
  await expect(logs.getByRole('listitem')).toHaveCount(bundle.logs.length);
  for (const log of bundle.logs.slice(0, 3))
    await expect(logs.getByText(log.message, { exact: true }).first()).toBeVisible();
  await expect(sheet.getByText(traceId, { exact: true })).toBeVisible();

  // Markup is text: shown literally, never run.
  await expect(logs.getByText(marked, { exact: true })).toBeVisible();
  expect(await sheet.locator('img').count()).toBe(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('did the fix work: a recorded fixing deployment gets the verdict the API returns', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const issueId = await badReleaseIssue(request, demo);
  const project = checkoutProject(demo);
  const latest = await readJson<{
    events: { id: string; environment: string; service_name: string }[];
  }>(request, demo, `/api/telemetry/issues/${issueId}/events?pagination=cursor&limit=1`);
  const baseline = latest.events[0];
  if (!baseline) throw new Error('the issue has no occurrence');

  const deploymentId = `fix-${word()}`;
  const release = `checkout-api@2.14.1-${word(6)}`;
  const finished = Date.now() - 3 * HOUR;
  await recordDeployment(request, demo.account_token, deploymentId, {
    project_id: project.id,
    release,
    environment: baseline.environment,
    service_name: baseline.service_name,
    started_at: new Date(finished - 60_000).toISOString(),
    finished_at: new Date(finished).toISOString(),
  });

  await page.goto(`/issues/${issueId}`);
  await page.getByRole('button', { name: 'Did the fix work?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Did the fix work?' });
  await dialog.getByLabel('Deployment (newest first)').selectOption(deploymentId);
  await dialog.getByRole('button', { name: 'Check' }).click();

  const expected = await readJson<{ verdict: string; reasons: { message: string }[] }>(
    request,
    demo,
    `/api/telemetry/issues/${issueId}/correction-verification?baseline_occurrence_id=${baseline.id}&candidate_deployment_id=${deploymentId}`,
  );
  const verdict = dialog.getByRole('region', { name: 'Verdict' });
  await expect(verdict.getByTestId('verdict-code')).toHaveText(expected.verdict);
  for (const reason of expected.reasons)
    await expect(verdict.getByText(reason.message)).toBeVisible();
  await expect(verdict.getByRole('list', { name: 'Deployments' })).toContainText(release);
});

test('send to support: a ticket from the Investigate panel carries the bundle', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const issueId = await badReleaseIssue(request, demo);
  await page.goto(`/issues/${issueId}`);
  await page.getByRole('button', { name: 'Investigate' }).click();
  await panel(page).getByRole('button', { name: 'Send to support…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Contact support' });
  await dialog.getByLabel('Message').fill(`Checkout fails since ${BAD_RELEASE} ${word()}`);
  await dialog.getByRole('button', { name: 'Send to support' }).click();
  await expect(dialog.getByTestId('support-ticket-id')).toHaveText(/^[0-9a-f-]{36}$/);
  await expect(dialog.getByText('Evidence attached')).toBeVisible();
});

test('contact support from the account menu: the ticket id, and a refused ticket says why', async ({
  signedInPage: page,
}) => {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Contact support…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Contact support' });
  await dialog.getByLabel('Subject').fill(`Billing question ${word()}`);
  // No message: the service refuses it, and the dialog shows its answer.
  await dialog.getByRole('button', { name: 'Send to support' }).click();
  await expect(dialog.getByRole('alert')).toContainText('validation_failed');
  await dialog.getByLabel('Message').fill('How do I change the plan?');
  await dialog.getByRole('button', { name: 'Send to support' }).click();
  await expect(dialog.getByTestId('support-ticket-id')).toHaveText(/^[0-9a-f-]{36}$/);
});
