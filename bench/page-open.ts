/**
 * Page open times on the demo world (scale 1, as `npm start` seeds it) in headless Chromium:
 * for each page, from the navigation's start to its first useful content painted (rows of the
 * list, the chart's marks, the waterfall's spans; a skeleton or a spinner does not count),
 * with the page's slowest service read beside it. Each page is opened as a fresh document
 * (a reload: nothing cached in the console), several times.
 */
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { spawnBenchService, type BenchService } from './spawn-bench-service';

export type PageOpenCase = {
  page: string;
  path: string;
  /** What counted as content. */
  content: string;
  runs: number;
  p50_ms: number;
  p95_ms: number;
  /** The slowest `/api` read of the page's opening (p50 over runs), and which one. */
  slowest_read_ms: number;
  slowest_read: string;
};

export type PageOpenResult = {
  demo_scale: number;
  seed_seconds: number;
  cases: PageOpenCase[];
};

const root = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 7);

type PageCase = {
  name: string;
  /** The page's path and search, given the demo's ids. */
  path: (ids: DemoIds) => string;
  /** A CSS selector whose first match is the page's first useful content. */
  selector: string;
  content: string;
};

type DemoIds = {
  /** The project of the largest trace (the backend's). */
  projectId: string;
  /** The project with the most product actions (the storefront's). */
  actionsProjectId: string;
  issueId: string;
  bigTraceId: string;
  release: { release: string; environment: string; service_name: string };
};

const CASES: PageCase[] = [
  {
    name: 'projects',
    path: () => '/projects',
    selector: 'table td',
    content: 'project rows',
  },
  {
    name: 'issues',
    path: () => '/issues',
    selector: '[role="row"] [role="cell"]',
    content: 'issue rows',
  },
  {
    name: 'issue',
    path: (d) => `/issues/${d.issueId}`,
    selector: 'ol[aria-label="Stack frames"] li, pre',
    content: 'the stack of the latest occurrence',
  },
  {
    name: 'logs',
    path: () => '/logs',
    selector: '[role="row"] [role="cell"]',
    content: 'log rows',
  },
  {
    name: 'traces',
    path: () => '/traces',
    selector: '[role="row"] [role="cell"]',
    content: 'trace rows',
  },
  {
    name: 'trace of 5,000 spans',
    path: (d) => `/traces/${d.bigTraceId}?project=${d.projectId}`,
    selector: '[role="treeitem"]',
    content: 'span rows',
  },
  {
    name: 'releases',
    path: () => '/releases',
    selector: '[role="row"] [role="cell"]',
    content: 'release rows',
  },
  {
    name: 'release',
    path: (d) =>
      `/releases/${encodeURIComponent(d.release.release)}?project=${d.projectId}&environment=${encodeURIComponent(d.release.environment)}&service=${encodeURIComponent(d.release.service_name)}`,
    selector: 'section[aria-label="Release summary"]',
    content: 'release summary figures',
  },
  {
    name: 'metrics',
    path: (d) => `/metrics?project=${d.projectId}`,
    selector: '.recharts-surface .recharts-curve',
    content: 'chart series',
  },
  {
    name: 'analytics overview',
    path: (d) => `/analytics?project=${d.actionsProjectId}`,
    selector: '.recharts-surface .recharts-rectangle',
    content: 'chart bars',
  },
  {
    name: 'funnel of 3 steps',
    path: (d) =>
      `/analytics/funnels?project=${d.actionsProjectId}&steps=${encodeURIComponent(JSON.stringify(FUNNEL))}`,
    selector: 'table td',
    content: 'step figures',
  },
  {
    name: 'usage',
    path: () => '/usage',
    selector: '.recharts-surface .recharts-rectangle',
    content: 'usage bars',
  },
  {
    name: 'plan',
    path: () => '/plan',
    selector: 'dl dd',
    content: 'plan details',
  },
];

const FUNNEL = [
  { kind: 'page_view', name: 'Home' },
  { kind: 'page_view', name: 'Product' },
  { kind: 'interaction', name: 'Add to cart' },
];

// A string, not a function: tsx would wrap inner functions in a helper the page lacks.
const watchContent = (selector: string) => `(() => {
  const check = () => {
    if (window.__contentAt !== undefined || !document.querySelector(${JSON.stringify(selector)})) return;
    window.__contentAt = -1;
    requestAnimationFrame(() => { window.__contentAt = performance.now(); });
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
})()`;

async function api<T>(service: BenchService, p: string): Promise<T> {
  const res = await fetch(`${service.baseUrl}${p}`, {
    headers: { Authorization: `Bearer ${service.creds.account_token}` },
  });
  if (!res.ok) throw new Error(`${p} answered ${res.status}`);
  return (await res.json()) as T;
}

