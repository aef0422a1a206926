import { randomBytes, randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { dataRowsOf, ingestEnvelope, liveIndicator, word } from './support/telemetry';

type LogItem = {
  message: string;
  severity?: string;
  attributes?: Record<string, unknown>;
  trace_id?: string;
  span_id?: string;
};

/** Sends logs with a project's ingest key through the real ingest route (as an SDK would). */
async function ingestLogs(
  request: APIRequestContext,
  ingestKey: string,
  serviceName: string,
  logs: LogItem[],
) {
  await ingestEnvelope(request, ingestKey, {
    service_name: serviceName,
    logs: logs.map((l) => ({
      id: randomUUID(),
      occurred_at: new Date().toISOString(),
      severity: 'info',
      ...l,
    })),
  });
}

const logTable = (page: Page) => page.getByRole('table', { name: 'Logs' });
const dataRows = (page: Page) => dataRowsOf(page, 'Logs');

test('an attribute picked from the catalog filters the list to exactly the matching logs', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const key = `e2e_${word()}`;
  await ingestLogs(request, project.ingest_key, 'e2e-attributes', [
    { message: `checkout ok one ${key}`, attributes: { [key]: { kind: 'match', n: 1 } } },
    { message: `checkout ok two ${key}`, attributes: { [key]: { kind: 'Match', n: 2 } } },
    { message: `checkout other ${key}`, attributes: { [key]: { kind: 'other', n: 3 } } },
    { message: `checkout without ${key}`, attributes: { unrelated: true } },
  ]);

  await page.goto(`/logs?project=${project.id}`);
  await page.getByRole('button', { name: 'Attribute filter' }).click();
  await page.getByRole('combobox', { name: 'Attribute path' }).fill(key);
  await page.getByRole('option', { name: new RegExp(`${key} › kind`) }).click();

  // A value the service would refuse is explained before anything is sent.
  await page.getByLabel('Operator').selectOption({ label: 'starts with' });
  await page.getByLabel('Value').fill('');
  await page.getByRole('button', { name: 'Apply filter' }).click();
  await expect(page.getByText(/needs at least one character/)).toBeVisible();

  await page.getByLabel('Operator').selectOption({ label: 'is' });
  await page.getByLabel('Value').fill('match');
  await page.getByRole('button', { name: 'Apply filter' }).click();

  await expect(page).toHaveURL(/filters=/);
  await expect(
    page.getByRole('button', { name: `Change filter ${key} › kind is "match"` }),
  ).toBeVisible();
  // Text compares ignore case unless asked: "match" and "Match", nothing else.
  await expect(dataRows(page)).toHaveCount(2);
  await expect(logTable(page).getByRole('link', { name: `checkout ok one ${key}` })).toBeVisible();
  await expect(logTable(page).getByRole('link', { name: `checkout ok two ${key}` })).toBeVisible();
  // With a filter active, the page says how much of the range the filters search.
  await expect(page.getByRole('button', { name: /^Searched \d/ })).toBeVisible();

  // Excluding a value from a log's attributes (ne) keeps only the other one.
  await page.getByRole('button', { name: `Remove filter ${key} › kind is "match"` }).click();
  await expect(logTable(page).getByRole('link', { name: `checkout other ${key}` })).toBeVisible();
  await logTable(page)
    .getByRole('link', { name: `checkout other ${key}` })
    .click();
  const details = page.getByRole('complementary', { name: 'Log details' });
  await details.getByRole('button', { name: `Actions for ${key} › kind` }).click();
  await page.getByRole('menuitem', { name: 'Exclude this value' }).click();
  await expect(
    page.getByRole('button', { name: `Change filter ${key} › kind is not "other"` }),
  ).toBeVisible();
  // `ne` keeps only logs that have the path: the log without it stays out.
  await expect(dataRows(page)).toHaveCount(2);
  await expect(logTable(page).getByRole('link', { name: `checkout ok one ${key}` })).toBeVisible();
  await expect(logTable(page).getByRole('link', { name: `checkout ok two ${key}` })).toBeVisible();
});

