import { randomBytes, randomUUID } from 'node:crypto';
import { expect, test } from './support/fixtures';
import { ingestEnvelope, word } from './support/telemetry';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const MARKUP = '<img src=x onerror=alert(1)>';

test('the waterfall finds the error, filters by service, keeps orphans and text, and links to logs', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const project = demo.projects[0];
  if (!project) throw new Error('demo world has no project');
  const w = word(6);
  const gateway = `gateway-${w}`;
  const orders = `orders-${w}`;
  const db = `db-${w}`;
  const traceId = hex(16);
  const ids = {
    root: hex(8),
    orders: hex(8),
    validate: hex(8),
    select: hex(8),
    charge: hex(8),
    markup: hex(8),
    reserve: hex(8),
    orphan: hex(8),
    render: hex(8),
  };
  const base = Date.now() - 60_000;
  const span = (
    key: keyof typeof ids,
    parent: string | null,
    service: string,
    name: string,
    startMs: number,
    durationMs: number,
    extra: Record<string, unknown> = {},
  ) => ({
    id: randomUUID(),
    trace_id: traceId,
    span_id: ids[key],
    parent_span_id: parent,
    name,
    service_name: service,
    started_at: new Date(base + startMs).toISOString(),
    duration_ms: durationMs,
    ...extra,
  });
  // gateway GET /checkout
  // ├─ orders POST /orders
  // │  ├─ orders validate ── db SELECT carts (42 µs)
  // │  └─ orders charge ─┬─ db <img …>
  // │                    └─ orders reserve stock (error, depth 4)
  // ├─ gateway late callback (parent never received)
  // └─ gateway render
  await ingestEnvelope(request, project.ingest_key, {
    service_name: gateway,
    trace_spans: [
      span('root', null, gateway, `GET /checkout ${w}`, 0, 120, { kind: 'server' }),
      span('orders', ids.root, orders, 'POST /orders', 5, 95, { operation: 'http.server' }),
      span('validate', ids.orders, orders, 'validate cart', 6, 14),
      span('select', ids.validate, db, 'SELECT carts', 7, 0.042, { operation: 'db.query' }),
      span('charge', ids.orders, orders, 'charge card', 30, 60),
      span('markup', ids.charge, db, MARKUP, 31, 9),
      span('reserve', ids.charge, orders, 'reserve stock', 41, 44, {
        status: 'error',
        status_message: 'deadlock detected',
        events: [{ name: 'exception', timestamp: new Date(base + 80).toISOString() }],
      }),
      span('orphan', hex(8), gateway, 'late callback', 100, 10),
      span('render', ids.root, gateway, 'render page', 101, 14),
    ],
    logs: [
      {
        id: randomUUID(),
        occurred_at: new Date(base + 50).toISOString(),
        message: `reserving stock ${w}`,
        trace_id: traceId,
        span_id: ids.reserve,
      },
    ],
  });

  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(`/traces/${traceId}?project=${project.id}`);

  const tree = page.getByRole('tree', { name: `Spans of trace ${traceId}` });
  const row = (name: string | RegExp) => tree.getByRole('treeitem', { name });
  await expect(
    page.getByRole('heading', { level: 1, name: new RegExp(`GET /checkout ${w}`) }),
  ).toBeVisible();
  await expect(tree.getByRole('treeitem')).toHaveCount(9);

  // The orphan is a row under the root, marked; the markup name is text; 0.042 ms is 42 µs.
  await expect(row(/late callback/)).toContainText('parent not received');
  await expect(row(/late callback/)).toHaveAttribute('aria-level', '2');
  await expect(row(/onerror=alert/)).toContainText(MARKUP);
  await expect(tree.locator('img')).toHaveCount(0);
  await expect(row(/SELECT carts/)).toContainText('42 µs');

  // "Next error" selects the error span deep in the tree and opens its details.
  await page.getByRole('button', { name: 'Next error' }).click();
  await expect(page).toHaveURL(new RegExp(`span=${ids.reserve}`));
  await expect(row(/reserve stock/)).toHaveAttribute('aria-selected', 'true');
  await expect(row(/reserve stock/)).toHaveAttribute('aria-level', '4');
  const details = page.getByRole('complementary', { name: 'Span details' });
  await expect(details).toContainText('reserve stock');
  await expect(details).toContainText('deadlock detected');
  await expect(details).toContainText(ids.reserve);
  await expect(page.getByText('Error 1 of 1')).toBeVisible();

  // Keyboard: the focus moves down the rows and Enter selects.
  await row(/reserve stock/).click();
  await expect(row(/reserve stock/)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(row(/late callback/)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`span=${ids.orphan}`));
  await expect(details).toContainText('late callback');
  await expect(details).toContainText('parent not received in this trace');
  await page.keyboard.press('ArrowLeft');
  await expect(row(new RegExp(`GET /checkout ${w}`))).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(row(new RegExp(`GET /checkout ${w}`))).toHaveAttribute('aria-expanded', 'false');
  await expect(tree.getByRole('treeitem')).toHaveCount(1);
  await page.keyboard.press('ArrowRight');
  await expect(tree.getByRole('treeitem')).toHaveCount(9);

  // Filter by one service: its spans stay, their ancestors stay (dimmed), the rest are
  // folded into a "hidden" row; the filter is in the URL.
  await page.getByRole('combobox', { name: 'Filter by service' }).selectOption(db);
  await expect(page).toHaveURL(new RegExp(`service=${db}`));
  await expect(row(/SELECT carts/)).toBeVisible();
  await expect(row(/onerror=alert/)).toBeVisible();
  await expect(row(/validate cart/)).toBeVisible();
  await expect(row(/charge card/)).toBeVisible();
  await expect(row(/reserve stock/)).toHaveCount(0);
  await expect(row(/render page/)).toHaveCount(0);
  await expect(row('3 spans hidden by the filter')).toBeVisible();
  await expect(page.getByText('2 of 9 spans match')).toBeVisible();

  // Collapsing over matches never hides them silently: the row says how many it holds, the
  // count says where they are, and one click shows them again.
  const root = row(new RegExp(`GET /checkout ${w}`));
  const matched = page.getByRole('toolbar', { name: 'Span tree tools' }).getByRole('status');
  await page.getByRole('button', { name: 'Collapse all' }).click();
  await expect(tree.getByRole('treeitem')).toHaveCount(1);
  await expect(root).toContainText('2 matches inside');
  await expect(matched).toHaveText('2 of 9 spans match · 2 inside collapsed spans');
  await page.getByRole('button', { name: 'Show all matches' }).click();
  await expect(row(/SELECT carts/)).toBeVisible();
  await expect(row(/onerror=alert/)).toBeVisible();
  await expect(matched).toHaveText('2 of 9 spans match');
  // A new filter opens the collapsed spans that hold its matches.
  await page.getByRole('button', { name: 'Collapse all' }).click();
  await expect(root).toContainText('2 matches inside');
  await page.getByRole('searchbox', { name: 'Filter spans' }).fill('SELECT');
  await expect(matched).toHaveText('1 of 9 spans match');
  await expect(row(/SELECT carts/)).toBeVisible();
  await expect(root).not.toContainText('inside');

  // The logs of this exact trace.
  await details.getByRole('link', { name: 'Logs of this trace' }).click();
  await expect(page).toHaveURL(new RegExp(`/logs\\?.*trace_id=${traceId}`));
  await expect(page.getByRole('link', { name: `reserving stock ${w}` })).toBeVisible();
  expect(dialogs).toEqual([]);
});

