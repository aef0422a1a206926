import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { HOSTILE, hostileWorld, type HostileWorld } from '../server/test-support/hostile-corpus';
import { hasBidiControls, markBidiControls } from '../src/lib/bidi-controls';
import { OWN_SERVICE_START_MS, startOwnService, type OwnService } from './support/own-service';
import { expect, signInThroughForm, test } from './support/fixtures';
import { liveIndicator, word } from './support/telemetry';

/**
 * Hostile telemetry (markup, script, style, `javascript:`/`data:` URLs, bidi overrides,
 * zero-width characters, 1 MiB strings, deep nesting, prompt-like text) on every page that
 * shows it: nothing runs, nothing is fetched from elsewhere, no CSP violation, no page error;
 * the text reads as sent, a bidi override never reorders the console's own words, and the page
 * stays usable (no horizontal overflow, long values wrapped or cut with the whole reachable).
 */

test.describe.configure({ mode: 'serial', timeout: 60_000 });

const CSP = 'csp-violation:';
/** Where the screenshots go, to be looked at (`HOSTILE_SCREENSHOTS` moves them out of the run's output). */
const SHOTS = process.env.HOSTILE_SCREENSHOTS ?? 'test-results/hostile-input';

let service: OwnService;
let context: BrowserContext;
let page: Page;
let w: HostileWorld;
let projectId: string;
let ingestKey: string;
let accountToken: string;
let issueId: string;
const problems: string[] = [];

