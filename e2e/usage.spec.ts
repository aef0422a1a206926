import { randomUUID } from 'node:crypto';
import { startOwnService } from './support/own-service';
import { expect, signInThroughForm, test } from './support/fixtures';
import { ingestEnvelope, recordDeployment } from './support/telemetry';

const issue = () => ({
  id: randomUUID(),
  occurred_at: new Date().toISOString(),
  message: 'CartError: quota spec',
  fingerprint: 'usage-spec',
  exception: { type: 'CartError', value: 'quota spec' },
});

test('usage: the quota banner follows ingestion from ok to warning to blocked, and blocked ingestion is refused', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // A pro plan (the demo owner's) of ten issue events: 8 is the 80% warning, 10 is blocked.
  const service = await startOwnService({
    env: { LOOKOUT_PLAN_QUOTAS: JSON.stringify({ pro: { issue_events: 10 } }) },
  });
  try {
    const creds = service.credentials();
    const project = creds.projects[0];
    if (!project) throw new Error('demo world has no project');
    const send = (n: number) =>
      ingestEnvelope(
        request,
        project.ingest_key,
        { issues: Array.from({ length: n }, issue) },
        service.baseUrl,
      );
    await signInThroughForm(page, creds.email, creds.password, service.baseUrl);
    await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
    await page.goto(`${service.baseUrl}/usage`);
    const banner = page.getByRole('status').filter({ hasText: 'Within every allowance' });
    await expect(banner).toBeVisible();
    await expect(page.getByRole('table', { name: 'By project' })).toContainText(project.name);

    await send(8);
    await page.reload();
    const warning = page.getByRole('alert').filter({ hasText: 'Events: 80% of an allowance used' });
    await expect(warning).toContainText('Telemetry is still accepted');
    await expect(warning.getByRole('link', { name: 'See plan and limits' })).toBeVisible();
    await expect(
      page.getByRole('table', { name: 'By stream' }).getByRole('row', { name: /Issues/ }),
    ).toContainText('8');

    await send(2);
    const refused = await request.post(`${service.baseUrl}/api/telemetry/ingest`, {
      headers: { Authorization: `Bearer ${project.ingest_key}` },
      data: { release: 'e2e@1.0.0', environment: 'e2e', service_name: 'e2e', issues: [issue()] },
    });
    expect(refused.status()).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe('usage_limit_exceeded');
    await page.reload();
    const blocked = page.getByRole('alert').filter({ hasText: 'Events allowance used up' });
    await expect(blocked).toContainText(
      'issue events and trace spans is refused (429 usage_limit_exceeded)',
    );

    // Every sign-in revoked: the page goes to sign-in, never to zero usage.
    const all = await request.post(`${service.baseUrl}/api/auth/logout-all`, {
      headers: { Authorization: `Bearer ${creds.account_token}` },
    });
    expect(all.status()).toBe(200);
    await page.reload();
    await expect(page).toHaveURL(/\/sign-in/);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByText('Within every allowance')).toHaveCount(0);
    await expect(page.getByRole('table', { name: 'By project' })).toHaveCount(0);
  } finally {
    await service.dispose();
  }
});

test('usage: history switches interval and split, with the current bucket marked unfinished', async ({
  signedInPage: page,
}) => {
  await page.goto('/usage?interval=daily');
  const history = page.getByRole('region', { name: 'History' });
  await expect(history.getByRole('img', { name: /^Events per day bucket/ })).toBeVisible();
  // Thirty days, the last one still counting.
  const label =
    (await history.getByRole('img', { name: /^Events per/ }).getAttribute('aria-label')) ?? '';
  expect(label.split('; ')).toHaveLength(30);
  expect(label).toMatch(/\(so far\): [\d,]+$/);
  await history.getByRole('radio', { name: 'By stream' }).click();
  await expect(page).toHaveURL(/split=stream/);
  await expect(history.getByRole('list', { name: 'Series' })).toContainText('Traces');
  await history.getByRole('radio', { name: 'Weeks' }).click();
  await expect(history.getByRole('img', { name: /^Events per week bucket/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Dropped by SDKs' })).toBeVisible();
});

test('usage: day and week bars mark the deployments of the account’s projects', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const id = `e2e-usage-${randomUUID().slice(0, 8)}`;
  await recordDeployment(request, demo.account_token, id, {
    project_id: project.id,
    release: `${id}@1.0.0`,
    environment: 'production',
    service_name: id,
    status: 'failed',
  });

  await page.goto('/usage?interval=daily');
  const history = page.getByRole('region', { name: 'History' });
  await history.getByRole('button', { name: /^\d+ deployments?, \d+ failed$/ }).click();
  const list = page.getByRole('list', { name: 'Deployments on the usage charts' });
  await expect(
    list.getByRole('link', { name: new RegExp(`^${id} ${id}@1\\.0\\.0 → production, failed`) }),
  ).toBeVisible();
  await page.keyboard.press('Escape');
  // A month's bar is too coarse for a mark: none is drawn, nothing is read.
  await history.getByRole('radio', { name: 'Months' }).click();
  await expect(history.getByRole('img', { name: /^Events per month bucket/ })).toBeVisible();
  await expect(history.getByRole('button', { name: /deployments?/ })).toHaveCount(0);
});
