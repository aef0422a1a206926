import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { demoMembers } from './support/demo';
import { expect, signInThroughForm, test } from './support/fixtures';
import { dataRowsOf, ingestIssues, word } from './support/telemetry';

const board = (page: Page) => page.getByRole('table', { name: 'Issues' });
const dataRows = (page: Page) => dataRowsOf(page, 'Issues');
const results = (page: Page) => page.getByRole('region', { name: 'Bulk change results' });
const outcomeOf = (page: Page, title: string) =>
  results(page).getByRole('listitem').filter({ hasText: title });

test('keyboard triage: select three with j/x, resolve with r, see each outcome, undo', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `e2e-kb-${word()}`;
  const titles = ['KbError one', 'KbError two', 'KbError three'].map((t) => `${t} ${word()}`);
  await ingestIssues(
    request,
    project.ingest_key,
    service,
    titles.map((title) => ({ title })),
  );

  await page.goto(`/issues?project=${project.id}&service=${service}`);
  await expect(dataRows(page)).toHaveCount(3);

  // `?` shows the shortcuts.
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.keyboard.press('Escape');

  // Typing in a filter does not triage.
  await page.getByRole('searchbox', { name: 'Release' }).fill('');
  await page.getByRole('searchbox', { name: 'Release' }).press('x');
  await expect(page.getByRole('toolbar', { name: 'Bulk actions' })).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Release' }).fill('');
  // Under load the typed `x` may have been committed as a filter before it was cleared: wait
  // until the list is the unfiltered one again before triaging it.
  await expect(page).not.toHaveURL(/[?&]release=/);
  await expect(dataRows(page)).toHaveCount(3);
  await page.getByRole('heading', { name: 'Issues' }).click();

  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('j');
    await page.keyboard.press('x');
  }
  await expect(page.getByRole('toolbar', { name: 'Bulk actions' })).toContainText('3 selected');
  await page.keyboard.press('r');

  await expect(results(page).getByRole('status')).toHaveText('3 updated');
  for (const title of titles) await expect(outcomeOf(page, title)).toContainText('Updated');
  // Resolved issues leave the unresolved board.
  await expect(dataRows(page)).toHaveCount(0);

  await results(page).getByRole('button', { name: 'Undo' }).click();
  await expect(results(page).getByRole('heading')).toHaveText('Undo: Resolve');
  await expect(results(page).getByRole('status')).toHaveText('3 updated');
  await expect(dataRows(page)).toHaveCount(3);
});

