import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { DIALOG, expectNoSeriousViolations, MENU, seriousViolations } from './support/axe';
import type { DemoCredentials } from './support/demo';
import { expect, test } from './support/fixtures';
import { dataRowsOf, ingestEnvelope, word } from './support/telemetry';

/*
 * Accessibility of every page and of its open states (menus, pickers, dialogs, sheets): axe-core
 * finds no serious or critical violation, every key flow works from the keyboard alone, the
 * focused control always shows the focus ring, and colour never carries a state alone.
 */

type Project = DemoCredentials['projects'][number];

function projectNamed(demo: DemoCredentials, name: string): Project {
  const p = demo.projects.find((x) => x.name === name);
  if (!p) throw new Error(`the demo world has no ${name} project`);
  return p;
}
const checkout = (demo: DemoCredentials) => projectNamed(demo, 'Checkout API');
const storefront = (demo: DemoCredentials) => projectNamed(demo, 'Storefront Web');

/** How long an analytics read (overview, lifecycle, a funnel over a week) may take under load. */
const ANALYTICS_READ = 30_000;

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

const FUNNEL_STEPS = [
  { kind: 'page_view', name: 'Home' },
  { kind: 'page_view', name: 'Product' },
  { kind: 'interaction', name: 'Add to cart' },
];
const releasePath = (demo: DemoCredentials) =>
  `/releases/checkout-api@2.14.0?project=${checkout(demo).id}&since=14d&service=checkout-api&environment=production`;
const metricsPath = (demo: DemoCredentials) =>
  `/metrics?project=${checkout(demo).id}&since=24h&metric=http.server.duration`;
const funnelPath = (project: Project) =>
  `/analytics/funnels?project=${project.id}&since=7d&steps=${encodeURIComponent(JSON.stringify(FUNNEL_STEPS))}`;

/** Presses Tab (Shift+Tab with `back`) until `target` has focus; fails if it never does. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  await expect(target).toBeVisible();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`${String(target)} never got focus in ${max} presses of Tab`);
}

/** Presses `key` until `target` has focus (arrow keys in menus, lists and trees). */
async function arrowTo(page: Page, key: string, target: Locator, max = 20) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}

