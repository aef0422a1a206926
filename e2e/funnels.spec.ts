import type { Page } from '@playwright/test';
import { formatFraction } from '../src/lib/format-share';
import { expect, test } from './support/fixtures';

const CHECKOUT = [
  { kind: 'page_view', name: 'Home', label: 'Page view' },
  { kind: 'page_view', name: 'Product', label: 'Page view' },
  { kind: 'interaction', name: 'Add to cart', label: 'Interaction' },
  { kind: 'page_view', name: 'Checkout', label: 'Page view' },
  { kind: 'interaction', name: 'Place order', label: 'Interaction' },
] as const;

type FunnelAnswer = {
  summary: { entered_units: number; completed_units: number; overall_conversion_rate: number };
  coverage: { selected_step_events: number; usable_selected_step_events: number };
  steps: { units: number; conversion_from_first: number }[];
};

const isFunnelRead = (url: string, method: string) =>
  method === 'POST' && new URL(url).pathname === '/api/telemetry/analytics/funnel';

/** Adds a step through the picker: the actions seen in range, filtered by typing. */
async function addStep(page: Page, name: string, kindLabel: string) {
  await page.getByRole('button', { name: 'Add step' }).click();
  const picker = page.getByRole('dialog', { name: 'Add a step' });
  await picker.getByPlaceholder('Search actions or type an exact name').fill(name);
  await picker.getByRole('option', { name: new RegExp(`^${name} ${kindLabel}`) }).click();
  await expect(picker).toBeHidden();
}

test('funnels: the demo checkout funnel built in the form reads the numbers the API returns, and a comparison of releases', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects.find((p) => p.name === 'Storefront Web');
  if (!project) throw new Error('demo world has no Storefront Web project');
  // A fixed range in the past: the live trickle cannot move the numbers between two reads.
  const until = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000).toISOString();
  const since = new Date(Date.parse(until) - 7 * 86_400_000).toISOString();
  await page.goto(
    `/analytics/funnels?project=${project.id}&since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`,
  );
  await expect(page.getByRole('heading', { name: 'Funnels', level: 1 })).toBeVisible();
  await expect(page.getByText('Add at least two steps above to read the funnel.')).toBeVisible();

  for (const step of CHECKOUT) await addStep(page, step.name, step.label);
  await page.getByLabel('Conversion window').selectOption({ label: '1 hour' });

  const steps = page.getByRole('list', { name: 'Funnel steps' }).getByRole('listitem');
  await expect(steps).toHaveCount(5);
  await expect(steps.nth(2)).toContainText('Add to cart');
  // The definition lives in the URL: a reload keeps it.
  await expect(page).toHaveURL(/window=3600/);
  await page.reload();
  await expect(steps).toHaveCount(5);

  const res = await request.post('/api/telemetry/analytics/funnel', {
    headers: { Authorization: `Bearer ${demo.account_token}` },
    data: {
      project_id: project.id,
      since,
      until,
      analysis_unit: 'session',
      conversion_window_seconds: 3600,
      steps: CHECKOUT.map((s) => ({ kind: s.kind, event_name: s.name })),
    },
  });
  expect(res.status()).toBe(200);
  const api = (await res.json()) as FunnelAnswer;
  expect(api.summary.entered_units).toBeGreaterThan(10);

  // Coverage comes first, then the numbers, each the service's own.
  await expect(page.getByRole('status').filter({ hasText: 'could be attributed' })).toContainText(
    `(${api.coverage.usable_selected_step_events.toLocaleString('en-US')} of ${api.coverage.selected_step_events.toLocaleString('en-US')})`,
  );
  const table = page.getByRole('table', { name: 'Steps, as the service counted them' });
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(6);
  for (const [i, s] of api.steps.entries()) {
    const cells = rows.nth(i + 1).getByRole('cell');
    await expect(cells.nth(2)).toHaveText(s.units.toLocaleString('en-US'));
    await expect(cells.nth(3)).toHaveText(formatFraction(s.conversion_from_first));
  }
  await expect(page.getByText(/completed all 5 steps/)).toContainText(
    formatFraction(api.summary.overall_conversion_rate),
  );
  await expect(page.getByRole('img', { name: /^Funnel chart/ })).toBeVisible();

  // Reordering is a new definition: step 2 moves up.
  await page.getByRole('button', { name: 'Move step 2 up' }).click();
  await expect(steps.first()).toContainText('Product');
  await page.getByRole('button', { name: 'Move step 1 down' }).click();
  await expect(steps.first()).toContainText('Home');

  // The same funnel for two releases, side by side.
  await page.getByRole('radio', { name: 'Releases' }).click();
  await page.getByLabel('First release').fill('web@1.8.1');
  await page.getByLabel('Second release').fill('web@1.8.2');
  await page.getByLabel('Second release').press('Enter');
  await expect(page.getByRole('group', { name: 'release web@1.8.1' })).toBeVisible();
  const side = await request.post('/api/telemetry/analytics/funnel', {
    headers: { Authorization: `Bearer ${demo.account_token}` },
    data: {
      project_id: project.id,
      since,
      until,
      release: 'web@1.8.2',
      analysis_unit: 'session',
      conversion_window_seconds: 3600,
      steps: CHECKOUT.map((s) => ({ kind: s.kind, event_name: s.name })),
    },
  });
  const b = (await side.json()) as FunnelAnswer;
  const comparison = page.getByRole('table', { name: /web@1\.8\.1 against web@1\.8\.2/ });
  await expect(comparison.getByRole('row').nth(1).getByRole('cell').nth(2)).toHaveText(
    `${(b.steps[0]?.units ?? 0).toLocaleString('en-US')} (${formatFraction(b.steps[0]?.conversion_from_first ?? 0)})`,
  );
  await expect(page.getByRole('group', { name: 'release web@1.8.2' })).toContainText(
    `${b.summary.entered_units.toLocaleString('en-US')} sessions entered`,
  );
});