async function post(path: string, key: string, body: unknown) {
  const res = await fetch(`${service.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.text()).toBe(200);
}

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${service.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${accountToken}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

function watch(p: Page, origin: string) {
  p.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  p.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  p.on('console', (m) => {
    if (m.text().startsWith(CSP)) problems.push(m.text());
  });
  p.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol !== 'data:' && url.origin !== origin) problems.push(`request to ${r.url()}`);
  });
}

async function open(browser: Browser) {
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript((prefix) => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`${prefix} ${e.violatedDirective} ${e.blockedURI}`);
    });
  }, CSP);
  page = await context.newPage();
  watch(page, service.baseUrl);
}

test.beforeAll(async ({ browser }) => {
  // A service of its own starts in seconds; on a busy machine, in more than a test's 30 s.
  test.setTimeout(OWN_SERVICE_START_MS);
  service = await startOwnService();
  const creds = service.credentials();
  const project = creds.projects[0];
  if (!project) throw new Error('the demo world has no project');
  projectId = project.id;
  ingestKey = project.ingest_key;
  accountToken = creds.account_token;
  w = hostileWorld(word(), Date.now());
  await post('/api/telemetry/ingest', ingestKey, w.native);
  await post('/v1/events', ingestKey, w.sdk);
  const issues = await getJson<{ id: string; fingerprint: string }[]>(
    `/api/telemetry/issues?project_id=${projectId}&since=24h`,
  );
  const issue = issues.find((i) => i.fingerprint === w.issue.fingerprint);
  if (!issue) throw new Error('the hostile issue was not grouped');
  issueId = issue.id;
  await open(browser);
  await signInThroughForm(page, creds.email, creds.password, service.baseUrl);
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
});

test.beforeEach(() => {
  problems.length = 0;
});

test.afterAll(async () => {
  await context?.close();
  await service?.dispose();
});

const url = (path: string, search: Record<string, string> = {}) =>
  `${service.baseUrl}${path}?${new URLSearchParams({ project: projectId, ...search }).toString()}`;

/**
 * Whether a visible element inside `within` holds `text` exactly, as one text node: zero-width
 * and bidi characters included (Playwright's text matching drops U+200B and is slow on the
 * 1 MiB values), and as text, since markup would have become elements.
 */
const holdsText = (within: Locator, text: string) =>
  within.evaluate((root, t) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode())
      if ((n.textContent ?? '').includes(t) && n.parentElement?.checkVisibility()) return true;
    return false;
  }, text);

/**
 * Whether a visible element holds `text` with each bidi control shown as its marker
 * (`⟨RLO⟩`, an element of its own): the element's whole text, markers included.
 */
const holdsMarked = (within: Locator, text: string) =>
  within.evaluate((root, t) => {
    for (const marker of root.querySelectorAll('[data-bidi-control]')) {
      const el = marker.parentElement;
      if ((el?.textContent ?? '').includes(t) && el?.checkVisibility()) return true;
    }
    return false;
  }, markBidiControls(text));

const shown = (within: Locator, text: string) =>
  expect
    .poll(
      async () =>
        hasBidiControls(text)
          ? // As markers (elements), or as tokens in plain text (an option).
            (await holdsMarked(within, text)) || holdsText(within, markBidiControls(text))
          : holdsText(within, text),
      {
        message: text.slice(0, 80),
        timeout: 15_000,
      },
    )
    .toBe(true);

const body = () => page.locator('body');

/**
 * Every check a page with hostile data must pass, then a screenshot to look at: nothing ran
 * or was fetched, no markup from telemetry became an element, no horizontal overflow, and
 * every text carrying a bidi override sits in an element of its own that isolates it.
 */
async function expectSafe(name: string) {
  // The whole page when it is of a size a screenshot can hold, else what is in view.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: height <= 4_000 });
  const report = await page.evaluate(() => {
    const injected = document.querySelectorAll(
      '[onerror], [onload], img[src="x"], svg circle[r="40"], p[style*="evil"], a[href^="javascript:" i], a[href^="data:" i], a[href*="evil.example"]',
    ).length;
    const overflow = document.documentElement.scrollWidth - window.innerWidth;
    // What sticks out, innermost first, to say where the overflow comes from.
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .filter(
        (el) =>
          ![...el.children].some((c) => c.getBoundingClientRect().right > window.innerWidth + 1),
      )
      .slice(0, 5)
      .map((el) => `${el.tagName}.${el.className}`);
    const leaks: string[] = [];
    // Bidi controls are shown as markers, never applied: no visible text holds one (besides
    // the FSI … PDI pair `isolateText` wraps option text in).
    const applied: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent ?? '';
      const inner = /^\u2068[^]*\u2069$/.test(text) ? text.slice(1, -1) : text;
      if (
        /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/.test(inner) &&
        n.parentElement?.checkVisibility()
      )
        applied.push(
          `${n.parentElement.tagName}.${n.parentElement.className}: ${JSON.stringify(text.slice(0, 60))}`,
        );
      // Text that isolates itself (FSI … PDI, as `isolateText` writes it) needs no element.
      if (!/[\u202E\u2066-\u2068]/.test(text) || /^\u2068[^]*\u2069$/.test(text)) continue;
      const el = n.parentElement;
      if (!el) continue;
      const style = getComputedStyle(el);
      const isolated = ['isolate', 'isolate-override', 'plaintext'].includes(style.unicodeBidi);
      // An override reorders what follows it in its paragraph: nothing inline may follow.
      let next = n.nextSibling;
      while (
        next &&
        next instanceof Element &&
        !getComputedStyle(next).display.startsWith('inline')
      )
        next = next.nextSibling;
      const alone = style.display !== 'inline' && next === null;
      if (!isolated && !alone) leaks.push(`${el.tagName}.${el.className}: ${text.slice(0, 60)}`);
    }
    return { injected, overflow, wide, leaks, applied };
  });
  expect(problems, name).toEqual([]);
  expect(report.injected, `${name}: elements made from telemetry`).toBe(0);
  expect(
    report.overflow,
    `${name}: horizontal overflow by ${report.wide.join(', ')}`,
  ).toBeLessThanOrEqual(0);
  expect(report.leaks, `${name}: bidi text not isolated`).toEqual([]);
  expect(report.applied, `${name}: bidi controls applied instead of shown`).toEqual([]);
}

test('logs list and log detail', async () => {
  await page.goto(url('/logs'));
  await shown(body(), `${w.tag} ${HOSTILE.img}`);
  await expectSafe('logs-list');

  await page.goto(url('/logs', { log: w.ids.log }));
  const detail = page.getByRole('complementary', { name: 'Log details' });
  await shown(detail, HOSTILE.script);
  await shown(detail, HOSTILE.javascriptUrl);
  // The 1 MiB attribute is cut to its start, the whole a click away.
  await expect(detail.getByRole('button', { name: 'Show all 1,048,576 characters' })).toBeVisible();
  await shown(body(), HOSTILE.zeroWidth);
  await shown(body(), HOSTILE.rlo);
  // The override is a visible token that says what it is, and the name reads as it was sent.
  const marker = detail.locator('[data-bidi-control="U+202E"]').first();
  await expect(marker).toHaveText('⟨RLO⟩');
  await expect(marker).toHaveAttribute('title', /RIGHT-TO-LEFT OVERRIDE/);
  await expectSafe('log-detail');
  await marker.scrollIntoViewIfNeeded();
  await detail.screenshot({ path: `${SHOTS}/log-detail-bidi-marker.png` });
});

test('issues board and issue detail: stack, breadcrumbs, attributes', async () => {
  await page.goto(url('/issues'));
  await shown(body(), `${w.tag} ${HOSTILE.script}`);
  await expectSafe('issues-board');

  await page.goto(`${service.baseUrl}/issues/${issueId}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(HOSTILE.script);
  // The stack's file names, as parsed frames: text, never links.
  await shown(body(), HOSTILE.javascriptUrl);
  await shown(body(), 'data:text/html,<script>alert("frame")</script>');
  await shown(body(), HOSTILE.prompt);
  await shown(body(), HOSTILE.styleAttr);
  await shown(body(), HOSTILE.isolates);
  const crumbs = page.getByRole('table', { name: 'Breadcrumbs' });
  await shown(crumbs, 'ui.click <b>not bold</b>');
  await shown(crumbs, HOSTILE.prompt);
  await shown(crumbs, HOSTILE.dataUrl);
  await crumbs.screenshot({ path: `${SHOTS}/issue-breadcrumbs.png` });
  const attributes = page.getByRole('list', { name: 'Attributes' }).first();
  await shown(attributes, HOSTILE.script);
  await attributes.screenshot({ path: `${SHOTS}/issue-attributes.png` });
  await expect(page.getByRole('button', { name: 'Investigate' })).toBeVisible();
  await expectSafe('issue-detail');
});

