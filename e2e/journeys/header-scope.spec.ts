import { request as playwrightRequest, type Page } from '@playwright/test';
import { demoCredentials, type DemoCredentials } from '../support/demo';
import { E2E_BASE_URL } from '../support/e2e-env';
import { expect, test } from '../support/fixtures';

/**
 * The header's scope on every page: a change of the time range, then of the projects, keeps
 * the page and its own search (dropping only what the page binds to the projects), and Back and
 * Forward walk through the three states. One line of the table per route of the route tree.
 */

/** Ids of the demo world the routes with a path parameter (or a selection) need. */
type World = {
  issueId: string;
  /** The URL's `before` of the issue's second occurrence (the service's cursor). */
  issueSecond: string;
  traceId: string;
  spanId: string;
  /** A release row with a deployment of it. */
  release: { release: string; environment: string; service: string; deployment: string };
  /** Another project than the one the test picks in the header, and a log of it. */
  otherProjectId: string;
  otherProjectLogId: string;
};

type RouteCase = {
  name: string;
  path: (w: World) => string;
  /** The page's own non-default search. */
  own: (w: World) => Record<string, string>;
  /** Keys of `own` that a change of projects drops. */
  dropOnProject?: readonly string[];
};

const routes: RouteCase[] = [
  { name: 'projects', path: () => '/projects', own: () => ({}) },
  { name: 'issues', path: () => '/issues', own: () => ({ status: 'all', sort: 'occurrences' }) },
  {
    name: 'an issue',
    path: (w) => `/issues/${w.issueId}`,
    own: (w) => ({ occurrence: '2', before: w.issueSecond, stack: 'raw' }),
  },
  {
    name: 'logs',
    path: () => '/logs',
    own: (w) => ({ severity: 'error', q: 'timeout', log: w.otherProjectLogId }),
    dropOnProject: ['log'],
  },
  { name: 'traces', path: () => '/traces', own: () => ({ status: 'error', scale: 'linear' }) },
  {
    name: 'a trace',
    path: (w) => `/traces/${w.traceId}`,
    own: (w) => ({ span: w.spanId, q: 'checkout' }),
  },
  { name: 'releases', path: () => '/releases', own: () => ({ environment: 'production' }) },
  {
    name: 'a release',
    path: (w) => `/releases/${encodeURIComponent(w.release.release)}`,
    own: (w) => ({
      environment: w.release.environment,
      service: w.release.service,
      deployment: w.release.deployment,
    }),
    dropOnProject: ['deployment'],
  },
  {
    name: 'metrics',
    path: () => '/metrics',
    // The explorer reads one project: without a named one it opens one and writes it down.
    own: (w) => ({ group_by: 'service_name', interval: '1h', metric_project: w.otherProjectId }),
  },
  {
    name: 'analytics',
    path: () => '/analytics',
    // As on funnels: without a named project the page opens one and writes it down.
    own: (w) => ({
      retention_period: 'week',
      paths_unit: 'identified_user',
      analytics_project: w.otherProjectId,
    }),
  },
  {
    name: 'funnels',
    path: () => '/analytics/funnels',
    // The project read is named: without one the page picks a project and writes it down.
    own: (w) => ({ unit: 'identified_user', window: '3600', analytics_project: w.otherProjectId }),
  },
  { name: 'usage', path: () => '/usage', own: () => ({ interval: 'daily', split: 'stream' }) },
  { name: 'plan', path: () => '/plan', own: () => ({}) },
];

