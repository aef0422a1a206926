/**
 * The logs explorer in headless Chromium: load 100,000 rows by scrolling (the page follows
 * `next_cursor` as the end comes into view), then scroll through them and record frame times.
 */
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { seedLogs } from './log-reads';
import { spawnBenchService } from './spawn-bench-service';

export type LogScrollReport = {
  rows_loaded: number;
  load_seconds: number;
  frames: number;
  frame_p50_ms: number;
  frame_p95_ms: number;
  frame_max_ms: number;
  js_heap_mb: number | null;
};

const root = path.resolve(import.meta.dirname, '..');
const HOUR = 3_600_000;
/** A brisk wheel scroll: 3,000 px/s is about 107 rows a second, 30,000 px about 1,070 rows. */
const SCROLL_SPEED = 3000;
const SCROLL_PX = 30_000;

export async function measureLogScroll(rows: number): Promise<LogScrollReport> {
  const service = await spawnBenchService({ LOOKOUT_STATIC_DIR: path.join(root, 'dist') });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--enable-precise-memory-info'],
  });
  try {
    const project = service.creds.projects[0];
    // All rows in one project within the default 24 h range.
    await seedLogs(service.baseUrl, project ? [project] : [], rows, { spanMs: 20 * HOUR });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${service.baseUrl}/sign-in`);
    await page.getByLabel('Email').fill(service.creds.email);
    await page.getByLabel('Password').fill(service.creds.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    await page.goto(`${service.baseUrl}/logs?project=${project?.id ?? ''}`);
    const table = page.getByRole('table', { name: 'Logs' });
    await table.waitFor();

    // The element that scrolls the list: the table or its nearest scrolling ancestor.
    await table.evaluate((el) => {
      let node: HTMLElement | null = el as HTMLElement;
      while (
        node &&
        !(node.scrollHeight > node.clientHeight && getComputedStyle(node).overflowY !== 'visible')
      )
        node = node.parentElement;
      node?.setAttribute('data-bench-scroller', '');
    });
    const scroller = page.locator('[data-bench-scroller]');
    const loaded = async () => Number(await table.getAttribute('aria-rowcount')) - 1;

    const started = performance.now();
    let count = await loaded();
    let stalled = 0;
    while (count < rows && stalled < 50) {
      await scroller.evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
      await page.waitForTimeout(20);
      const now = await loaded();
      stalled = now > count ? 0 : stalled + 1;
      count = now;
    }
    const loadSeconds = (performance.now() - started) / 1000;

    // Back to the top, then a steady fast scroll to the bottom, one step per frame.
    // Frame times while Chromium itself scrolls the list (a synthesized wheel gesture, as
    // its own smoothness benchmarks do), recorded by requestAnimationFrame in the page.
    // Strings, not functions: tsx would wrap inner functions in a helper the page lacks.
    await page.evaluate(`(() => {
      const el = document.querySelector('[data-bench-scroller]');
      el.scrollTop = Math.floor(el.scrollHeight / 2);
      window.__frames = [];
      let last = performance.now();
      const tick = (t) => {
        window.__frames.push(t - last);
        last = t;
        if (!window.__stopFrames) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    })()`);
    const box = await scroller.boundingBox();
    const cdpScroll = await page.context().newCDPSession(page);
    await cdpScroll.send('Input.synthesizeScrollGesture', {
      x: Math.round((box?.x ?? 0) + (box?.width ?? 0) / 2),
      y: Math.round((box?.y ?? 0) + (box?.height ?? 0) / 2),
      yDistance: -SCROLL_PX,
      speed: SCROLL_SPEED,
      gestureSourceType: 'mouse',
    });
    const frames = (await page.evaluate(
      `(() => { window.__stopFrames = true; return window.__frames.slice(2); })()`,
    )) as number[];
    const heap = await page.evaluate(() => {
      const m = (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory;
      return m ? m.usedJSHeapSize : null;
    });
    const sorted = [...frames].sort((a, b) => a - b);
    const pct = (p: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
    return {
      rows_loaded: count,
      load_seconds: Number(loadSeconds.toFixed(1)),
      frames: frames.length,
      frame_p50_ms: Number(pct(0.5).toFixed(1)),
      frame_p95_ms: Number(pct(0.95).toFixed(1)),
      frame_max_ms: Number((sorted[sorted.length - 1] ?? 0).toFixed(1)),
      js_heap_mb: heap === null ? null : Number((heap / 1024 / 1024).toFixed(0)),
    };
  } finally {
    await browser.close();
    await service.stop();
  }
}