test('the Investigate sheet of an issue', async () => {
  await page.goto(`${service.baseUrl}/issues/${issueId}`);
  await page.getByRole('button', { name: 'Investigate' }).click();
  const sheet = page.getByRole('dialog', { name: 'Investigate issue' });
  await expect(sheet.getByText('Application data').first()).toBeVisible();
  await shown(sheet, `at render (${HOSTILE.javascriptUrl}:1:1)`);
  await shown(sheet, HOSTILE.prompt);
  await expectSafe('issue-investigate');
  await page.keyboard.press('Escape');
});

test('traces list, trace waterfall and span detail, and the Investigate sheet of a trace', async () => {
  await page.goto(url('/traces'));
  await shown(body(), `GET /${w.tag} ${HOSTILE.script}`);
  await expectSafe('traces-list');

  await page.goto(url(`/traces/${w.traceId}`, { span: w.rootSpanId }));
  await shown(body(), `${w.tag} child ${HOSTILE.svg}`);
  await shown(body(), HOSTILE.dataUrl);
  await expectSafe('trace-detail');

  await page.goto(url(`/traces/${w.traceId}`, { span: w.childSpanId }));
  await shown(body(), `SELECT '${HOSTILE.script}'`);
  await expectSafe('span-detail');

  await page.getByRole('button', { name: 'Investigate' }).first().click();
  const sheet = page.getByRole('dialog', { name: /^Investigate/ });
  await expect(sheet.getByText('Application data').first()).toBeVisible();
  await shown(sheet, `${w.tag} child ${HOSTILE.svg}`);
  await expectSafe('trace-investigate');
  await page.keyboard.press('Escape');
});

test('releases list and release detail', async () => {
  await page.goto(url('/releases'));
  await shown(body(), `${w.tag}@1.0.0 ${HOSTILE.bold}`);
  await shown(body(), w.context.release);
  await expectSafe('releases-list');

  await page
    .getByRole('link', { name: markBidiControls(w.context.release) })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`${w.tag}@1.0.0`);
  await shown(body(), w.context.service_name);
  await expectSafe('release-detail');
});

test('metrics, analytics overview and funnels', async () => {
  await page.goto(url('/metrics', { metric: w.metric.name }));
  await shown(body(), w.metric.name);
  await expectSafe('metrics');

  await page.goto(url('/analytics'));
  await shown(body(), w.action.name);
  await expectSafe('analytics-overview');

  const steps = [
    { kind: 'interaction', name: w.action.name },
    { kind: 'page_view', name: w.nextAction.name },
  ];
  await page.goto(url('/analytics/funnels', { steps: JSON.stringify(steps) }));
  await shown(body(), w.nextAction.name);
  await expectSafe('funnels');
});

test('the live feed', async () => {
  await page.goto(url('/logs'));
  await expect(liveIndicator(page)).toHaveAccessibleName(/^Live feed: Live/, { timeout: 15_000 });
  const live = hostileWorld(word(), Date.now());
  await post('/api/telemetry/ingest', ingestKey, {
    ...live.context,
    logs: [live.log],
    issues: [live.issue],
  });
  await expect(liveIndicator(page)).toHaveAccessibleName(/^Live feed: Live, \d+ new$/);
  await liveIndicator(page).click();
  const panel = page.getByRole('dialog', { name: 'Latest live events' });
  await shown(panel, `${live.tag} ${HOSTILE.img}`);
  await shown(panel, `${live.tag} ${HOSTILE.script}`);
  await expectSafe('live-feed');
});
