import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { runOtelProgram } from './support/otel-run';
import { dataRowsOf, word } from './support/telemetry';

const SHOTS = path.resolve(import.meta.dirname, '../test-results/otel-shots');

const shot = async (page: Page, name: string) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
};

test('a program instrumented with the OpenTelemetry JS SDK shows up as a trace, logs, metrics and an issue', async ({
  signedInPage: page,
  demo,
  baseURL,
}) => {
  // Starting a second Node process with tsx and the SDK, and exporting three signals over
  // HTTP, takes several seconds before the console checks begin.
  test.setTimeout(90_000);
  const project = demo.projects[0];
  if (!project || !baseURL) throw new Error('demo world has no project or no base URL');
  const tag = word();
  const service = `otel-shop-${tag}`;
  const release = `otel-${tag}@1.4.2`;
  const sent = await runOtelProgram({
    baseUrl: baseURL,
    ingestKey: project.ingest_key,
    tag,
    service,
    release,
    environment: 'e2e-otel',
  });

  // The trace explorer finds the trace by its service; the root span names it.
  await page.goto(`/traces?project=${project.id}&service=${service}`);
  const traces = dataRowsOf(page, 'Traces');
  await expect(traces).toHaveCount(1);
  await expect(traces.first()).toContainText('1 error');
  await page
    .getByRole('table', { name: 'Traces' })
    .getByRole('link', { name: sent.server_span })
    .click();
  await expect(page).toHaveURL(new RegExp(`/traces/${sent.trace_id}\\?`));

  // The waterfall: the server span and its child (ids exactly as the SDK made them), the
  // child marked as the error with its status message and the exception event.
  const tree = page.getByRole('tree', { name: `Spans of trace ${sent.trace_id}` });
  await expect(tree.getByRole('treeitem')).toHaveCount(2);
  const child = tree.getByRole('treeitem', { name: new RegExp(sent.child_span) });
  await expect(child).toHaveAttribute('aria-level', '2');
  await page.getByRole('button', { name: 'Next error' }).click();
  await expect(page).toHaveURL(new RegExp(`span=${sent.child_span_id}`));
  await expect(child).toHaveAttribute('aria-selected', 'true');
  const details = page.getByRole('complementary', { name: 'Span details' });
  await expect(details.getByText('Error span')).toBeVisible();
  await expect(details).toContainText(sent.error_text);
  await expect(details).toContainText(sent.child_span_id);
  await expect(details).toContainText(service);
  await expect(details).toContainText(release);
  await expect(details).toContainText('e2e-otel');
  await expect(details.getByRole('heading', { name: 'Events (1)' })).toBeVisible();
  await expect(details.getByText('exception', { exact: true })).toBeVisible();
  // The exception event is also an issue occurrence of this very span.
  const traceIssues = details.getByRole('list', { name: 'Issues of this trace' });
  await expect(traceIssues).toContainText(sent.error_text);
  await expect(traceIssues).toContainText('this span');
  await shot(page, `waterfall-${tag}.png`);

  // The logs of this trace: each line with its severity, all stamped with the child span.
  await page.goto(`/logs?project=${project.id}&trace_id=${sent.trace_id}`);
  const logs = dataRowsOf(page, 'Logs');
  await expect(logs).toHaveCount(sent.logs.length);
  for (const line of sent.logs)
    await expect(logs.filter({ hasText: line.message })).toHaveAttribute(
      'data-severity',
      line.severity,
    );
  await page
    .getByRole('table', { name: 'Logs' })
    .getByRole('link', { name: sent.logs[1]!.message })
    .click();
  const logDetails = page.getByRole('complementary', { name: 'Log details' });
  await expect(logDetails).toContainText(sent.child_span_id);

  // The metrics explorer lists the counter and the histogram's count and sum.
  await page.goto(`/metrics?project=${project.id}&since=1h&metric=${sent.counter}`);
  // Options name the metric between bidi isolates: found by value, read by kind and unit.
  const option = (name: string) =>
    page.getByLabel('Metric', { exact: true }).locator(`option[value="${name}"]`);
  await expect(option(sent.counter)).toContainText('— counter');
  await expect(option(`${sent.histogram}.count`)).toContainText('— counter');
  await expect(option(`${sent.histogram}.sum`)).toContainText(/— counter, \W?ms/);
  await expect(page.getByLabel('Metric', { exact: true })).toHaveValue(sent.counter);
  await expect(page.getByRole('list', { name: 'Series' }).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByText(/cumulative counter/)).toBeVisible();

  // The issues board shows the exception; its page shows the stack the SDK recorded.
  await page.goto(`/issues?project=${project.id}&service=${service}`);
  const issues = dataRowsOf(page, 'Issues');
  await expect(issues).toHaveCount(1);
  await page
    .getByRole('table', { name: 'Issues' })
    .getByRole('link', { name: new RegExp(sent.error_text) })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(sent.error_text);
  await expect(page.getByRole('list', { name: 'Stack frames' })).toContainText('otel-program.ts');
  await expect(page.getByText(sent.trace_id)).toBeVisible();
  await shot(page, `issue-${tag}.png`);
});
