import type { Page } from '@playwright/test';

/**
 * A person switching to another window or tab and back. Headless Chromium never changes a
 * page's visibility or focus by itself (every page counts as visible and focused, whatever is
 * in front), so these dispatch what a browser does: the document turns hidden or visible
 * (`visibilitychange`, which bubbles to the window), and the window loses or gains focus.
 */
export async function leavePage(page: Page): Promise<void> {
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    window.dispatchEvent(new FocusEvent('blur'));
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  });
}

export async function returnToPage(page: Page): Promise<void> {
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => 'visible',
    });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    window.dispatchEvent(new FocusEvent('focus'));
  });
}