test('the checker finds what it exists to find, on the page and in an overlay', async ({
  page,
}) => {
  await page.goto('/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  // Hidden from assistive technology yet still reachable by Tab.
  await page.evaluate(() => {
    const hidden = document.createElement('div');
    hidden.setAttribute('aria-hidden', 'true');
    hidden.innerHTML = '<a href="/projects">Projects</a>';
    document.body.append(hidden);
  });
  expect((await seriousViolations(page)).map((v) => v.id)).toContain('aria-hidden-focus');

  await page.evaluate(() => {
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-label', 'Probe');
    dialog.innerHTML = '<button type="button"></button>';
    document.body.append(dialog);
  });
  expect((await seriousViolations(page, DIALOG)).map((v) => v.id)).toContain('button-name');
});

test.describe('axe finds no serious or critical violation', () => {
  // axe walks the whole DOM of dense pages; on a busy machine one pass takes seconds.
  test.describe.configure({ timeout: 90_000 });

  test('sign-in', async ({ page }) => {
    await page.goto('/sign-in');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expectNoSeriousViolations(page, 'sign-in');
  });

  test('projects, the account menu, the header pickers and dialogs', async ({
    signedInPage: page,
  }) => {
    await expect(page.getByRole('table')).toBeVisible();
    await expectNoSeriousViolations(page, 'projects');

    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expectNoSeriousViolations(page, 'the account menu', MENU);
    await page.getByRole('menuitem', { name: 'Contact support…' }).click();
    await expect(page.getByRole('dialog', { name: 'Contact support' })).toBeVisible();
    await expectNoSeriousViolations(page, 'the support dialog', DIALOG);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'New project' }).click();
    await expect(page.getByRole('dialog', { name: 'New project' })).toBeVisible();
    await expectNoSeriousViolations(page, 'the new project dialog', DIALOG);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: /project scope/i }).click();
    await expect(page.getByRole('checkbox').first()).toBeVisible();
    await expectNoSeriousViolations(page, 'the project scope picker', DIALOG);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: /time range/i }).click();
    await expect(page.getByRole('option').first()).toBeVisible();
    await expectNoSeriousViolations(page, 'the time range picker', DIALOG);
  });

  test('logs, a log open, the attribute picker', async ({ signedInPage: page, demo }) => {
    await page.goto(`/logs?project=${checkout(demo).id}&since=24h`);
    await expect(h1(page, 'Logs')).toBeVisible();
    await expect(dataRowsOf(page, 'Logs').first()).toBeVisible();
    await expectNoSeriousViolations(page, 'logs');

    await dataRowsOf(page, 'Logs').first().getByRole('link').click();
    const details = page.getByRole('complementary', { name: 'Log details' });
    await expect(details.getByRole('heading', { name: 'Attributes' })).toBeVisible();
    await expectNoSeriousViolations(page, 'a log’s details');
    await details
      .getByRole('button', { name: /^Actions for / })
      .first()
      .click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expectNoSeriousViolations(page, 'an attribute’s actions menu', MENU);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Attribute filter' }).click();
    await expect(page.getByRole('combobox', { name: 'Attribute path' })).toBeVisible();
    await expect(page.getByRole('listbox').getByRole('option').first()).toBeVisible();
    await expectNoSeriousViolations(page, 'the attribute path picker', DIALOG);
  });

  test('issues, an issue, its assignee picker and the Investigate sheet', async ({
    signedInPage: page,
    demo,
  }) => {
    await page.goto(`/issues?project=${checkout(demo).id}&since=14d`);
    await expect(h1(page, 'Issues')).toBeVisible();
    await expect(dataRowsOf(page, 'Issues').first()).toBeVisible();
    await expectNoSeriousViolations(page, 'issues');
    // Selecting rows shows the bulk bar; its priority menu is an open state of its own.
    await dataRowsOf(page, 'Issues').first().getByRole('checkbox').check();
    const bulk = page.getByRole('toolbar', { name: 'Bulk actions' });
    await bulk.getByRole('button', { name: 'Priority' }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expectNoSeriousViolations(page, 'the bulk priority menu', MENU);
    await page.keyboard.press('Escape');

    await dataRowsOf(page, 'Issues').first().getByRole('link').first().click();
    await expect(page.getByRole('radio', { name: 'Unresolved' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Details' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 3 }).first()).toBeVisible();
    await expectNoSeriousViolations(page, 'an issue');

    await page.getByRole('button', { name: /^Assignee/ }).click();
    await expect(
      page.getByRole('dialog', { name: 'Assign issue' }).getByText('People'),
    ).toBeVisible();
    await expectNoSeriousViolations(page, 'the assignee picker', DIALOG);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Investigate' }).click();
    const sheet = page.getByRole('dialog', { name: 'Investigate issue' });
    await expect(sheet.getByRole('region', { name: 'Coverage' })).toBeVisible();
    await expectNoSeriousViolations(page, 'the Investigate sheet', DIALOG);
  });

  test('traces and a trace with a span selected', async ({ signedInPage: page, demo }) => {
    await page.goto(`/traces?project=${checkout(demo).id}&since=24h`);
    await expect(h1(page, 'Traces')).toBeVisible();
    await expect(dataRowsOf(page, 'Traces').first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Duration over time' })).toBeVisible();
    await expectNoSeriousViolations(page, 'traces');

    await dataRowsOf(page, 'Traces').first().getByRole('link').first().click();
    const tree = page.getByRole('tree');
    await expect(tree.getByRole('treeitem').nth(1)).toBeVisible();
    await tree.getByRole('treeitem').nth(1).click();
    await expect(page.getByRole('complementary', { name: 'Span details' })).toBeVisible();
    await expectNoSeriousViolations(page, 'a trace’s waterfall with a span selected');
  });

  test('releases and a release', async ({ signedInPage: page, demo }) => {
    await page.goto(`/releases?project=${checkout(demo).id}&since=14d`);
    await expect(h1(page, 'Releases')).toBeVisible();
    await expect(dataRowsOf(page, 'Releases').first()).toBeVisible();
    await expectNoSeriousViolations(page, 'releases');

    await page.goto(releasePath(demo));
    await expect(h1(page, 'checkout-api@2.14.0')).toBeVisible();
    await expect(page.getByTestId('deployment').first()).toBeVisible();
    await expectNoSeriousViolations(page, 'a release');
  });

  test('metrics and usage', async ({ signedInPage: page, demo }) => {
    await page.goto(metricsPath(demo));
    await expect(h1(page, 'Metrics')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Series' }).first()).toBeVisible();
    await expectNoSeriousViolations(page, 'metrics');

    await page.goto('/usage');
    await expect(h1(page, 'Usage')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Series' })).toBeVisible();
    await expectNoSeriousViolations(page, 'usage');
  });

  test('alerts: rules, the rule editor, history, webhooks and the add dialog', async ({
    signedInPage: page,
    demo,
  }) => {
    const project = checkout(demo).id;
    await page.goto(`/alerts?project=${project}`);
    await expect(h1(page, 'Alerts')).toBeVisible();
    await expectNoSeriousViolations(page, 'alert rules');

    await page.goto(`/alerts/new?kind=log&project=${project}&severity=error`);
    await expect(h1(page, 'New alert rule')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Preview: the last 24 hours' })).toBeVisible();
    await expectNoSeriousViolations(page, 'the rule editor');

    await page.goto(`/alerts/history?project=${project}`);
    await expect(page.getByRole('link', { name: 'History' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expectNoSeriousViolations(page, 'alert history');

    await page.goto('/alerts/webhooks');
    await expect(page.getByRole('link', { name: 'Webhooks' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expectNoSeriousViolations(page, 'webhooks');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await expect(page.getByRole('dialog', { name: 'Add a webhook' })).toBeVisible();
    await expectNoSeriousViolations(page, 'the add webhook dialog', DIALOG);
  });

  test('analytics, a computed funnel, the step picker, and plan', async ({
    signedInPage: page,
    demo,
  }) => {
    await page.goto(`/analytics?project=${storefront(demo).id}&since=7d`);
    // The page waits for its first analytics reads, heavy on a busy machine.
    await expect(h1(page, 'Analytics')).toBeVisible({ timeout: ANALYTICS_READ });
    await expect(page.getByRole('table').first()).toBeVisible();
    await expectNoSeriousViolations(page, 'analytics');

    await page.goto(funnelPath(storefront(demo)));
    // A funnel over a week of sessions is a heavy read on a busy machine.
    await expect(
      page.getByRole('table', { name: 'Steps, as the service counted them' }),
    ).toBeVisible({ timeout: ANALYTICS_READ });
    await expect(page.getByRole('img', { name: /^Funnel chart/ })).toBeVisible();
    await expectNoSeriousViolations(page, 'a computed funnel');
    await page.getByRole('button', { name: 'Add step' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Add a step' }).getByRole('option').first(),
    ).toBeVisible();
    await expectNoSeriousViolations(page, 'the funnel step picker', DIALOG);
    await page.keyboard.press('Escape');

    await page.goto('/plan');
    await expect(h1(page, 'Plan')).toBeVisible();
    await expectNoSeriousViolations(page, 'plan');
  });
});

test.describe('axe finds no serious or critical violation in the dark theme', () => {
  test.describe.configure({ timeout: 90_000 });

  test('logs with a log open, and issues', async ({ signedInPage: page, demo }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`/logs?project=${checkout(demo).id}&since=24h`);
    await dataRowsOf(page, 'Logs').first().getByRole('link').click();
    const details = page.getByRole('complementary', { name: 'Log details' });
    await expect(details.getByRole('heading', { name: 'Attributes' })).toBeVisible();
    await expectNoSeriousViolations(page, 'logs with a log open, dark');

    await page.goto(`/issues?project=${checkout(demo).id}&since=14d`);
    await expect(dataRowsOf(page, 'Issues').first()).toBeVisible();
    await expectNoSeriousViolations(page, 'issues, dark');
  });
});

test.describe('every key flow works from the keyboard alone', () => {
  test('the navigation: Tab to a page, Enter, Shift+Tab back to another', async ({
    signedInPage: page,
  }) => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    await tabTo(page, nav.getByRole('link', { name: 'Logs' }));
    await page.keyboard.press('Enter');
    await expect(h1(page, 'Logs')).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Logs' })).toHaveAttribute('aria-current', 'page');
    await tabTo(page, nav.getByRole('link', { name: 'Issues' }), { back: true });
    await page.keyboard.press('Enter');
    await expect(h1(page, 'Issues')).toBeVisible();
  });

  test('the first Tab offers a skip link past the navigation to the page', async ({
    signedInPage: page,
  }) => {
    await page.locator('body').focus();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'New project' })).toBeFocused();
  });

  test('the account menu opens with Enter, moves with arrows, closes with Escape', async ({
    signedInPage: page,
  }) => {
    const trigger = page.getByRole('button', { name: 'Account menu' });
    await tabTo(page, trigger);
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await arrowTo(page, 'ArrowDown', menu.getByRole('menuitem', { name: 'Contact support…' }));
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(trigger).toBeFocused();
    // Space opens it too.
    await page.keyboard.press('Space');
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(trigger).toBeFocused();
  });

  test('dialogs: opened from the keyboard, closed with Escape, focus back on the trigger', async ({
    signedInPage: page,
  }) => {
    const newProject = page.getByRole('button', { name: 'New project' });
    await tabTo(page, newProject);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await expect(dialog).toBeVisible();
    await expect(dialog.locator(':focus')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(newProject).toBeFocused();

    // A dialog opened from a menu item gives focus back to the menu's trigger.
    const account = page.getByRole('button', { name: 'Account menu' });
    await tabTo(page, account);
    await page.keyboard.press('Enter');
    await arrowTo(page, 'ArrowDown', page.getByRole('menuitem', { name: 'Contact support…' }));
    await page.keyboard.press('Enter');
    const support = page.getByRole('dialog', { name: 'Contact support' });
    await expect(support).toBeVisible();
    await expect(support.locator(':focus')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(support).toBeHidden();
    await expect(account).toBeFocused();
  });

  test('logs: filter by typing, open a log with Enter, close it with Escape', async ({
    signedInPage: page,
    demo,
    request,
  }) => {
    const project = checkout(demo);
    const w = word();
    await ingestEnvelope(request, project.ingest_key, {
      service_name: `a11y-${w}`,
      logs: ['first', 'second'].map((n, i) => ({
        id: randomUUID(),
        occurred_at: new Date(Date.now() - i * 1000).toISOString(),
        severity: 'warning',
        message: `keyboard ${n} ${w}`,
      })),
    });
    await page.goto(`/logs?project=${project.id}&since=1h`);
    await expect(dataRowsOf(page, 'Logs').first()).toBeVisible();
    const search = page.getByRole('searchbox', { name: 'Search messages' });
    await tabTo(page, search);
    await page.keyboard.type(w);
    await page.keyboard.press('Enter');
    await expect(dataRowsOf(page, 'Logs')).toHaveCount(2);

    const link = page.getByRole('link', { name: `keyboard second ${w}` });
    await tabTo(page, link);
    await page.keyboard.press('Enter');
    const details = page.getByRole('complementary', { name: 'Log details' });
    await expect(details).toContainText(`keyboard second ${w}`);
    await expect(details.getByRole('heading', { name: 'Log details' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(details).toBeHidden();
    await expect(link).toBeFocused();
  });

  test('an issue’s status changes with the arrow keys and is saved', async ({
    signedInPage: page,
    demo,
    request,
  }) => {
    const project = checkout(demo);
    const service = `a11y-${word()}`;
    await ingestEnvelope(request, project.ingest_key, {
      service_name: service,
      issues: [
        {
          id: randomUUID(),
          occurred_at: new Date().toISOString(),
          severity: 'error',
          title: `Keyboard triage ${service}`,
          message: 'keyboard triage',
          fingerprint: service,
          exception: { type: 'Error', value: 'keyboard triage' },
        },
      ],
    });
    const issueId = await issueIdOf(request, demo, service);
    await page.goto(`/issues/${issueId}`);
    const unresolved = page.getByRole('radio', { name: 'Unresolved' });
    await expect(unresolved).toBeChecked();
    await tabTo(page, unresolved);
    await page.keyboard.press('ArrowRight');
    const resolved = page.getByRole('radio', { name: 'Resolved', exact: true });
    await expect(resolved).toBeChecked();
    await expect(resolved).toBeFocused();
    await expect.poll(() => statusOf(request, demo, issueId)).toBe('resolved');
    await page.reload();
    await expect(resolved).toBeChecked();
  });

  test('traces: open a trace with Enter, move through spans with arrows, select one', async ({
    signedInPage: page,
    demo,
  }) => {
    await page.goto(`/traces?project=${checkout(demo).id}&since=24h`);
    const first = dataRowsOf(page, 'Traces').first().getByRole('link').first();
    await tabTo(page, first);
    await page.keyboard.press('Enter');
    const tree = page.getByRole('tree');
    const items = tree.getByRole('treeitem');
    await expect(items.nth(1)).toBeVisible();
    await tabTo(page, items.first());
    await page.keyboard.press('ArrowDown');
    await expect(items.nth(1)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(items.nth(1)).toHaveAttribute('aria-selected', 'true');
    const details = page.getByRole('complementary', { name: 'Span details' });
    await expect(details).toBeVisible();
  });
});

async function issueIdOf(request: APIRequestContext, demo: DemoCredentials, service: string) {
  const res = await request.get('/api/telemetry/issues', {
    headers: { Authorization: `Bearer ${demo.account_token}` },
    params: { service_name: service, since: '1h' },
  });
  expect(res.status()).toBe(200);
  const issues = (await res.json()) as { id: string }[];
  expect(issues).toHaveLength(1);
  return issues[0]!.id;
}

async function statusOf(request: APIRequestContext, demo: DemoCredentials, issueId: string) {
  const res = await request.get(`/api/telemetry/issues/${issueId}`, {
    headers: { Authorization: `Bearer ${demo.account_token}` },
  });
  return ((await res.json()) as { status: string }).status;
}

/**
 * Whether the focused element shows a focus indicator: an outline, or a box-shadow it does not
 * have unfocused, on itself or on its wrapper. The unfocused look is read from a shallow clone
 * placed beside it for a moment, so nothing moves focus while it is measured.
 */
async function focusIndicator(page: Page): Promise<{ what: string; visible: boolean } | null> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!(el instanceof HTMLElement) || el === document.body) return null;
    const what = `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[role=${el.getAttribute('role')}]` : ''} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
    const look = (e: Element) => {
      const s = getComputedStyle(e);
      const outline =
        s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0
          ? `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`
          : '';
      return { outline, shadow: s.boxShadow };
    };
    const shows = (e: HTMLElement) => {
      const rect = e.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) return false;
      const focused = look(e);
      if (focused.outline) return true;
      if (focused.shadow === 'none') return false;
      const clone = e.cloneNode(false) as HTMLElement;
      clone.removeAttribute('id');
      clone.style.position = 'absolute';
      clone.style.visibility = 'hidden';
      e.after(clone);
      const resting = look(clone);
      clone.remove();
      return resting.shadow !== focused.shadow;
    };
    // A control drawn by its wrapper (a hidden radio in its label, a field in its box).
    const parent = el.parentElement;
    const visible = shows(el) || (parent !== null && shows(parent));
    return { what, visible };
  });
}

test.describe('the focused control always shows the focus ring', () => {
  test.describe.configure({ timeout: 90_000 });

  const PAGES: { path: (demo: DemoCredentials) => string; heading: string }[] = [
    { path: () => '/projects', heading: 'Projects' },
    { path: (d) => `/issues?project=${checkout(d).id}&since=14d`, heading: 'Issues' },
    { path: (d) => `/logs?project=${checkout(d).id}&since=24h`, heading: 'Logs' },
    { path: (d) => `/traces?project=${checkout(d).id}&since=24h`, heading: 'Traces' },
    { path: (d) => `/releases?project=${checkout(d).id}&since=14d`, heading: 'Releases' },
    { path: (d) => `/metrics?project=${checkout(d).id}&since=24h`, heading: 'Metrics' },
    { path: (d) => `/analytics?project=${storefront(d).id}&since=7d`, heading: 'Analytics' },
    { path: (d) => funnelPath(storefront(d)), heading: 'Funnels' },
    { path: () => '/usage', heading: 'Usage' },
    { path: () => '/plan', heading: 'Plan' },
  ];

  for (const half of [0, 1]) {
    test(`pages ${half === 0 ? 'projects to releases' : 'metrics to plan'}`, async ({
      signedInPage: page,
      demo,
    }) => {
      const missing: string[] = [];
      for (const p of PAGES.slice(half * 5, half * 5 + 5)) {
        await page.goto(p.path(demo));
        await expect(h1(page, p.heading)).toBeVisible({ timeout: ANALYTICS_READ });
        await page.locator('body').focus();
        // Through the shell into the page's own controls.
        for (let i = 0; i < 30; i++) {
          await page.keyboard.press('Tab');
          const focus = await focusIndicator(page);
          if (focus && !focus.visible) missing.push(`${p.heading}: ${focus.what}`);
        }
      }
      expect(missing, 'focused without a visible indicator').toEqual([]);
    });
  }
});

test.describe('colour is never the only carrier of a state', () => {
  const SEVERITY = /^(Info|Warning|Error|Critical)/;

  test('log and issue severities, issue priorities and trace errors are words too', async ({
    signedInPage: page,
    demo,
  }) => {
    await page.goto(`/logs?project=${checkout(demo).id}&since=24h`);
    const logs = dataRowsOf(page, 'Logs');
    await expect(logs.first()).toBeVisible();
    for (const row of (await logs.all()).slice(0, 10))
      await expect(row.getByRole('cell').first()).toHaveText(SEVERITY);

    await page.goto(`/issues?project=${checkout(demo).id}&since=14d`);
    const issues = dataRowsOf(page, 'Issues');
    await expect(issues.first()).toBeVisible();
    for (const row of (await issues.all()).slice(0, 10)) {
      // A word boundary: the severity is not run together with the title ("WarningError: …").
      await expect(row.getByRole('cell').nth(1)).toHaveText(/^(Info|Warning|Error|Critical)\b/);
      await expect(row.getByRole('cell').nth(6)).toHaveText(/^(High|Medium|Low)/);
    }

    await page.goto(`/traces?project=${checkout(demo).id}&since=14d&status=error`);
    const traces = dataRowsOf(page, 'Traces');
    await expect(traces.first()).toBeVisible();
    for (const row of (await traces.all()).slice(0, 10))
      await expect(row).toContainText(/\d+ errors?/);
    await expect(page.getByRole('list', { name: 'Legend' })).toContainText('With error spans');

    await traces.first().getByRole('link').first().click();
    const failed = page.locator('[role="treeitem"][data-error]');
    await expect(failed.first()).toBeVisible();
    for (const item of (await failed.all()).slice(0, 5)) await expect(item).toContainText('error');
  });

  test('deployment status, quota state and chart series are named', async ({
    signedInPage: page,
    demo,
  }) => {
    await page.goto(releasePath(demo));
    const deployments = page.getByTestId('deployment');
    await expect(deployments.first()).toBeVisible();
    for (const d of await deployments.all()) await expect(d).toContainText(/Succeeded|Failed/);

    await page.goto('/usage');
    await expect(page.getByRole('status').or(page.getByRole('alert')).first()).toContainText(
      /Within every allowance|% of an allowance used|allowance used up/,
    );
    const streams = page.getByRole('list', { name: 'Series' }).getByRole('listitem');
    await expect(streams.first()).toBeVisible();
    for (const item of await streams.all()) await expect(item).toHaveText(/\w/);

    await page.goto(metricsPath(demo));
    const series = page.getByRole('list', { name: 'Series' }).first().getByRole('listitem');
    await expect(series.first()).toBeVisible();
    for (const item of await series.all()) await expect(item).toHaveText(/\w/);

    await page.goto(`/analytics?project=${storefront(demo).id}&since=7d`);
    const states = page.getByRole('list', { name: 'Lifecycle states' }).getByRole('listitem');
    await expect(states).toHaveCount(4, { timeout: ANALYTICS_READ });
    for (const [i, label] of ['New', 'Returning', 'Resurrecting', 'Dormant'].entries())
      await expect(states.nth(i)).toContainText(label);
  });
});
