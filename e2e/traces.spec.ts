import { randomBytes, randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { dataRowsOf, ingestEnvelope, recordDeployment, word } from './support/telemetry';

type SpanSpec = {
  name: string;
  service: string;
  parent?: string;
  offsetMs: number;
  durationMs: number;
  operation?: string;
  status?: 'ok' | 'error';
};

/** Sends one trace's spans with a project's ingest key (as an SDK would); returns its id. */
async function ingestTrace(request: APIRequestContext, ingestKey: string, spans: SpanSpec[]) {
  const traceId = randomBytes(16).toString('hex');
  const ids = new Map(spans.map((s) => [s.name, randomBytes(8).toString('hex')]));
  const start = Date.now() - 60_000;
  await ingestEnvelope(request, ingestKey, {
    trace_spans: spans.map((s) => ({
      id: randomUUID(),
      trace_id: traceId,
      span_id: ids.get(s.name),
      parent_span_id: s.parent === undefined ? null : ids.get(s.parent),
      name: s.name,
      service_name: s.service,
      operation: s.operation ?? 'http.server',
      started_at: new Date(start + s.offsetMs).toISOString(),
      duration_ms: s.durationMs,
      ...(s.status ? { status: s.status } : {}),
      ...(s.status === 'error' ? { status_message: 'card declined' } : {}),
    })),
  });
  return traceId;
}

const traceTable = (page: Page) => page.getByRole('table', { name: 'Traces' });
const dataRows = (page: Page) => dataRowsOf(page, 'Traces');

test('trace discovery filters by status and minimum duration, shows names as text, opens a trace', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const tag = word();
  const gateway = `e2e-gateway-${tag}`;
  const failingName = `POST /checkout ${tag}`;
  const markupName = `<b>${tag}</b> render`;
  const failing = await ingestTrace(request, project.ingest_key, [
    { name: failingName, service: gateway, offsetMs: 0, durationMs: 1500 },
    {
      name: `charge card ${tag}`,
      service: `e2e-payments-${tag}`,
      parent: failingName,
      offsetMs: 20,
      durationMs: 900,
      operation: 'http.client',
      status: 'error',
    },
    {
      name: `reserve stock ${tag}`,
      service: `e2e-inventory-${tag}`,
      parent: failingName,
      offsetMs: 950,
      durationMs: 300,
      operation: 'db.query',
    },
  ]);
  await ingestTrace(request, project.ingest_key, [
    { name: markupName, service: gateway, offsetMs: 5_000, durationMs: 40 },
    // A placeholder name: the page's naming quality asks for better names.
    { name: 'handler', service: gateway, parent: markupName, offsetMs: 5_005, durationMs: 20 },
  ]);

  await page.goto(`/traces?project=${project.id}&service=${gateway}`);
  await expect(dataRows(page)).toHaveCount(2);
  // The root name is text: the markup is shown, never rendered.
  await expect(traceTable(page).getByRole('link', { name: markupName })).toBeVisible();
  await expect(traceTable(page).locator('b')).toHaveCount(0);
  const failingRow = dataRows(page).filter({ hasText: failingName });
  await expect(failingRow).toContainText('1 error');
  await expect(failingRow).toContainText('1.5 s');

  // The naming quality of this page (not of the account), with advice for the SDK.
  const naming = page.getByRole('region', { name: 'Naming quality of these 2 traces' });
  await expect(naming).toBeVisible();
  await expect(naming.getByText('Generic names')).toBeVisible();
  await expect(naming.getByText('Improve span names in the SDK configuration')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Duration over time' })).toBeVisible();

  // Status: only the trace with an error span.
  await page.getByRole('radio', { name: 'Errors' }).click();
  await expect(page).toHaveURL(/status=error/);
  await expect(dataRows(page)).toHaveCount(1);
  await expect(traceTable(page).getByRole('link', { name: failingName })).toBeVisible();
  await page.getByRole('radio', { name: 'All' }).click();
  await expect(dataRows(page)).toHaveCount(2);

  // Minimum duration, in whole milliseconds.
  const minDuration = page.getByLabel('Min duration');
  await minDuration.fill('1000');
  await expect(page).toHaveURL(/min_ms=1000/);
  await expect(dataRows(page)).toHaveCount(1);
  await expect(traceTable(page).getByRole('link', { name: failingName })).toBeVisible();
  await minDuration.fill('2000');
  await expect(page).toHaveURL(/min_ms=2000/);
  await expect(page.getByRole('heading', { name: 'No traces match these filters' })).toBeVisible();

  // What the service would refuse is explained in the form and never sent.
  await minDuration.fill('-5');
  await expect(page.getByRole('alert').filter({ hasText: 'cannot be negative' })).toBeVisible();
  await expect(minDuration).toHaveAttribute('aria-invalid', 'true');
  await minDuration.fill('1.5');
  await expect(page.getByRole('alert').filter({ hasText: 'whole milliseconds' })).toBeVisible();
  await page.waitForTimeout(600);
  await expect(page).toHaveURL(/min_ms=2000/);

  await minDuration.fill('');
  await expect(page).not.toHaveURL(/min_ms=/);
  await expect(dataRows(page)).toHaveCount(2);

  // A row opens its trace, in the same project scope.
  await traceTable(page).getByRole('link', { name: failingName }).click();
  await expect(page).toHaveURL(new RegExp(`/traces/${failing}\\?.*project=${project.id}`));
});

test('a minimum duration the service refuses shows its error, never an empty list', async ({
  signedInPage: page,
}) => {
  await page.goto('/traces?min_ms=1.5');
  const failure = page.getByRole('alert').filter({ hasText: 'The request was not accepted' });
  await expect(failure).toBeVisible();
  await expect(failure).toContainText('min_duration_ms must be an integer of at least 0');
  await expect(failure).toContainText('What to do:');
  await expect(page.getByRole('heading', { name: /No traces/ })).toHaveCount(0);
  // The form says what to type instead.
  await expect(page.getByRole('alert').filter({ hasText: 'whole milliseconds' })).toBeVisible();
});

test('the main navigation opens the trace explorer', async ({ signedInPage: page }) => {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Traces' })
    .click();
  await expect(page).toHaveURL(/\/traces/);
  await expect(page.getByRole('heading', { name: 'Traces', level: 1 })).toBeVisible();
});

test('an erroring demo trace opens from discovery at its first error, with its logs one click away', async ({
  signedInPage: page,
}) => {
  await page.goto('/traces?status=error&since=14d');
  const first = dataRows(page).first().getByRole('link');
  await expect(first).toBeVisible();
  await first.click();
  await expect(page).toHaveURL(/\/traces\/[0-9a-f]{32}/);
  const traceId = /\/traces\/([0-9a-f]{32})/.exec(page.url())?.[1] ?? '';

  const tree = page.getByRole('tree', { name: `Spans of trace ${traceId}` });
  await expect(tree.getByRole('treeitem').first()).toBeVisible();
  await page.getByRole('button', { name: 'Next error' }).click();
  await expect(page).toHaveURL(/span=[0-9a-f]{16}/);
  await expect(page.getByText(/^Error 1 of \d+$/)).toBeVisible();
  const selected = tree.getByRole('treeitem', { selected: true });
  await expect(selected).toContainText('error');
  const details = page.getByRole('complementary', { name: 'Span details' });
  await expect(details.getByText('Error span')).toBeVisible();

  // Filtering by the error span's service keeps it (and says how many spans match).
  const rowText = (await selected.textContent()) ?? '';
  const serviceFilter = page.getByRole('combobox', { name: 'Filter by service' });
  const services = await serviceFilter
    .locator('option')
    .evaluateAll((options) =>
      options.map((o) => (o as HTMLOptionElement).value).filter((v) => v !== ''),
    );
  const service = services.find((s) => rowText.startsWith(s));
  if (service === undefined) throw new Error(`no service option starts the row "${rowText}"`);
  await serviceFilter.selectOption(service);
  await expect(page).toHaveURL(new RegExp(`service=${service}`));
  await expect(tree.getByRole('treeitem', { selected: true })).toBeVisible();
  await expect(page.getByText(/ spans match$/)).toBeVisible();

  await details.getByRole('link', { name: 'Logs of this trace' }).click();
  await expect(page).toHaveURL(new RegExp(`/logs\\?.*trace_id=${traceId}`));
});

test('the chart spans the whole range and says which part is loaded until every page is', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `e2e-paged-${word()}`;
  const now = Date.now();
  // A page and one more: the 100 newest in the last half hour, the oldest 20 hours ago.
  const starts = [
    ...Array.from({ length: 100 }, (_, i) => now - 60_000 - i * 15_000),
    now - 20 * 3_600_000,
  ];
  await ingestEnvelope(request, project.ingest_key, {
    service_name: service,
    trace_spans: starts.map((at, i) => ({
      id: randomUUID(),
      trace_id: randomBytes(16).toString('hex'),
      span_id: randomBytes(8).toString('hex'),
      parent_span_id: null,
      name: `GET /page/${i}`,
      service_name: service,
      operation: 'http.server',
      started_at: new Date(at).toISOString(),
      duration_ms: 20 + i,
    })),
  });

  await page.goto(`/traces?project=${project.id}&service=${service}`);
  const chart = page.getByRole('region', { name: 'Duration over time' });
  const coverage = chart.getByRole('status');
  // The axis covers the last 24 hours; the part older than the loaded page is marked.
  await expect(coverage).toContainText('The newest 100 traces, from ');
  await expect(coverage).toContainText('older ones in the range are not loaded yet');
  await expect(chart.getByText('Not loaded yet', { exact: true })).toBeVisible();
  await expect(page.getByText('100 traces, newest first — more load as you scroll')).toBeVisible();

  await chart.getByRole('button', { name: 'Load older traces' }).click();
  await expect(coverage).toHaveText('All 101 traces in the range');
  await expect(chart.getByText('Not loaded yet', { exact: true })).toHaveCount(0);
  await expect(chart.getByRole('button', { name: 'Load older traces' })).toHaveCount(0);
  await expect(page.getByText('101 traces, newest first', { exact: true })).toBeVisible();
});

