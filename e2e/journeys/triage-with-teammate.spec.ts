import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { leavePage, returnToPage } from '../support/page-visibility';
import { dataRowsOf, ingestIssues, word } from '../support/telemetry';

/**
 * An engineer triaging beside a teammate: Ada (`signedInPage`, owner) and Bruno
 * (`teammatePage`, admin) work on the same board in two browser contexts. Each test sends
 * issues of a service of its own, so tests running beside it never touch them.
 */

const rowOf = (page: Page, title: string) => dataRowsOf(page, 'Issues').filter({ hasText: title });
const assigneeCell = (page: Page, title: string) => rowOf(page, title).getByRole('cell').last();
const results = (page: Page) => page.getByRole('region', { name: 'Bulk change results' });
const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const inbox = (page: Page) => page.getByRole('dialog', { name: 'Notifications' });
const inboxEntry = (page: Page, title: string) =>
  inbox(page).getByRole('listitem').filter({ hasText: title });
const newTag = (page: Page, title: string) =>
  inboxEntry(page, title).getByText('New', { exact: true });

/** Whether the service counts Ada's notification about an issue as read (`read` flag). */
async function readOnService(
  request: APIRequestContext,
  token: string,
  title: string,
): Promise<boolean | undefined> {
  const res = await request.get('/api/telemetry/issues/notifications', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { notifications: { issue_title: string; read: boolean }[] };
  return body.notifications.find((n) => n.issue_title === title)?.read;
}

async function unreadOf(page: Page): Promise<number> {
  const label = (await bell(page).getAttribute('aria-label')) ?? '';
  return Number(/(\d+) unread/.exec(label)?.[1] ?? 0);
}

/** Selects issues on the board and applies one entry of a bulk menu; waits for its outcome. */
async function bulkChange(
  page: Page,
  titles: string[],
  menu: 'Priority' | 'Assign',
  item: string | RegExp,
  label: string,
) {
  for (const title of titles) {
    await page.getByRole('checkbox', { name: `Select ${title}` }).check();
  }
  const bar = page.getByRole('toolbar', { name: 'Bulk actions' });
  await bar.getByRole('button', { name: new RegExp(`^${menu}`) }).click();
  await page.getByRole('menuitem', { name: item }).click();
  await expect(results(page).getByRole('heading')).toHaveText(label);
  await expect(results(page).getByRole('status')).toHaveText(`${titles.length} updated`);
  // The selection is cleared once the board is read again: then the next change can start.
  await expect(bar).toHaveCount(0);
}

test('a teammate assigns an issue to Ada and sets it Low: her bell, inbox, board and detail follow', async ({
  signedInPage: ada,
  teammatePage: bruno,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `e2e-mate-${word()}`;
  const first = `MateFirst ${word()}`;
  const second = `MateSecond ${word()}`;
  await ingestIssues(request, project.ingest_key, service, [{ title: first }, { title: second }]);
  const boardUrl = `/issues?project=${project.id}&service=${service}`;

  await ada.goto(boardUrl);
  await expect(rowOf(ada, first)).toContainText('High');
  await expect(assigneeCell(ada, first)).toHaveText('—');
  // The board says when it was read.
  await expect(ada.getByText(/^Read \d\d:\d\d:\d\d UTC/)).toBeVisible();
  const unreadBefore = await unreadOf(ada);

  // Ada turns to another window while Bruno triages on his board.
  await leavePage(ada);
  await bruno.goto(boardUrl);
  await bulkChange(bruno, [first], 'Priority', 'Low', 'Set priority low');
  await bulkChange(bruno, [first], 'Assign', /Ada Okafor/, 'Assign to Ada Okafor');

  // She comes back: without a reload, her bell and her board show what Bruno did.
  await returnToPage(ada);
  await expect.poll(() => unreadOf(ada)).toBeGreaterThan(unreadBefore);
  await expect(rowOf(ada, first)).toContainText('Lowmanual');
  await expect(assigneeCell(ada, first)).toContainText('Ada Okafor');

  // Her inbox has Bruno's assignment, marked New; what she was shown is then read.
  await bell(ada).click();
  await expect(inboxEntry(ada, first)).toContainText('Bruno Castillo assigned it to you');
  await expect(newTag(ada, first)).toBeVisible();
  await ada.keyboard.press('Escape');
  await expect.poll(() => readOnService(request, demo.account_token, first)).toBe(true);

  // Bruno assigns the second while she is on her board; she opens the inbox at once: the
  // inbox is read on opening, the new entry is New, the one she has seen is not.
  await bulkChange(bruno, [second], 'Assign', /Ada Okafor/, 'Assign to Ada Okafor');
  await bell(ada).click();
  await expect(newTag(ada, second)).toBeVisible();
  await expect(inboxEntry(ada, first)).toBeVisible();
  await expect(newTag(ada, first)).toHaveCount(0);
  await ada.keyboard.press('Escape');
  await expect.poll(() => readOnService(request, demo.account_token, second)).toBe(true);

  // Ada opens the first issue; Bruno has it open too, then turns away.
  await rowOf(ada, first).getByRole('link', { name: first }).click();
  await expect(ada.getByLabel('Priority')).toHaveValue('low');
  await expect(ada.getByRole('button', { name: 'Assignee Ada Okafor' })).toBeVisible();
  await expect(ada.getByText(/^Read \d\d:\d\d:\d\d UTC/)).toBeVisible();
  await bruno.goto(new URL(ada.url()).pathname);
  await expect(bruno.getByRole('radio', { name: 'Unresolved' })).toBeChecked();
  await leavePage(bruno);

  // Ada resolves it; when Bruno comes back, his screen agrees.
  const saved = ada.waitForResponse(
    (r) => r.request().method() === 'PATCH' && r.url().includes('/api/telemetry/issues/'),
  );
  // A click, not `check()`: the controlled radio turns on once the change is under way.
  await ada.getByRole('radio', { name: 'Resolved', exact: true }).click();
  expect((await saved).status()).toBe(200);
  await expect(ada.getByRole('radio', { name: 'Resolved', exact: true })).toBeChecked();
  await returnToPage(bruno);
  await expect(bruno.getByRole('radio', { name: 'Resolved', exact: true })).toBeChecked();
});

test('a bulk change and its undo put back exactly what was there, and say what they cannot', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `e2e-undo-${word()}`;
  const one = `UndoOne ${word()}`;
  const two = `UndoTwo ${word()}`;
  await ingestIssues(request, project.ingest_key, service, [{ title: one }, { title: two }]);
  await page.goto(`/issues?project=${project.id}&service=${service}`);
  await expect(dataRowsOf(page, 'Issues')).toHaveCount(2);

  // Assignees: nobody on one, a team on two; a bulk change to Bruno, then undo.
  await bulkChange(page, [two], 'Assign', /Team Checkout/, 'Assign to team checkout');
  await expect(assigneeCell(page, two)).toHaveText('#checkout');
  await bulkChange(page, [one, two], 'Assign', /Bruno Castillo/, 'Assign to Bruno Castillo');
  await expect(assigneeCell(page, one)).toContainText('Bruno Castillo');
  await results(page).getByRole('button', { name: 'Undo' }).click();
  await expect(results(page).getByRole('heading')).toHaveText('Undo: Assign to Bruno Castillo');
  await expect(results(page).getByRole('status')).toHaveText('2 updated');
  await expect(assigneeCell(page, one)).toHaveText('—');
  await expect(assigneeCell(page, two)).toHaveText('#checkout');

  // Priority: both derived High; set Low, then undo.
  await expect(rowOf(page, one)).not.toContainText('manual');
  await bulkChange(page, [one, two], 'Priority', 'Low', 'Set priority low');
  await expect(rowOf(page, one)).toContainText('Lowmanual');
  // Before undoing, the console says what the undo cannot do.
  await expect(results(page).getByRole('note')).toHaveText(
    'Undo sets 2 issues back to High as a manual priority: it was derived from severity, and the service cannot return a priority to derived.',
  );
  await results(page).getByRole('button', { name: 'Undo' }).click();
  await expect(results(page).getByRole('heading')).toHaveText('Undo: Set priority low');
  await expect(results(page).getByRole('status')).toHaveText('2 updated');
  await expect(results(page).getByRole('note')).toHaveText(
    'Priority is back to High on 2 issues, but as a manual priority: it was derived from severity before, and the service cannot return a priority to derived.',
  );
  await expect(results(page).getByRole('listitem').filter({ hasText: one })).toContainText(
    'High · manual (was derived)',
  );
  await expect(rowOf(page, one)).toContainText('Highmanual');
  await expect(rowOf(page, two)).toContainText('Highmanual');
});