test('funnels: the 8-step and 31-day limits are explained in the form and nothing is sent', async ({
  signedInPage: page,
  demo,
}) => {
  const project = demo.projects.find((p) => p.name === 'Storefront Web');
  if (!project) throw new Error('demo world has no Storefront Web project');
  const funnelReads: string[] = [];
  page.on('request', (r) => {
    if (isFunnelRead(r.url(), r.method())) funnelReads.push(r.url());
  });
  const eight = Array.from({ length: 8 }, (_, i) => ({ kind: 'page_view', name: `Step ${i + 1}` }));
  const at = (steps: unknown[], range: string) =>
    `/analytics/funnels?project=${project.id}&${range}&steps=${encodeURIComponent(JSON.stringify(steps))}`;

  // Eight steps are read; the form says no ninth can be added.
  await page.goto(at(eight, 'since=7d'));
  await expect(page.getByRole('button', { name: 'Add step' })).toBeDisabled();
  await expect(page.getByText('8 of 8 steps: a funnel has at most 8 steps.')).toBeVisible();
  await expect.poll(() => funnelReads.length).toBe(1);

  // A link with nine steps is explained, with the extra step marked, and not sent.
  funnelReads.length = 0;
  await page.goto(at([...eight, { kind: 'interaction', name: 'Step 9' }], 'since=7d'));
  await expect(page.getByRole('alert')).toContainText(
    'This funnel has 9 steps; a funnel has at most 8. Remove 1 step to read it.',
  );
  await expect(page.getByText('over the 8-step limit')).toBeVisible();
  await expect(page.getByText('Not read: the definition above has a problem')).toBeVisible();
  await page.getByRole('button', { name: 'Remove step 9' }).click();
  await expect(page.getByRole('alert')).toBeHidden();
  await expect.poll(() => funnelReads.length).toBe(1);

  // A range over 31 days is explained beside the range and not sent.
  funnelReads.length = 0;
  await page.goto(
    at(eight.slice(0, 2), 'since=2026-01-01T00:00:00.000Z&until=2026-02-10T00:00:00.000Z'),
  );
  await expect(page.getByRole('alert')).toContainText(
    'This range covers 40 days; funnels read at most 31 days. Choose a shorter time range in the header.',
  );
  await expect(page.getByText('40 days: over the 31-day limit')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add step' })).toBeDisabled();
  await page.waitForTimeout(300);
  expect(funnelReads).toEqual([]);
});
