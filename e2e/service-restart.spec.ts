import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { startOwnService } from './support/own-service';
import { expect, signInThroughForm, test } from './support/fixtures';
import { dataRowsOf, ingestEnvelope, liveIndicator, word } from './support/telemetry';

/**
 * The service dies under an open console and comes back. The pages say so in words, with
 * what to do, and never pass old rows off as fresh; the filters stay in the URL and in their
 * inputs; a write sent meanwhile is shown as failed, not as done; and once the service is
 * back the same document (no reload) reads again, shows new data and the live feed is live.
 */

const logItem = (message: string, severity: string, region: string) => ({
  id: randomUUID(),
  occurred_at: new Date().toISOString(),
  severity,
  message,
  attributes: { region },
});

const issueItem = (title: string) => ({
  id: randomUUID(),
  occurred_at: new Date().toISOString(),
  severity: 'error',
  title,
  message: title,
  fingerprint: `restart-${word()}`,
});

async function send(
  request: APIRequestContext,
  baseUrl: string,
  ingestKey: string,
  service: string,
  items: { logs?: object[]; issues?: object[] },
) {
  await ingestEnvelope(request, ingestKey, { service_name: service, ...items }, baseUrl);
}

const logLink = (page: Page, message: string) =>
  page.getByRole('table', { name: 'Logs' }).getByRole('link', { name: message });
/** Back or forward through this document's history until the URL is `url`. */
async function travelTo(page: Page, url: string, direction: 'back' | 'forward') {
  for (let step = 0; step < 5 && page.url() !== url; step++) {
    if (direction === 'back') await page.goBack();
    else await page.goForward();
  }
  await expect(page).toHaveURL(url);
}

const staleNotice = (page: Page) =>
  page.getByRole('status').filter({ hasText: 'The connection to the service was lost' });

