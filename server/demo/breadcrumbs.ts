import type { IssueItemInput } from '../ingest/item-schemas';
import type { Rng } from './random';
import { PRODUCTS } from './trace-flavors';
import type { Platform } from './world-model';

export type Breadcrumb = NonNullable<IssueItemInput['breadcrumbs']>[number];

/** SDKs keep the most recent breadcrumbs only; older ones are dropped and flagged. */
const SDK_BREADCRUMB_LIMIT = 20;

const WEB_PAGES = ['/', '/search?q=tee', '/cart', '/checkout', '/account/orders'];
const SCREENS = ['HomeScreen', 'ProductScreen', 'CartScreen', 'CheckoutScreen', 'OrdersScreen'];

const productPath = (rng: Rng) => `/product/${rng.pick(PRODUCTS).slug}`;

function browserCrumb(rng: Rng, state: { page: string }): Omit<Breadcrumb, 'timestamp'> {
  const kind = rng.weighted([
    ['navigation', 3],
    ['ui.click', 4],
    ['http', 4],
    ['console', 2],
  ] as const);
  switch (kind) {
    case 'navigation': {
      const pages = WEB_PAGES.filter((p) => p !== state.page);
      const to = rng.chance(0.5) ? productPath(rng) : rng.pick(pages);
      const crumb = { category: 'navigation', type: 'navigation', data: { from: state.page, to } };
      state.page = to;
      return crumb;
    }
    case 'ui.click':
      return {
        category: 'ui.click',
        type: 'user',
        message: rng.pick([
          'button#add-to-cart',
          'a.product-card > img',
          'button.checkout-cta',
          'input#coupon-code',
          'nav > a[href="/cart"]',
          'button[aria-label="Increase quantity"]',
        ]),
      };
    case 'http': {
      const status = rng.weighted([
        [200, 20],
        [201, 3],
        [304, 2],
        [404, 1],
        [500, 1],
      ] as const);
      return {
        category: 'http',
        type: 'http',
        ...(status >= 500 ? { level: 'error' } : status >= 400 ? { level: 'warn' } : {}),
        data: {
          method: rng.pick(['GET', 'GET', 'POST']),
          url: rng.pick(['/api/cart/{id}', '/api/products/{id}', '/api/search?q=tee', '/checkout']),
          status_code: status,
          duration_ms: Math.round(rng.logNormal(140, 0.6)),
        },
      };
    }
    case 'console':
      return {
        category: 'console',
        type: 'debug',
        level: rng.pick(['debug', 'info', 'warn']),
        message: rng.pick([
          '[cart] hydrated from localStorage',
          'Slow network detected, deferring recommendations',
          '[analytics] queue flushed (4 events)',
          'Image with src "/img/hero.avif" was detected as the LCP element',
        ]),
      };
  }
}

function backendCrumb(rng: Rng): Omit<Breadcrumb, 'timestamp'> {
  const kind = rng.weighted([
    ['http', 3],
    ['query', 4],
    ['cache', 2],
    ['log', 2],
  ] as const);
  switch (kind) {
    case 'http':
      return {
        category: 'http',
        type: 'http',
        data: {
          method: rng.pick(['GET', 'POST']),
          url: rng.pick([
            'http://pricing.internal:8080/quote',
            'http://inventory.internal:8080/stock',
            'http://payments.internal:8080/charges',
          ]),
          status_code: rng.weighted([
            [200, 12],
            [201, 3],
            [409, 1],
            [503, 1],
          ] as const),
        },
      };
    case 'query':
      return {
        category: 'query',
        type: 'query',
        message: rng.pick([
          'SELECT * FROM carts WHERE id = $1',
          'SELECT * FROM cart_items WHERE cart_id = $1',
          'UPDATE stock_levels SET reserved = reserved + $2 WHERE sku = $1',
          'INSERT INTO payment_attempts (id, order_ref, amount, currency) VALUES ($1, $2, $3, $4)',
        ]),
        data: { duration_ms: Math.round(rng.logNormal(2, 0.8) * 10) / 10 },
      };
    case 'cache':
      return {
        category: 'cache',
        type: 'default',
        message: `GET cart:${rng.hex(8)}`,
        data: { hit: rng.chance(0.8) },
      };
    case 'log':
      return {
        category: 'log',
        type: 'default',
        level: rng.pick(['info', 'debug', 'warn']),
        message: rng.pick([
          'loaded cart with 3 lines',
          'retrying request (attempt 2/3)',
          'feature flag new_checkout=true',
          'quote cached for 60s',
        ]),
      };
  }
}

function mobileCrumb(rng: Rng, state: { page: string }): Omit<Breadcrumb, 'timestamp'> {
  const kind = rng.weighted([
    ['navigation', 3],
    ['ui.tap', 4],
    ['http', 3],
    ['app.lifecycle', 1],
  ] as const);
  switch (kind) {
    case 'navigation': {
      const to = rng.pick(SCREENS.filter((p) => p !== state.page));
      const crumb = { category: 'navigation', type: 'navigation', data: { from: state.page, to } };
      state.page = to;
      return crumb;
    }
    case 'ui.tap':
      return {
        category: 'ui.tap',
        type: 'user',
        message: rng.pick([
          'AddToCartButton',
          'CartTab',
          'CheckoutButton',
          'ProductTile',
          'ApplePayButton',
        ]),
      };
    case 'http':
      return {
        category: 'http',
        type: 'http',
        data: {
          method: 'GET',
          url: rng.pick([
            'https://api.acme.dev/api/cart/{id}',
            'https://api.acme.dev/api/products/{id}',
          ]),
          status_code: rng.chance(0.93) ? 200 : 503,
        },
      };
    case 'app.lifecycle':
      return {
        category: 'app.lifecycle',
        type: 'navigation',
        message: rng.pick(['foreground', 'background']),
      };
  }
}

/**
 * The trail an SDK recorded before an error at `at`, oldest first; `null` when the SDK sent
 * none. Long trails are cut to the SDK's limit and flagged as truncated.
 */
export function breadcrumbsFor(
  rng: Rng,
  platform: Platform,
  at: number,
): { breadcrumbs: Breadcrumb[]; truncated: boolean } | null {
  if (platform === 'datastore') return null;
  // Some Python and JVM services run without breadcrumb integrations.
  if ((platform === 'python' || platform === 'jvm') && rng.chance(0.4)) return null;
  const count = Math.max(1, Math.round(rng.logNormal(9, 0.6)));
  const state = { page: platform === 'browser' ? '/' : 'HomeScreen' };
  const crumbs: Omit<Breadcrumb, 'timestamp'>[] = [];
  for (let i = 0; i < count; i++) {
    crumbs.push(
      platform === 'browser'
        ? browserCrumb(rng, state)
        : platform === 'ios' || platform === 'android'
          ? mobileCrumb(rng, state)
          : backendCrumb(rng),
    );
  }
  // Walk back from the error: the newest breadcrumb is moments before it.
  let t = at - rng.int(5, 400);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    times.push(t);
    t -= Math.round(
      rng.logNormal(
        platform === 'browser' || platform === 'ios' || platform === 'android' ? 4000 : 300,
        0.9,
      ),
    );
  }
  times.reverse();
  const all = crumbs.map((c, i) => ({ timestamp: new Date(times[i] ?? at).toISOString(), ...c }));
  const truncated = all.length > SDK_BREADCRUMB_LIMIT;
  return { breadcrumbs: truncated ? all.slice(-SDK_BREADCRUMB_LIMIT) : all, truncated };
}
