/**
 * The trace waterfall in headless Chromium: traces of 1,000, 10,000 and 100,000 spans (a deep
 * and wide tree over six services, with errors and orphans), sent through the real ingest
 * route; for each, the time from the span list's response to the first rows painted, and
 * frame times while scrolling the tree.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { spawnBenchService } from './spawn-bench-service';

export type WaterfallCase = {
  spans: number;
  errors: number;
  orphans: number;
  max_depth: number;
  /** Bytes of the span list response (JSON, uncompressed). */
  response_mb: number;
  /** Bytes the browser received for it (compressed when the service compresses). */
  transfer_mb: number;
  /** The browser's span list read: request start to response end. */
  read_ms: number;
  /**
   * The service reading and sending the span list to a client on this machine, request to
   * last byte, median of 3: uncompressed, and brotli-compressed (as a browser accepts it).
   */
  service_ms: number;
  service_br_ms: number;
  /** From the span list's response end to the first span rows painted. */
  first_render_ms: number;
  /** From the navigation start to the first span rows painted (app start and the read included). */
  open_ms: number;
  frames: number;
  frame_p50_ms: number;
  frame_p95_ms: number;
  frame_max_ms: number;
  js_heap_mb: number | null;
};

const root = path.resolve(import.meta.dirname, '..');
const BATCH = 5000;
const SCROLL_SPEED = 3000;
const SCROLL_PX = 24_000;
const MAX_DEPTH = 30;

const SERVICES = [
  { name: 'gateway', ops: ['http.server'], names: ['GET /checkout', 'POST /orders', 'GET /cart'] },
  {
    name: 'checkout-api',
    ops: ['http.server', 'internal'],
    names: ['POST /checkout', 'validateCart', 'applyDiscount', 'buildOrder'],
  },
  {
    name: 'inventory',
    ops: ['http.server', 'queue.process'],
    names: ['POST /reservations', 'ReservationService.reserve', 'reconcile batch'],
  },
  { name: 'payments', ops: ['http.client'], names: ['POST /charges', 'POST /v1/payment_intents'] },
  {
    name: 'postgres',
    ops: ['db.query'],
    names: ['SELECT stock_levels', 'UPDATE stock_levels', 'INSERT reservations', 'SELECT carts'],
  },
  {
    name: 'redis',
    ops: ['cache.get'],
    names: ['GET cart:{id}', 'GET tax:{region}', 'SET session'],
  },
] as const;

/** A small deterministic generator, so every run sends the same shape. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type GenSpan = { start: number; duration: number; depth: number; parent: number };

/** A trace of `count` spans over six services, with errors (0.4%) and orphans (0.1%). */
export function generateTrace(count: number, now: number) {
  const r = rng(count);
  const traceId = randomBytes(16).toString('hex');
  const prefix = randomBytes(2).toString('hex');
  const spanId = (i: number) => `${prefix}${i.toString(16).padStart(12, '0')}`;
  const rootDuration = Math.max(2000, count * 0.6);
  const startMs = now - rootDuration - 60_000;
  const gen: GenSpan[] = [{ start: startMs, duration: rootDuration, depth: 0, parent: -1 }];
  let errors = 0;
  let orphans = 0;
  let maxDepth = 0;
  const items: object[] = [];
  const push = (i: number, g: GenSpan, orphan: boolean) => {
    const service = SERVICES[g.depth === 0 ? 0 : 1 + ((i * 7 + g.depth) % (SERVICES.length - 1))];
    if (!service) throw new Error('no service');
    const error = i > 0 && r() < 0.004;
    if (error) errors++;
    items.push({
      id: randomUUID(),
      trace_id: traceId,
      span_id: spanId(i),
      parent_span_id: orphan
        ? `ffff${i.toString(16).padStart(12, '0')}`
        : g.parent < 0
          ? null
          : spanId(g.parent),
      name: service.names[i % service.names.length],
      operation: service.ops[i % service.ops.length],
      kind: g.depth === 0 ? 'server' : 'internal',
      service_name: service.name,
      started_at: new Date(Math.floor(g.start)).toISOString(),
      duration_ms: Number(g.duration.toFixed(3)),
      ...(error
        ? { status: 'error', status_message: `Timeout after ${Math.round(g.duration)} ms` }
        : {}),
      attributes: { 'db.rows': i % 50, region: i % 2 === 0 ? 'eu-west-1' : 'us-east-1' },
    });
  };
  push(0, gen[0] as GenSpan, false);
  let last = 0;
  for (let i = 1; i < count; i++) {
    const roll = r();
    // Deeper under the latest span, a sibling of it, or back to the root or an early span,
    // so the tree is deep in places and wide across the whole trace.
    let parent = last;
    if (roll > 0.3) parent = Math.max(0, (gen[last] as GenSpan).parent);
    if (roll > 0.75) parent = r() < 0.3 ? 0 : Math.floor(r() * Math.min(i, 500));
    while ((gen[parent] as GenSpan).depth >= MAX_DEPTH) parent = (gen[parent] as GenSpan).parent;
    const p = gen[parent] as GenSpan;
    const start = p.start + r() * p.duration * 0.9;
    const duration = Math.max(0.004, (p.start + p.duration - start) * (0.1 + 0.8 * r()));
    const g = { start, duration, depth: p.depth + 1, parent };
    gen.push(g);
    maxDepth = Math.max(maxDepth, g.depth);
    const orphan = r() < 0.001;
    if (orphan) orphans++;
    push(i, g, orphan);
    last = i;
  }
  return { traceId, items, errors, orphans, maxDepth };
}

