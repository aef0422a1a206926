import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { ingestEnvelope, word } from './support/telemetry';

/**
 * Every view is a link: what a person paged to, selected or switched to is in the URL, so a
 * reload and a fresh tab opened on the copied URL show the same thing.
 */

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** A fresh tab on a URL (same sign-in, nothing of the first tab's memory). */
async function openCopied(page: Page, url: string) {
  const fresh = await page.context().newPage();
  await fresh.goto(url);
  return fresh;
}

test('the occurrence paged to and the stack view survive a reload and a copied URL', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('the demo world has no project');
  const service = `e2e-links-${word()}`;
  // Four occurrences, newest first: releases 4, 3, 2, 1.
  await ingestEnvelope(request, project.ingest_key, {
    service_name: service,
    issues: [1, 2, 3, 4].map((n) => ({
      id: randomUUID(),
      severity: 'error',
      title: `Paging ${service}`,
      message: 'paging failed',
      fingerprint: `e2e-${service}`,
      release: `links@${n}.0.0`,
      occurred_at: ago(50 - n * 10),
      stack_trace: ['Error: paging failed', '    at page (src/links/pager.ts:4:2)'].join('\n'),
    })),
  });
  const res = await request.get('/api/telemetry/issues', {
    headers: { Authorization: `Bearer ${demo.account_token}` },
    params: { service_name: service, since: '1d' },
  });
  const [issue] = (await res.json()) as { id: string }[];
  if (!issue) throw new Error('the issue was not grouped');

  const position = (p: Page) => p.getByText(/^\d+ of 4$/);
  const release = (p: Page) => p.getByTestId('occurrence-release');
  const rawStack = (p: Page) => p.getByText('at page (src/links/pager.ts:4:2)', { exact: false });

  await page.goto(`/issues/${issue.id}`);
  await expect(position(page)).toHaveText('1 of 4');
  await page.getByRole('button', { name: 'Older occurrence' }).click();
  await expect(position(page)).toHaveText('2 of 4');
  await page.getByRole('button', { name: 'Older occurrence' }).click();
  await expect(position(page)).toHaveText('3 of 4');
  await expect(release(page)).toHaveText('links@2.0.0');
  await page.getByRole('button', { name: 'Raw', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Frames', exact: true })).toBeVisible();
  await expect(page).toHaveURL(/stack=raw/);

  await page.reload();
  await expect(position(page)).toHaveText('3 of 4');
  await expect(release(page)).toHaveText('links@2.0.0');
  await expect(page.getByRole('button', { name: 'Frames', exact: true })).toBeVisible();
  await expect(rawStack(page)).toBeVisible();

  // A fresh tab on the copied URL: the same occurrence and view; Newer finds the way back.
  const fresh = await openCopied(page, page.url());
  await expect(position(fresh)).toHaveText('3 of 4');
  await expect(release(fresh)).toHaveText('links@2.0.0');
  await expect(fresh.getByRole('button', { name: 'Frames', exact: true })).toBeVisible();
  await fresh.getByRole('button', { name: 'Newer occurrence' }).click();
  await expect(position(fresh)).toHaveText('2 of 4');
  await expect(release(fresh)).toHaveText('links@3.0.0');
  await fresh.getByRole('button', { name: 'Newer occurrence' }).click();
  await expect(position(fresh)).toHaveText('1 of 4');
  await expect(release(fresh)).toHaveText('links@4.0.0');
  // The latest is the page's default: nothing of it is written in the URL.
  expect(new URL(fresh.url()).searchParams.get('occurrence')).toBeNull();
  // Back walks the occurrences paged through.
  await fresh.goBack();
  await expect(position(fresh)).toHaveText('2 of 4');
  await expect(release(fresh)).toHaveText('links@3.0.0');
});

test('the selected span survives a reload and a copied URL', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const res = await request.get('/api/telemetry/traces', {
    headers: { Authorization: `Bearer ${demo.account_token}` },
    params: { since: '30d', limit: '50' },
  });
  // A trace of several spans (tests beside this one send traces of one span).
  const trace = ((await res.json()) as { trace_id: string; span_count: number }[]).find(
    (t) => t.span_count > 1,
  );
  if (!trace) throw new Error('the demo world has no trace of several spans');

  await page.goto(`/traces/${trace.trace_id}`);
  const tree = (p: Page) => p.getByRole('tree', { name: `Spans of trace ${trace.trace_id}` });
  const rows = tree(page).getByRole('treeitem');
  await expect(rows.nth(1)).toBeVisible();
  await rows.nth(1).click();
  await expect(page).toHaveURL(/span=[0-9a-f]{16}/);
  const spanId = new URL(page.url()).searchParams.get('span') ?? '';
  const details = (p: Page) => p.getByRole('complementary', { name: 'Span details' });
  await expect(details(page)).toContainText(spanId);

  await page.reload();
  await expect(details(page)).toContainText(spanId);
  await expect(tree(page).getByRole('treeitem', { selected: true })).toHaveCount(1);

  const fresh = await openCopied(page, page.url());
  await expect(details(fresh)).toContainText(spanId);
  await expect(tree(fresh).getByRole('treeitem', { selected: true })).toHaveCount(1);
});

test('the sections open on a release survive a reload and a copied URL', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const res = await request.get('/api/telemetry/releases', {
    headers: { Authorization: `Bearer ${demo.account_token}` },
    params: { since: '30d', limit: '20' },
  });
  const [row] = (await res.json()) as {
    release: string;
    environment: string;
    service_name: string;
  }[];
  if (!row) throw new Error('the demo world has no release');

  const search = new URLSearchParams({ environment: row.environment, service: row.service_name });
  await page.goto(`/releases/${encodeURIComponent(row.release)}?${search.toString()}`);
  // A section that opens on demand (the one the row starts with is open already).
  const toggleOf = (p: Page, name: string) =>
    p.getByRole('region', { name }).getByRole('button', { name: new RegExp(`^${name}`) });
  await expect(toggleOf(page, 'Issues')).toBeVisible();
  const name =
    (await toggleOf(page, 'Logs').getAttribute('aria-expanded')) === 'true' ? 'Traces' : 'Logs';
  const sectionToggle = (p: Page) => toggleOf(p, name);
  await expect(sectionToggle(page)).toHaveAttribute('aria-expanded', 'false');
  await sectionToggle(page).click();
  await expect(sectionToggle(page)).toHaveAttribute('aria-expanded', 'true');
  await expect
    .poll(() => new URL(page.url()).searchParams.get('open')?.split(','))
    .toContain(name.toLowerCase());

  await page.reload();
  await expect(sectionToggle(page)).toHaveAttribute('aria-expanded', 'true');
  const fresh = await openCopied(page, page.url());
  await expect(sectionToggle(fresh)).toHaveAttribute('aria-expanded', 'true');
});
