import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;
type Violation = AxeResults['violations'][number];

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

const blocking = (results: AxeResults) =>
  results.violations.filter(
    (v) => v.impact !== undefined && v.impact !== null && BLOCKING.has(v.impact),
  );

/**
 * Runs axe-core on the page as it is now and fails (softly, so one run names every state that
 * fails) with each serious or critical violation named, located and explained. With `overlay`
 * (a selector of the open menu or dialog) every rule runs on the overlay, and the rules about
 * what an overlay does to the page behind it run on the whole page: the page itself has its
 * own full pass, and a full pass per open state would cost seconds each.
 */
export async function expectNoSeriousViolations(page: Page, state: string, overlay?: string) {
  // Colours are measured at rest, not halfway through a hover or theme transition.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const found: Violation[] = [];
  if (overlay === undefined) {
    found.push(...blocking(await new AxeBuilder({ page }).withTags(TAGS).analyze()));
  } else {
    found.push(
      ...blocking(await new AxeBuilder({ page }).include(overlay).withTags(TAGS).analyze()),
      ...blocking(await new AxeBuilder({ page }).withRules(PAGE_RULES_UNDER_OVERLAY).analyze()),
    );
  }
  expect.soft(describeViolations(found), `axe on ${state}`).toBe('');
}