async function discoverWorld(demo: DemoCredentials): Promise<World> {
  const api = await playwrightRequest.newContext({
    baseURL: E2E_BASE_URL,
    extraHTTPHeaders: { Authorization: `Bearer ${demo.account_token}` },
  });
  const read = async <T>(path: string, params: Record<string, string>): Promise<T> => {
    const res = await api.get(path, { params });
    if (!res.ok()) throw new Error(`${path} answered ${res.status()}`);
    return (await res.json()) as T;
  };
  try {
    const issues = await read<{ id: string; occurrence_count: number }[]>('/api/telemetry/issues', {
      since: '30d',
      limit: '50',
    });
    const issue = issues.find((i) => i.occurrence_count >= 2);
    if (!issue) throw new Error('the demo world has no issue with two occurrences');
    const { next_cursor: second } = await read<{
      next_cursor: { time: string; id: string } | null;
    }>(`/api/telemetry/issues/${issue.id}/events`, { pagination: 'cursor', limit: '1' });
    if (!second) throw new Error('the demo issue has one occurrence only');
    const [trace] = await read<{ trace_id: string }[]>('/api/telemetry/traces', {
      since: '30d',
      limit: '1',
    });
    if (!trace) throw new Error('the demo world has no trace');
    const spans = await read<{ span_id: string; parent_span_id: string | null }[]>(
      `/api/telemetry/traces/${trace.trace_id}`,
      {},
    );
    const span = spans.find((s) => s.parent_span_id !== null) ?? spans[0];
    const other = demo.projects[1];
    if (!span || !other) throw new Error('the demo world has no span or one project only');
    const { deployments } = await read<{
      deployments: {
        deployment_id: string;
        release: string;
        environment: string;
        service_name: string;
      }[];
    }>('/api/telemetry/deployments', { project_id: other.id, limit: '100' });
    // A deployment of a release with telemetry: other tests record deployments of their own.
    const rows = await read<{ release: string; environment: string; service_name: string }[]>(
      '/api/telemetry/releases',
      { project_id: other.id, since: '30d', limit: '200' },
    );
    const seen = new Set(rows.map((r) => `${r.release}\n${r.environment}\n${r.service_name}`));
    const deployment = deployments.find((d) =>
      seen.has(`${d.release}\n${d.environment}\n${d.service_name}`),
    );
    const logs = await read<{ id: string }[]>('/api/logs', { project_id: other.id, limit: '1' });
    const log = logs[0];
    if (!deployment || !log) throw new Error('the demo world has no deployment or no log');
    return {
      issueId: issue.id,
      issueSecond: `${second.time}_${second.id}`,
      traceId: trace.trace_id,
      spanId: span.span_id,
      release: {
        release: deployment.release,
        environment: deployment.environment,
        service: deployment.service_name,
        deployment: deployment.deployment_id,
      },
      otherProjectId: other.id,
      otherProjectLogId: log.id,
    };
  } finally {
    await api.dispose();
  }
}

/** The path and every search key of the page's URL. */
function urlState(page: Page) {
  const url = new URL(page.url());
  return { path: decodeURIComponent(url.pathname), search: Object.fromEntries(url.searchParams) };
}

function expectState(page: Page, path: string, search: Record<string, string>) {
  return expect.poll(() => urlState(page)).toEqual({ path, search });
}

let world: World;

test.beforeAll(async () => {
  world = await discoverWorld(demoCredentials());
});

for (const route of routes) {
  test(`the header's range and projects keep ${route.name} and its search`, async ({
    signedInPage: page,
    demo,
  }) => {
    const picked = demo.projects[0];
    if (!picked) throw new Error('the demo world has no project');
    const path = route.path(world);
    const own = route.own(world);
    const start = `${path}?${new URLSearchParams(own).toString()}`.replace(/\?$/, '');
    await page.goto(start);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    const opened = urlState(page);
    expect(opened, 'the page opens with its own search as written').toEqual({
      path: decodeURIComponent(path),
      search: own,
    });

    // The range: the page and every key stay.
    await page.getByRole('button', { name: /^Time range/ }).click();
    await page.getByRole('option', { name: 'Last 7 days' }).click();
    const ranged = { ...own, since: '7d' };
    await expectState(page, opened.path, ranged);

    // The projects: the page stays, keys bound to the projects go.
    await page.getByRole('button', { name: /^Project scope/ }).click();
    await page.getByRole('checkbox', { name: picked.name }).click();
    await page.keyboard.press('Escape');
    const scoped: Record<string, string> = { ...ranged, project: picked.id };
    for (const key of route.dropOnProject ?? []) delete scoped[key];
    await expectState(page, opened.path, scoped);
    await expect(page.getByRole('button', { name: /^Project scope/ })).toContainText(picked.name);

    // Back and Forward restore each state, the header with them.
    await page.goBack();
    await expectState(page, opened.path, ranged);
    await expect(page.getByRole('button', { name: /^Project scope/ })).toContainText(
      'All projects',
    );
    await page.goBack();
    await expectState(page, opened.path, own);
    await expect(page.getByRole('button', { name: /^Time range/ })).toContainText(/24 hours/i);
    await page.goForward();
    await expectState(page, opened.path, ranged);
    await expect(page.getByRole('button', { name: /^Time range/ })).toContainText(/7 days/i);
    await page.goForward();
    await expectState(page, opened.path, scoped);
    await expect(page.getByRole('button', { name: /^Project scope/ })).toContainText(picked.name);
  });
}