async function ingest(baseUrl: string, ingestKey: string, items: object[]) {
  for (let from = 0; from < items.length; from += BATCH) {
    const res = await fetch(`${baseUrl}/api/telemetry/ingest`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ingestKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        release: 'shop@4.2.0',
        environment: 'production',
        service_name: 'gateway',
        trace_spans: items.slice(from, from + BATCH),
      }),
    });
    if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  }
}

// Strings, not functions: tsx would wrap inner functions in a helper the page lacks.
const WATCH_FIRST_ROW = `(() => {
  const found = () => {
    if (window.__firstRowAt !== undefined || !document.querySelector('[role="treeitem"]')) return;
    window.__firstRowAt = -1;
    requestAnimationFrame(() => { window.__firstRowAt = performance.now(); });
  };
  new MutationObserver(found).observe(document, { childList: true, subtree: true });
})()`;

/** Request to last byte of the span list, median of `runs`, with the given Accept-Encoding. */
async function serviceRead(
  baseUrl: string,
  token: string,
  projectId: string,
  traceId: string,
  acceptEncoding: string,
  runs = 3,
): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const req = http.get(
        `${baseUrl}/api/telemetry/traces/${traceId}?project_id=${projectId}`,
        { headers: { Authorization: `Bearer ${token}`, 'Accept-Encoding': acceptEncoding } },
        (res) => {
          if (res.statusCode !== 200) reject(new Error(`span list answered ${res.statusCode}`));
          res.on('data', () => undefined);
          res.on('end', resolve);
          res.on('error', reject);
        },
      );
      req.on('error', reject);
    });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)] ?? 0);
}

