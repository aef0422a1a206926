import type { Rng } from './random';
import type { Flavor } from './trace-flavors';
import { sampleTimes } from './traffic-shape';
import { scaled, type WorldContext } from './world-context';
import { DAY_MS, HOUR_MS, type Window } from './world-model';

/** What the shop's traffic looks like when one request in a hundred is traced. */
const REQUEST_MIX: readonly (readonly [Flavor, number])[] = [
  ['product_page', 24],
  ['cart_page', 11],
  ['add_to_cart', 11],
  ['checkout', 5],
  ['search', 10],
  ['mobile_product', 8],
  ['mobile_cart', 7],
  ['mobile_checkout', 3],
  ['order_worker', 8],
  ['stock_lookup', 8],
];

/** `count` request traces at moments shaped by the daily rhythm, within `window`. */
export function buildRequestTraces(ctx: WorldContext, rng: Rng, count: number, window: Window) {
  for (const t of sampleTimes(rng, count, [window])) {
    ctx.traces.build(rng, rng.weighted(REQUEST_MIX), t);
  }
}

/**
 * Two weeks of traces: sampled requests, the hourly price refresh, the nightly stock
 * reconciliation (hundreds of spans) and its weekly full run on Sundays (~5,000 spans).
 */
export function generateTraces(ctx: WorldContext): void {
  const rng = ctx.rng.fork('traces');
  const { from, to } = ctx.window;
  buildRequestTraces(ctx, rng, scaled(ctx, 6000, 40), ctx.window);

  const refreshes = scaled(ctx, 336, 6);
  const step = (to - from) / refreshes;
  for (let i = 0; i < refreshes; i++) {
    ctx.traces.build(rng, 'price_refresh', from + i * step + rng.int(200, 3000), {
      environment: 'production',
    });
  }

  const fullRun = Math.min(5000, scaled(ctx, 5000, 120));
  for (let day = Math.floor(from / DAY_MS) * DAY_MS; day < to; day += DAY_MS) {
    const at = day + 2 * HOUR_MS + rng.int(0, 90_000);
    if (at < from || at > to - HOUR_MS) continue;
    const sunday = new Date(at).getUTCDay() === 0;
    const spans = sunday ? fullRun : Math.min(800, scaled(ctx, rng.int(300, 700), 12));
    ctx.traces.build(rng, 'inventory_reconcile', at, { environment: 'production', spans });
  }
}