test('an issue assigned to a team shows under "my teams" for a member of that team', async ({
  signedInPage: page,
  demo,
  request,
  browser,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `e2e-team-${word()}`;
  const title = `TeamError ${word()}`;
  await ingestIssues(request, project.ingest_key, service, [{ title }]);

  await page.goto(`/issues?project=${project.id}&service=${service}`);
  await expect(dataRows(page)).toHaveCount(1);
  await page.getByRole('checkbox', { name: `Select ${title}` }).check();
  await page.getByRole('button', { name: /^Assign/ }).click();
  await page.getByRole('menuitem', { name: /Team Platform/ }).click();
  await expect(outcomeOf(page, title)).toContainText('Updated');
  await expect(dataRows(page).first()).toContainText('platform');

  // Chen is in the Platform team: the issue is under "my teams" for them.
  const context = await browser.newContext();
  const chen = await context.newPage();
  await signInThroughForm(chen, demoMembers.member, demo.password);
  await expect(chen.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await chen.goto(`/issues?project=${project.id}&service=${service}`);
  await chen.getByRole('combobox', { name: 'Assignee' }).selectOption('my_teams');
  await expect(chen).toHaveURL(/assignee=my_teams/);
  await expect(board(chen).getByRole('link', { name: title })).toBeVisible();
  await context.close();
});

test('a bulk change with one id that no longer exists reports not_found for it alone', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `e2e-gone-${word()}`;
  const titles = [`GoneA ${word()}`, `GoneB ${word()}`];
  await ingestIssues(
    request,
    project.ingest_key,
    service,
    titles.map((title) => ({ title })),
  );
  const missing = randomUUID();
  // The request leaves with one more id, as if an issue were deleted after the board loaded.
  await page.route('**/api/telemetry/issues/bulk', async (route) => {
    const body = route.request().postDataJSON() as { issue_ids: string[] };
    await route.continue({
      postData: JSON.stringify({ ...body, issue_ids: [...body.issue_ids, missing] }),
    });
  });

  await page.goto(`/issues?project=${project.id}&service=${service}`);
  await expect(dataRows(page)).toHaveCount(2);
  for (const title of titles) await page.getByRole('checkbox', { name: `Select ${title}` }).check();
  await page.getByRole('button', { name: /^Archive/ }).click();

  await expect(results(page).getByRole('status')).toHaveText('2 updated, 1 not found');
  for (const title of titles) await expect(outcomeOf(page, title)).toContainText('Updated');
  await expect(outcomeOf(page, missing)).toContainText('Not found');
});

test('an issue title and stack with markup show as text and nothing runs', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `e2e-xss-${word()}`;
  const title = `<img src=x onerror="window.__pwned=1"><b>Bold ${word()}</b>`;
  await ingestIssues(request, project.ingest_key, service, [
    {
      title,
      stack_trace: `Error: <script>window.__pwned=2</script>\n    at <svg onload="window.__pwned=3">(src/app/x.ts:1:1)`,
    },
  ]);
  await page.goto(`/issues?project=${project.id}&service=${service}`);
  await expect(board(page).getByRole('link', { name: title })).toBeVisible();
  await expect(board(page).locator('img, b, script, svg[onload]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('a live issue ingested while the board is open appears with a highlight', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `e2e-live-${word()}`;
  await page.goto(`/issues?project=${project.id}&service=${service}`);
  await expect(page.getByRole('button', { name: /^Live feed/ })).toHaveAccessibleName(
    /^Live feed: Live/,
    { timeout: 15_000 },
  );
  await expect(page.getByRole('heading', { name: 'No issues match these filters' })).toBeVisible();

  const title = `LiveError ${word()}`;
  await ingestIssues(request, project.ingest_key, service, [{ title }]);
  const row = dataRows(page).filter({ hasText: title });
  await expect(row).toBeVisible();
  await expect(row).toContainText('New');
  await expect(row).toHaveAttribute('data-fresh', 'true');
});

test('each row shows a sparkline of occurrences named by its total', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `e2e-spark-${word()}`;
  const title = `SparkError ${word()}`;
  const fingerprint = `e2e-${word()}`;
  await ingestIssues(request, project.ingest_key, service, [
    { title, fingerprint },
    { title, fingerprint },
    { title, fingerprint },
  ]);

  await page.goto(`/issues?project=${project.id}&service=${service}`);
  await expect(dataRows(page)).toHaveCount(1);
  const row = dataRows(page).filter({ hasText: title });
  // Three occurrences of one issue, all now: the row's sparkline says so.
  await expect(
    row.getByRole('img', { name: /^Occurrences, last 24 hours: 3 total, peak \d per / }),
  ).toBeVisible();
});

test('in a 1,024 px window the board fits: priority and assignee in view, no sideways scroll', async ({
  signedInPage: page,
  demo,
}) => {
  const project = demo.projects.find((p) => p.name === 'Checkout API');
  if (!project) throw new Error('demo world has no Checkout API project');
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto(`/issues?project=${project.id}&since=14d`);
  await expect(dataRows(page).first()).toBeVisible();

  // The release (on the issue's own page) gives up its column; the rest stay in view.
  await expect(board(page).getByRole('columnheader', { name: 'Release' })).toBeHidden();
  for (const name of ['Issue', 'Events', 'Trend', 'Seen', 'Priority', 'Assignee']) {
    await expect(board(page).getByRole('columnheader', { name, exact: true })).toBeInViewport({
      ratio: 1,
    });
  }
  // The table's scrolling frame is its parent: it scrolls down, never sideways.
  expect(
    await board(page).evaluate((el) => {
      const frame = el.parentElement;
      return frame !== null && frame.scrollWidth <= frame.clientWidth;
    }),
  ).toBe(true);

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(board(page).getByRole('columnheader', { name: 'Release' })).toBeVisible();
});