test('a dead service is said in words, filters stay, and the pages recover without a reload', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const service = await startOwnService();
  try {
    const creds = service.credentials();
    const project = creds.projects[0];
    if (!project) throw new Error('demo world has no project');
    const tag = word();
    const svcName = `restart-${word()}`;
    const [first, second, later] = [`${tag} one`, `${tag} two`, `${tag} after restart`];
    const [issueBefore, issueAfter] = [`RestartError ${word()}`, `RestartError ${word()}`];
    await send(request, service.baseUrl, project.ingest_key, svcName, {
      logs: [
        logItem(`${first} checkout failed`, 'error', 'eu'),
        logItem(`${second} checkout failed`, 'error', 'eu'),
        logItem(`${tag} elsewhere checkout failed`, 'error', 'us'),
        logItem(`${tag} info checkout`, 'info', 'eu'),
      ],
      issues: [issueItem(issueBefore)],
    });

    await signInThroughForm(page, creds.email, creds.password, service.baseUrl);
    await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
    await expect(liveIndicator(page)).toHaveAccessibleName('Live feed: Live', { timeout: 15_000 });

    // The logs explorer: severity, message search and an attribute filter.
    const regionFilter = JSON.stringify([
      { path: '/region', type: 'string', operator: 'eq', value: 'eu' },
    ]);
    await page.goto(
      `${service.baseUrl}/logs?project=${project.id}&severity=error&q=${tag}&filters=${encodeURIComponent(regionFilter)}`,
    );
    await expect(logLink(page, `${first} checkout failed`)).toBeVisible();
    await expect(dataRowsOf(page, 'Logs')).toHaveCount(2);
    const logsUrl = page.url();
    // Every later step stays in this document: a reload would lose the mark.
    await page.evaluate(() => {
      (window as unknown as { __restartMarker: number }).__restartMarker = 1;
    });
    // The issues board, filtered in its own inputs by service and severity.
    await page.getByRole('link', { name: 'Issues', exact: true }).click();
    // The logs page stays on screen while the board loads, with a Service box of its own:
    // typing before the board is there filters the logs and cancels the navigation.
    await expect(page.getByRole('heading', { name: 'Issues', level: 1 })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Service' }).fill(svcName);
    await page.getByRole('searchbox', { name: 'Service' }).press('Enter');
    await expect(page).toHaveURL(new RegExp(`[?&]service=${svcName}`));
    // The unfiltered board shows the same one row: wait for the filtered read itself, so the
    // service is not killed while it is in flight.
    const filteredRead = page.waitForResponse(
      (r) =>
        r.url().includes('/api/telemetry/issues?') &&
        r.url().includes('severity=error') &&
        r.url().includes(`service_name=${svcName}`),
    );
    await page.getByLabel('Severity').selectOption('error');
    await expect(page).toHaveURL(/[?&]severity=error/);
    await filteredRead;
    await expect(dataRowsOf(page, 'Issues')).toHaveCount(1);
    const issuesUrl = page.url();
    expect(issuesUrl).toContain(`service=${svcName}`);
    await expect(liveIndicator(page)).toHaveAccessibleName('Live feed: Live', { timeout: 15_000 });

    await service.kill();

    // The board: its rows stay, marked as possibly out of date, with what to do.
    await expect(liveIndicator(page)).toHaveAccessibleName(/^Live feed: Reconnecting/, {
      timeout: 15_000,
    });
    await expect(staleNotice(page)).toBeVisible();
    await expect(staleNotice(page)).toContainText('issues read at');
    await expect(staleNotice(page)).toContainText('Check that the Lookout service is running');
    await expect(dataRowsOf(page, 'Issues')).toHaveCount(1);
    expect(page.url()).toBe(issuesUrl);
    await expect(page.getByLabel('Severity')).toHaveValue('error');
    await expect(page.getByRole('searchbox', { name: 'Service' })).toHaveValue(svcName);
    // A status change while the service is down is shown as failed, never as done.
    const resolve = async () => {
      await page.getByRole('checkbox', { name: `Select ${issueBefore}` }).check();
      await page
        .getByRole('toolbar', { name: 'Bulk actions' })
        .getByRole('button', { name: /^Resolve/ })
        .click();
    };
    await resolve();
    const results = page.getByRole('region', { name: 'Bulk change results' });
    await expect(results.getByRole('status')).toHaveText('1 failed', { timeout: 30_000 });
    await expect(results.getByRole('alert')).toContainText('were not changed');
    await expect(results.getByRole('listitem').filter({ hasText: issueBefore })).toContainText(
      'Failed',
    );
    await expect(page.getByRole('checkbox', { name: `Select ${issueBefore}` })).toBeVisible();

    // The logs (back in this document's history): rows marked, filters in URL and inputs.
    await travelTo(page, logsUrl, 'back');
    await expect(logLink(page, `${first} checkout failed`)).toBeVisible();
    await expect(staleNotice(page)).toContainText('logs read at');
    await expect(page.getByRole('searchbox', { name: 'Search messages' })).toHaveValue(tag);
    await expect(page.getByLabel('Severity')).toHaveValue('error');
    await expect(page.getByRole('button', { name: 'Change filter region is "eu"' })).toBeVisible();
    // "Try again" cannot read either: the rows stay marked.
    await staleNotice(page).getByRole('button', { name: 'Try again' }).click();
    await expect(staleNotice(page)).toBeVisible();
    await expect(logLink(page, `${first} checkout failed`)).toBeVisible();

    // A page whose code was never fetched: the failure in words, with no invented code.
    await travelTo(page, issuesUrl, 'forward');
    await page.getByRole('link', { name: 'Traces', exact: true }).click();
    const unreachable = page
      .getByRole('alert')
      .filter({ hasText: 'The service could not be reached' });
    await expect(unreachable).toBeVisible({ timeout: 30_000 });
    await expect(unreachable).toContainText('Check that the Lookout service is running');
    await expect(unreachable).not.toContainText('HTTP');

    // The service comes back, with data sent meanwhile.
    await service.start();
    await send(request, service.baseUrl, project.ingest_key, svcName, {
      logs: [logItem(`${later} checkout failed`, 'error', 'eu')],
      issues: [issueItem(issueAfter)],
    });
    // The feed reconnects within its capped backoff (30 s, full jitter).
    await expect(liveIndicator(page)).toHaveAccessibleName(/^Live feed: Live/, {
      timeout: 60_000,
    });
    // The board is read again: the new issue is there, no notice; the status change, sent
    // again by the person, is done now.
    await travelTo(page, issuesUrl, 'back');
    await expect(page.getByRole('checkbox', { name: `Select ${issueAfter}` })).toBeVisible();
    await expect(staleNotice(page)).toHaveCount(0);
    await expect(page.getByRole('searchbox', { name: 'Service' })).toHaveValue(svcName);
    await resolve();
    await expect(results.getByRole('status')).toHaveText('1 updated');
    await expect(page.getByRole('checkbox', { name: `Select ${issueBefore}` })).toHaveCount(0);

    // The logs too: the new log is there, the filters unchanged, no notice.
    await travelTo(page, logsUrl, 'back');
    await expect(logLink(page, `${later} checkout failed`)).toBeVisible();
    await expect(dataRowsOf(page, 'Logs')).toHaveCount(3);
    await expect(staleNotice(page)).toHaveCount(0);
    await expect(page.getByRole('searchbox', { name: 'Search messages' })).toHaveValue(tag);

    expect(
      await page.evaluate(
        () => (window as unknown as { __restartMarker?: number }).__restartMarker,
      ),
    ).toBe(1);

    // The page whose code failed to load: Chromium keeps a failed module import failed for
    // the document, so the router reloads the page once (its recovery for missing code),
    // at once or on "Try again"; the page then opens.
    await travelTo(page, issuesUrl, 'forward');
    await page.goForward();
    await expect(page).toHaveURL(/\/traces\?/);
    const traces = page.getByRole('heading', { name: 'Traces', level: 1 });
    await expect(traces.or(unreachable)).toBeVisible();
    if (await unreachable.isVisible())
      await unreachable.getByRole('button', { name: 'Try again' }).click();
    await expect(traces).toBeVisible();
  } finally {
    await service.dispose();
  }
});