async function measureOne(page: Page, baseUrl: string, projectId: string, traceId: string) {
  await page.goto(`${baseUrl}/traces/${traceId}?project=${projectId}`);
  await page.getByRole('treeitem').first().waitFor({ timeout: 120_000 });
  await page.waitForFunction('window.__firstRowAt > 0');
  const timing = (await page.evaluate(`(() => {
    const entry = performance.getEntriesByType('resource').find((e) =>
      e.name.includes('/api/telemetry/traces/${traceId}') && !e.name.includes('/summary'));
    return { responseEnd: entry ? entry.responseEnd : null, bytes: entry ? entry.decodedBodySize : 0,
             transferred: entry ? entry.encodedBodySize : 0,
             read: entry ? entry.responseEnd - entry.requestStart : 0,
             firstRowAt: window.__firstRowAt };
  })()`)) as {
    responseEnd: number | null;
    bytes: number;
    transferred: number;
    read: number;
    firstRowAt: number;
  };
  if (timing.responseEnd === null) throw new Error('the span list request was not seen');
  // Scrolling is measured once the page has settled (the summary read and its redraw done).
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1000);

  await page.evaluate(`(() => {
    const el = document.querySelector('[role="tree"]').parentElement;
    el.setAttribute('data-bench-scroller', '');
    el.scrollTop = 0;
    window.__frames = [];
    window.__stopFrames = false;
    let last = performance.now();
    const tick = (t) => {
      window.__frames.push(t - last);
      last = t;
      if (!window.__stopFrames) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  const scroller = page.locator('[data-bench-scroller]');
  const box = await scroller.boundingBox();
  const room = (await page.evaluate(
    `(() => { const el = document.querySelector('[data-bench-scroller]'); return el.scrollHeight - el.clientHeight; })()`,
  )) as number;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.synthesizeScrollGesture', {
    x: Math.round((box?.x ?? 0) + (box?.width ?? 0) / 2),
    y: Math.round((box?.y ?? 0) + (box?.height ?? 0) / 2),
    yDistance: -Math.min(SCROLL_PX, Math.max(0, room - 10)),
    speed: SCROLL_SPEED,
    gestureSourceType: 'mouse',
  });
  await cdp.detach();
  const frames = (await page.evaluate(
    `(() => { window.__stopFrames = true; return window.__frames.slice(2); })()`,
  )) as number[];
  if (process.env.BENCH_FRAMES_DEBUG) console.error(frames.map((f) => Math.round(f)).join(' '));
  const heap = (await page.evaluate(
    `(() => performance.memory ? performance.memory.usedJSHeapSize : null)()`,
  )) as number | null;
  const sorted = [...frames].sort((a, b) => a - b);
  const pct = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  return {
    response_mb: Number((timing.bytes / 1024 / 1024).toFixed(1)),
    transfer_mb: Number((timing.transferred / 1024 / 1024).toFixed(1)),
    read_ms: Math.round(timing.read),
    first_render_ms: Math.round(timing.firstRowAt - timing.responseEnd),
    open_ms: Math.round(timing.firstRowAt),
    frames: frames.length,
    frame_p50_ms: Number(pct(0.5).toFixed(1)),
    frame_p95_ms: Number(pct(0.95).toFixed(1)),
    frame_max_ms: Number((sorted[sorted.length - 1] ?? 0).toFixed(1)),
    js_heap_mb: heap === null ? null : Number((heap / 1024 / 1024).toFixed(0)),
  };
}

export async function measureTraceWaterfall(
  sizes: readonly number[] = [1_000, 10_000, 100_000],
): Promise<WaterfallCase[]> {
  const service = await spawnBenchService({ LOOKOUT_STATIC_DIR: path.join(root, 'dist') });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--enable-precise-memory-info'],
  });
  try {
    const project = service.creds.projects[0];
    if (!project) throw new Error('the bench service has no project');
    const traces = [];
    for (const size of sizes) {
      const trace = generateTrace(size, Date.now());
      await ingest(service.baseUrl, project.ingest_key, trace.items);
      traces.push({ size, ...trace });
    }
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${service.baseUrl}/sign-in`);
    await page.getByLabel('Email').fill(service.creds.email);
    await page.getByLabel('Password').fill(service.creds.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    await page.addInitScript({ content: WATCH_FIRST_ROW });

    const out: WaterfallCase[] = [];
    for (const t of traces) {
      const token = service.creds.account_token;
      const read = (enc: string) => serviceRead(service.baseUrl, token, project.id, t.traceId, enc);
      const service_ms = await read('identity');
      const service_br_ms = await read('br');
      const figures = await measureOne(page, service.baseUrl, project.id, t.traceId);
      out.push({
        spans: t.size,
        errors: t.errors,
        orphans: t.orphans,
        max_depth: t.maxDepth,
        service_ms,
        service_br_ms,
        ...figures,
      });
    }
    return out;
  } finally {
    await browser.close();
    await service.stop();
  }
}