test('a trace with no spans in scope says so and where to look', async ({ signedInPage: page }) => {
  const traceId = hex(16);
  await page.goto(`/traces/${traceId}`);
  await expect(
    page.getByRole('heading', { name: `No spans of trace ${traceId} in the selected scope` }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to traces' })).toBeVisible();
});

test('with several projects in scope the trace shows only their spans', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const [a, b, c] = demo.projects;
  if (!a || !b || !c) throw new Error('the demo world has fewer than three projects');
  const w = word(6);
  const traceId = hex(16);
  const root = hex(8);
  const base = Date.now() - 60_000;
  const span = (spanId: string, parent: string | null, name: string, startMs: number) => ({
    id: randomUUID(),
    trace_id: traceId,
    span_id: spanId,
    parent_span_id: parent,
    name,
    started_at: new Date(base + startMs).toISOString(),
    duration_ms: 10,
  });
  // One trace over three projects; the scope holds the first two.
  await ingestEnvelope(request, a.ingest_key, { trace_spans: [span(root, null, `root ${w}`, 0)] });
  await ingestEnvelope(request, b.ingest_key, {
    trace_spans: [span(hex(8), root, `in scope ${w}`, 1)],
  });
  await ingestEnvelope(request, c.ingest_key, {
    trace_spans: [span(hex(8), root, `out of scope ${w}`, 2)],
  });

  await page.goto(`/traces/${traceId}?projects=${a.id},${b.id}`);
  const tree = page.getByRole('tree', { name: `Spans of trace ${traceId}` });
  await expect(tree.getByRole('treeitem', { name: new RegExp(`in scope ${w}`) })).toBeVisible();
  await expect(tree.getByRole('treeitem', { name: new RegExp(`root ${w}`) })).toBeVisible();
  await expect(tree.getByRole('treeitem')).toHaveCount(2);
  await expect(page.getByText(`out of scope ${w}`)).toHaveCount(0);

  // All projects: the service reads every project the account can read.
  await page.goto(`/traces/${traceId}`);
  await expect(tree.getByRole('treeitem')).toHaveCount(3);
});