/** The demo's ids the pages need: its busiest project, an issue, its largest trace, a release. */
async function demoIds(service: BenchService): Promise<DemoIds> {
  const issues = await api<{ id: string; project_id: string; occurrence_count: number }[]>(
    service,
    '/api/telemetry/issues?limit=100&since=14d',
  );
  const issue = [...issues].sort((a, b) => b.occurrence_count - a.occurrence_count)[0];
  if (!issue) throw new Error('the demo world has no issue');
  const traces = await api<{ trace_id: string; project_ids: string[]; span_count: number }[]>(
    service,
    '/api/telemetry/traces?limit=100&since=14d&min_duration_ms=1000',
  );
  const big = [...traces].sort((a, b) => b.span_count - a.span_count)[0];
  if (!big) throw new Error('the demo world has no long trace');
  const projectId = big.project_ids[0] ?? issue.project_id;
  const releases = await api<{ release: string; environment: string; service_name: string }[]>(
    service,
    `/api/telemetry/releases?project_id=${projectId}&limit=1&since=14d`,
  );
  const release = releases[0];
  if (!release) throw new Error('the demo world has no release');
  let actionsProjectId = projectId;
  let most = -1;
  for (const p of service.creds.projects) {
    const overview = await api<{ totals: { events: number } }>(
      service,
      `/api/telemetry/analytics/overview?project_id=${p.id}&since=1d`,
    );
    if (overview.totals.events > most) [most, actionsProjectId] = [overview.totals.events, p.id];
  }
  return { projectId, actionsProjectId, issueId: issue.id, bigTraceId: big.trace_id, release };
}

async function openOnce(page: Page, url: string, selector: string) {
  await page.addInitScript({ content: watchContent(selector) });
  await page.goto(url);
  await page
    .waitForFunction('window.__contentAt > 0', undefined, { timeout: 60_000 })
    .catch((error: unknown) => {
      throw new Error(`no ${selector} on ${url}: ${String(error)}`);
    });
  return (await page.evaluate(`(() => {
    const reads = performance.getEntriesByType('resource')
      .filter((e) => e.name.includes('/api/') && !e.name.includes('/api/feed/'))
      .map((e) => ({ name: new URL(e.name).pathname, ms: e.responseEnd - e.startTime }))
      .sort((a, b) => b.ms - a.ms);
    return { at: window.__contentAt, slowest: reads[0] || { name: '', ms: 0 } };
  })()`)) as { at: number; slowest: { name: string; ms: number } };
}

const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
};

export async function measurePageOpen(scale = 1): Promise<PageOpenResult> {
  const started = Date.now();
  const service = await spawnBenchService({
    LOOKOUT_STATIC_DIR: path.join(root, 'dist'),
    LOOKOUT_DEMO_SCALE: String(scale),
  });
  const seedSeconds = (Date.now() - started) / 1000;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const ids = await demoIds(service);
    // The console's CSP forbids evaluating strings, which Playwright's wait for a condition does.
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      bypassCSP: true,
    });
    const signIn = await context.newPage();
    await signIn.goto(`${service.baseUrl}/sign-in`);
    await signIn.getByLabel('Email').fill(service.creds.email);
    await signIn.getByLabel('Password').fill(service.creds.password);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await signIn.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    // The sign-in tab stays open, as a person's console does while they open a link in a new
    // tab: the browser is warm, and each measured page is still a fresh document.

    const cases: PageOpenCase[] = [];
    // `BENCH_PAGES_ONLY=metrics,usage` measures only the pages named.
    const only = process.env.BENCH_PAGES_ONLY?.split(',');
    for (const c of CASES.filter((x) => !only || only.includes(x.name))) {
      const times: number[] = [];
      const reads: { name: string; ms: number }[] = [];
      for (let i = 0; i < RUNS; i++) {
        // A page of its own each time: init scripts of earlier cases do not pile up.
        const page = await context.newPage();
        const once = await openOnce(page, `${service.baseUrl}${c.path(ids)}`, c.selector);
        times.push(once.at);
        reads.push(once.slowest);
        await page.close();
      }
      const slowest = [...reads].sort((a, b) => a.ms - b.ms)[Math.floor(reads.length / 2)];
      cases.push({
        page: c.name,
        path: c.path(ids),
        content: c.content,
        runs: RUNS,
        // The first open warms the engine's caches as a person's first click would; the
        // figures keep it (a person's first open is a real open).
        p50_ms: Math.round(pct(times, 0.5)),
        p95_ms: Math.round(pct(times, 0.95)),
        slowest_read_ms: Math.round(slowest?.ms ?? 0),
        slowest_read: slowest?.name ?? '',
      });
    }
    return { demo_scale: scale, seed_seconds: Number(seedSeconds.toFixed(1)), cases };
  } finally {
    await browser.close();
    await service.stop();
  }
}
