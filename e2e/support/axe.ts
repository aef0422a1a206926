import axe from 'axe-core';
import { expect, type Page } from '@playwright/test';

type Violation = axe.Result;

const BLOCKING = new Set(['serious', 'critical']);

/** WCAG 2.x A and AA, plus axe's best practices (landmarks, headings, names). */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** What an open overlay does to the page behind it (a modal hiding focusable content). */
const PAGE_RULES_UNDER_OVERLAY = ['aria-hidden-focus', 'aria-hidden-body'];

/** The overlays of the console: Radix menus, and dialogs (popovers and sheets are dialogs). */
export const MENU = '[role="menu"]';
export const DIALOG = '[role="dialog"], [role="alertdialog"]';

/** One line per failing node: the rule, where, what it asks, and the first reason given. */
export function describeViolations(violations: readonly Violation[]): string {
  return violations
    .flatMap((v) =>
      v.nodes.map((n) => {
        const why = [...n.any, ...n.all, ...n.none][0]?.message ?? '';
        return `[${v.impact}] ${v.id} at ${n.target.join(' ')}: ${v.help}. ${why}`;
      }),
    )
    .join('\n');
}

type Run = { include: string | null; options: axe.RunOptions };

/**
 * Runs axe-core in the page itself, injecting it once per document. (@axe-core/playwright
 * injected its 550 KB source twice per run and finished each run in a new blank page: seconds
 * per run on a busy machine, a third of the e2e suite's time. The console has no iframes.)
 */
async function violationsOf(page: Page, run: Run): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const results = await page.evaluate(async ({ include, options }) => {
    const engine = (window as unknown as { axe: typeof axe }).axe;
    return engine.run(include ?? document, options);
  }, run);
  return results.violations.filter(
    (v) => v.impact !== undefined && v.impact !== null && BLOCKING.has(v.impact),
  );
}

/**
 * The serious and critical violations on the page as it is now. With `overlay` (a selector of
 * the open menu or dialog) every rule runs on the overlay, and the rules about what an overlay
 * does to the page behind it run on the whole page: the page itself has its own full pass, and
 * a full pass per open state would cost seconds each.
 */
export async function seriousViolations(page: Page, overlay?: string): Promise<Violation[]> {
  // Colours are measured at rest, not halfway through a hover or theme transition.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const byTags: axe.RunOptions = { runOnly: { type: 'tag', values: TAGS } };
  if (overlay === undefined) return violationsOf(page, { include: null, options: byTags });
  return [
    ...(await violationsOf(page, { include: overlay, options: byTags })),
    ...(await violationsOf(page, {
      include: null,
      options: { runOnly: { type: 'rule', values: PAGE_RULES_UNDER_OVERLAY } },
    })),
  ];
}

/**
 * Fails (softly, so one run names every state that fails) with each serious or critical
 * violation named, located and explained.
 */
export async function expectNoSeriousViolations(page: Page, state: string, overlay?: string) {
  const found = await seriousViolations(page, overlay);
  expect.soft(describeViolations(found), `axe on ${state}`).toBe('');
}