test('attribute paths read as written: a key holding / is one key, nesting is ›', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const tag = word();
  await ingestLogs(request, project.ingest_key, 'e2e-paths', [
    {
      message: `webhook ${tag}`,
      attributes: { 'stripe/event': `charge_${tag}`, k8s: { 'app.kubernetes.io/name': tag } },
    },
  ]);

  await page.goto(`/logs?project=${project.id}&q=${tag}`);
  await logTable(page)
    .getByRole('link', { name: `webhook ${tag}` })
    .click();
  const details = page.getByRole('complementary', { name: 'Log details' });

  // From the log's attributes: a filter on the nested key, a column of the key holding `/`.
  await details.getByRole('button', { name: 'Actions for k8s › app.kubernetes.io/name' }).click();
  await page.getByRole('menuitem', { name: 'Filter by this value' }).click();
  const chip = page.getByRole('button', {
    name: `Change filter k8s › app.kubernetes.io/name is "${tag}"`,
  });
  await expect(chip).toBeVisible();
  await details.getByRole('button', { name: 'Actions for stripe/event' }).click();
  await page.getByRole('menuitem', { name: 'Show as a column' }).click();
  await expect(page.getByRole('columnheader', { name: 'stripe/event' })).toBeVisible();
  await expect(dataRows(page)).toHaveCount(1);
  await expect(logTable(page).getByRole('cell', { name: `charge_${tag}` })).toBeVisible();

  // The URL and the request keep the pointer; the screen never shows its escapes.
  const url = decodeURIComponent(page.url());
  expect(url).toContain('/k8s/app.kubernetes.io~1name');
  expect(url).toContain('/stripe~1event');
  await expect(page.getByText(/~1|~0/)).toHaveCount(0);

  // The editor and the picker show the path the same way, and search it as it is read.
  await chip.click();
  const editor = page.getByRole('form', { name: 'Attribute filter' });
  await expect(editor).toContainText('k8s › app.kubernetes.io/name');
  await editor.getByRole('button', { name: 'Change' }).click();
  await page.getByRole('combobox', { name: 'Attribute path' }).fill('app.kubernetes.io/name');
  await expect(
    page.getByRole('option', { name: /^k8s › app\.kubernetes\.io\/name/ }).first(),
  ).toBeVisible();
  await expect(page.getByText(/~1|~0/)).toHaveCount(0);
});

test('a log with a trace link opens the logs of exactly that trace', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const tag = word();
  const traceId = randomBytes(16).toString('hex');
  await ingestLogs(request, project.ingest_key, 'e2e-trace', [
    {
      message: `charge started ${tag}`,
      trace_id: traceId,
      span_id: randomBytes(8).toString('hex'),
    },
    {
      message: `charge failed ${tag}`,
      severity: 'error',
      trace_id: traceId,
      span_id: randomBytes(8).toString('hex'),
    },
    { message: `unrelated work ${tag}` },
  ]);

  await page.goto(`/logs?q=${tag}`);
  await expect(dataRows(page)).toHaveCount(3);
  await logTable(page)
    .getByRole('link', { name: `charge failed ${tag}` })
    .click();
  const details = page.getByRole('complementary', { name: 'Log details' });
  await expect(details.getByText(traceId)).toBeVisible();
  await expect(details.getByRole('button', { name: 'Copy trace id' })).toBeVisible();

  await details.getByRole('link', { name: 'Logs of this trace' }).click();
  await expect(page).toHaveURL(new RegExp(`trace_id=${traceId}`));
  await expect(page.getByText(traceId).first()).toBeVisible();
  await expect(dataRows(page)).toHaveCount(2);
  await expect(logTable(page).getByRole('link', { name: `charge started ${tag}` })).toBeVisible();
  await expect(logTable(page).getByRole('link', { name: `charge failed ${tag}` })).toBeVisible();
});