test('the trace chart marks the deployments of its service, as every time chart does', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const tag = word();
  const service = `e2e-deployed-${tag}`;
  const release = `${service}@2.0.0`;
  await ingestTrace(request, project.ingest_key, [
    { name: `GET /deployed ${tag}`, service, offsetMs: 0, durationMs: 120 },
  ]);
  const record = async (id: string, serviceName: string) => {
    await recordDeployment(request, demo.account_token, id, {
      project_id: project.id,
      release: `${serviceName}@2.0.0`,
      environment: 'production',
      service_name: serviceName,
    });
  };
  await record(`${service}-1`, service);
  // Another service's deployment is outside this chart's scope.
  await record(`${service}-other`, `e2e-elsewhere-${tag}`);

  await page.goto(`/traces?project=${project.id}&service=${service}`);
  const chart = page.getByRole('region', { name: 'Duration over time' });
  await expect(chart.getByRole('status')).toHaveText('The only trace in the range');
  const marks = chart.getByRole('button', { name: '1 deployment' });
  await expect(marks).toBeVisible();

  // Hovering the mark shows the deployment, as on the metrics page.
  await chart.locator(`[data-deployment="${project.id}/${service}-1"]`).hover();
  await expect(chart.getByText('Click to open the release')).toBeVisible();
  await expect(chart.getByText(release, { exact: true })).toBeVisible();

  // The keyboard way in: the list of the chart's deployments, each opening its release.
  await marks.click();
  const list = page.getByRole('list', { name: 'Deployments on the trace chart' });
  await expect(list.getByRole('link')).toHaveCount(1);
  await list.getByRole('link', { name: new RegExp(`^${service} ${release} → production`) }).click();
  await expect(page).toHaveURL(
    (url) =>
      decodeURIComponent(url.pathname) === `/releases/${release}` &&
      url.searchParams.get('deployment') === `${service}-1`,
  );
});

test('in a 1,024 px window every column header of the trace list reads whole, with no sideways scroll', async ({
  signedInPage: page,
}) => {
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto('/traces?since=24h');
  await expect(dataRows(page).first()).toBeVisible();
  const headers = traceTable(page).getByRole('columnheader');
  await expect(headers).toHaveCount(7);
  // A clipped header ("Spa…") is one whose text is wider than its cell.
  const clipped = await headers.evaluateAll((cells) =>
    cells
      .filter((c) => c.scrollWidth > c.clientWidth || c.getBoundingClientRect().right > innerWidth)
      .map((c) => c.textContent),
  );
  expect(clipped).toEqual([]);
  expect(
    await traceTable(page).evaluate((el) => {
      const frame = el.parentElement;
      return frame !== null && frame.scrollWidth <= frame.clientWidth;
    }),
  ).toBe(true);
});