test('an ignore rule moves the log out of the active list and under Ignored', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  // Its own service: a rule applies to every log of the same service and message pattern.
  const service = `e2e-ignore-${word()}`;
  const message = `noisy health probe from ${service}`;
  await ingestLogs(request, project.ingest_key, service, [{ message, severity: 'warning' }]);

  await page.goto(`/logs?service=${service}`);
  await logTable(page).getByRole('link', { name: message }).click();
  const details = page.getByRole('complementary', { name: 'Log details' });
  await details.getByLabel('Ignore logs of this kind').check();
  await details.getByLabel('Show severity as').selectOption('info');
  await details.getByRole('button', { name: 'Save rule' }).click();
  await expect(details.getByText('A rule applies')).toBeVisible();

  await expect(page.getByRole('heading', { name: 'No logs match these filters' })).toBeVisible();
  await page.getByRole('radio', { name: 'Ignored' }).click();
  await expect(page).toHaveURL(/status=ignored/);
  await expect(logTable(page).getByRole('link', { name: message })).toBeVisible();
  // The rule shows another severity; the captured one is kept.
  await expect(details.getByText('info (captured warning, set by a rule)')).toBeVisible();

  // Removing the rule brings it back to the active list.
  await details.getByRole('button', { name: 'Remove rule' }).click();
  await expect(details.getByText('No rule')).toBeVisible();
  await page.getByRole('radio', { name: 'Active' }).click();
  await expect(logTable(page).getByRole('link', { name: message })).toBeVisible();
});

test('a message with HTML and script is shown as text and runs nothing', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const tag = word();
  const message = `<img src=x onerror=window.__pwned=1><script>window.__pwned=2</script> ${tag}`;
  await ingestLogs(request, project.ingest_key, 'e2e-xss', [
    { message, attributes: { html: '<b onmouseover=window.__pwned=3>bold</b>' } },
  ]);

  await page.goto(`/logs?q=${tag}`);
  const link = logTable(page).getByRole('link', { name: message });
  await expect(link).toBeVisible();
  await link.click();
  const details = page.getByRole('complementary', { name: 'Log details' });
  await expect(details.getByText(message, { exact: true })).toBeVisible();
  const html = details.getByText('<b onmouseover=window.__pwned=3>bold</b>', { exact: true });
  await expect(html).toBeVisible();
  await html.hover();

  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  await expect(page.locator('main img, main script, main b')).toHaveCount(0);
});

test('live tail puts a log ingested now at the top without reloading the list', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `e2e-live-${word()}`;
  await page.goto(`/logs?project=${project.id}&service=${service}`);
  await expect(page.getByRole('heading', { name: 'No logs match these filters' })).toBeVisible();
  await expect(liveIndicator(page)).toHaveAccessibleName(/^Live feed: Live/, { timeout: 15_000 });
  await expect(page.getByRole('status').filter({ hasText: 'Live tail on' })).toBeVisible();

  const listReads: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/logs') listReads.push(r.url());
  });
  const message = `payment provider slow ${service}`;
  await ingestLogs(request, project.ingest_key, service, [
    { message, severity: 'warning', attributes: { provider: 'stripe' } },
  ]);
  await expect(logTable(page).getByRole('link', { name: message })).toBeVisible();
  const row = dataRows(page).first();
  await expect(row).toContainText('Warning');
  await expect(row).toContainText(service);
  expect(listReads).toEqual([]);

  // A log that does not match the filters stays out.
  await ingestLogs(request, project.ingest_key, `${service}-other`, [{ message: 'elsewhere' }]);
  await ingestLogs(request, project.ingest_key, service, [{ message: `second ${service}` }]);
  await expect(logTable(page).getByRole('link', { name: `second ${service}` })).toBeVisible();
  await expect(dataRows(page)).toHaveCount(2);
  await expect(dataRows(page).first()).toContainText(`second ${service}`);
});

test('beside an open log in a 1,280 px window the message stays readable: no sideways scroll', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const tag = word();
  const message = `inventory sync finished for warehouse north-east ${tag}`;
  await ingestLogs(request, project.ingest_key, 'e2e-narrow', [{ message }]);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/logs?q=${tag}`);
  const service = logTable(page).getByRole('columnheader', { name: 'Service' });
  await expect(service).toBeVisible();
  await logTable(page).getByRole('link', { name: message }).click();
  await expect(page.getByRole('complementary', { name: 'Log details' })).toBeVisible();

  // The service (in the details) gives up its column; the message keeps 280 px or more.
  await expect(service).toBeHidden();
  const messageHeader = logTable(page).getByRole('columnheader', { name: 'Message' });
  expect((await messageHeader.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(280);
  // The table's scrolling frame is its parent: it scrolls down, never sideways.
  expect(
    await logTable(page).evaluate((el) => {
      const frame = el.parentElement;
      return frame !== null && frame.scrollWidth <= frame.clientWidth;
    }),
  ).toBe(true);

  await page.getByRole('button', { name: 'Close log details' }).click();
  await expect(service).toBeVisible();
});
