import { hash32, type Rng } from './random';
import type { Flavor, MobileApp } from './trace-flavors';
import { PRODUCTS } from './trace-flavors';
import { SERVICES, type ServiceName } from './world-model';

/**
 * The errors the shop has: each entry becomes one issue group (its stack frames and exception
 * type give it a stable fingerprint across releases). `base` is the number of occurrences at
 * scale 1: a few are noisy, most are rare. `timing` says when it happens.
 */
export type Frame = { fn: string; file: string; line: number; col?: number; code?: string };

export type Timing =
  | { kind: 'steady' }
  /** Only while one of these releases runs (of `service`, default the group's own). */
  | { kind: 'release'; releases: readonly string[]; service?: ServiceName }
  /** An incident: `minutes` long, starting `daysAgo` days before today at `hourUtc`. */
  | { kind: 'burst'; daysAgo: number; hourUtc: number; minutes: number }
  /** In the hours after each deployment of the service (stale browser chunks). */
  | { kind: 'after-deploy'; hours: number }
  /** While the nightly stock reconciliation runs. */
  | { kind: 'nightly' };

export type TraceLink = {
  /** Share of occurrences that come with a trace. */
  share: number;
  flavors: readonly Flavor[];
  /** The span that fails (its tag in `trace-flavors.ts`). */
  tag: string;
  /** The span the occurrence points at, when not the failing one. */
  linkTag?: string;
  /** The trace fails with another group's exception (a browser error caused by the API). */
  causeKey?: string;
  httpStatus?: number;
  minDurationMs?: number;
  app?: MobileApp;
  /** Size of a failing inventory reconciliation. */
  spans?: number;
};

export type IssueGroup = {
  key: string;
  service: ServiceName;
  severity: 'info' | 'warning' | 'error' | 'critical';
  exceptionType: string | null;
  message: (rng: Rng) => string;
  frames: readonly Frame[] | null;
  base: number;
  timing: Timing;
  trace?: TraceLink;
  /** An explicit grouping key, as an SDK's `fingerprint` option would send. */
  fingerprint?: string;
  title?: string;
  /** The request the error happened in, for backend attributes. */
  route?: string;
  extra?: (rng: Rng) => Record<string, unknown>;
};

const js = (fn: string, file: string, line: number, col: number): Frame => ({
  fn,
  file,
  line,
  col,
});
const py = (fn: string, file: string, line: number, code: string): Frame => ({
  fn,
  file,
  line,
  code,
});
const jvm = (fn: string, file: string, line: number): Frame => ({ fn, file, line });

const sku = (rng: Rng) => rng.pick(PRODUCTS).sku;

export const ISSUE_CATALOG: readonly IssueGroup[] = [
  // Storefront Web (browser)
  {
    key: 'web-product-price',
    service: 'storefront-web',
    severity: 'error',
    exceptionType: 'TypeError',
    message: () => "Cannot read properties of undefined (reading 'price')",
    frames: [
      js('ProductCard', 'src/components/ProductCard.tsx', 42, 17),
      js('renderWithHooks', 'node_modules/react-dom/cjs/react-dom.production.js', 5610, 22),
      js('updateFunctionComponent', 'node_modules/react-dom/cjs/react-dom.production.js', 7312, 20),
      js('beginWork', 'node_modules/react-dom/cjs/react-dom.production.js', 9146, 16),
    ],
    base: 1100,
    timing: { kind: 'steady' },
    trace: { share: 0.15, flavors: ['product_page'], tag: 'web.root' },
    extra: (rng) => ({ product: { sku: sku(rng), variant_count: rng.int(0, 4) } }),
  },
  {
    key: 'web-chunk-load',
    service: 'storefront-web',
    severity: 'error',
    exceptionType: 'ChunkLoadError',
    message: (rng) =>
      `Loading chunk ${rng.int(100, 999)} failed. (error: https://shop.acme.dev/assets/${rng.hex(8)}.js)`,
    frames: [
      js('HTMLScriptElement.onScriptComplete', 'src/runtime/load-script.ts', 41, 19),
      js('loadRoute', 'src/router/lazy-route.ts', 17, 12),
    ],
    base: 260,
    timing: { kind: 'after-deploy', hours: 3 },
  },
  {
    key: 'web-failed-fetch',
    service: 'storefront-web',
    severity: 'error',
    exceptionType: 'TypeError',
    message: () => 'Failed to fetch',
    frames: [
      js('fetchCart', 'src/api/cart.ts', 27, 11),
      js('async loadCart', 'src/stores/cart-store.ts', 58, 5),
      js('async CartPage.load', 'src/pages/cart/CartPage.tsx', 21, 3),
    ],
    base: 380,
    timing: { kind: 'steady' },
    trace: { share: 0.1, flavors: ['cart_page'], tag: 'web.fetch', httpStatus: 0 },
  },
  {
    key: 'web-checkout-json',
    service: 'storefront-web',
    severity: 'error',
    exceptionType: 'SyntaxError',
    message: () => `Unexpected token '<', "<!DOCTYPE "... is not valid JSON`,
    frames: [
      js('parseResponse', 'src/api/client.ts', 44, 23),
      js('async placeOrder', 'src/checkout/place-order.ts', 31, 18),
      js('async CheckoutForm.onSubmit', 'src/checkout/CheckoutForm.tsx', 88, 7),
    ],
    base: 420,
    // The API's bad release answers with the gateway's HTML error page.
    timing: { kind: 'release', releases: ['checkout-api@2.14.0'], service: 'checkout-api' },
    trace: {
      share: 0.3,
      flavors: ['checkout'],
      tag: 'api.discount',
      linkTag: 'web.fetch',
      causeKey: 'api-discount-currency',
      httpStatus: 502,
    },
  },
  {
    key: 'web-gtag',
    service: 'storefront-web',
    severity: 'warning',
    exceptionType: 'ReferenceError',
    message: () => 'gtag is not defined',
    frames: [
      js('trackEvent', 'src/analytics/track.ts', 12, 3),
      js('onClick', 'src/components/AddToCartButton.tsx', 23, 7),
    ],
    base: 150,
    timing: { kind: 'steady' },
  },
  {
    key: 'web-abort',
    service: 'storefront-web',
    severity: 'info',
    exceptionType: 'AbortError',
    message: () => 'The user aborted a request.',
    frames: [
      js('abortableFetch', 'src/api/client.ts', 19, 9),
      js('async SearchBox.query', 'src/search/SearchBox.tsx', 52, 20),
    ],
    base: 90,
    timing: { kind: 'steady' },
  },
  {
    key: 'web-invalid-date',
    service: 'storefront-web',
    severity: 'error',
    exceptionType: 'RangeError',
    message: () => 'Invalid time value',
    frames: [
      js('formatOrderDate', 'src/utils/dates.ts', 8, 27),
      js('OrderHistoryRow', 'src/account/OrderHistoryRow.tsx', 31, 15),
    ],
    base: 45,
    timing: { kind: 'release', releases: ['web@1.8.1', 'web@1.8.2'] },
  },
  {
    key: 'web-hydration',
    service: 'storefront-web',
    severity: 'warning',
    exceptionType: 'Error',
    message: () =>
      'Minified React error #418; visit https://react.dev/errors/418 for the full message',
    frames: [
      js(
        'throwOnHydrationMismatch',
        'node_modules/react-dom/cjs/react-dom.production.js',
        3121,
        11,
      ),
      js('hydrateRoot', 'src/entry-client.tsx', 14, 3),
    ],
    base: 120,
    timing: { kind: 'steady' },
  },
  {
    key: 'web-local-storage',
    service: 'storefront-web',
    severity: 'error',
    exceptionType: 'SecurityError',
    message: () =>
      "Failed to read the 'localStorage' property from 'Window': Access is denied for this document.",
    frames: [js('loadPersistedCart', 'src/stores/persist.ts', 9, 22)],
    base: 12,
    timing: { kind: 'steady' },
  },
  // Checkout API (Node)
  {
    key: 'api-discount-currency',
    service: 'checkout-api',
    severity: 'error',
    exceptionType: 'TypeError',
    message: () => "Cannot read properties of undefined (reading 'currency')",
    frames: [
      js('applyDiscount', 'src/checkout/discounts.ts', 58, 31),
      js('CheckoutService.total', 'src/checkout/service.ts', 112, 18),
      js('async placeOrder', 'src/routes/checkout.ts', 41, 5),
      js('async dispatch', 'node_modules/hono/dist/compose.js', 22, 17),
    ],
    base: 820,
    timing: { kind: 'release', releases: ['checkout-api@2.14.0'] },
    trace: { share: 0.35, flavors: ['checkout', 'mobile_checkout'], tag: 'api.discount' },
    route: 'POST /checkout',
    extra: (rng) => ({ cart: { lines: rng.int(1, 4), currency: null, coupon: 'SPRING15' } }),
  },
  {
    key: 'api-payments-timeout',
    service: 'checkout-api',
    severity: 'error',
    exceptionType: 'TimeoutError',
    message: () => 'Request to payments timed out after 5000ms',
    frames: [
      js('Timeout._onTimeout', 'src/clients/http-client.ts', 88, 14),
      js('listOnTimeout', 'node:internal/timers', 573, 17),
      js('process.processTimers', 'node:internal/timers', 514, 7),
    ],
    base: 160,
    timing: { kind: 'steady' },
    trace: {
      share: 0.3,
      flavors: ['checkout'],
      tag: 'payments.client',
      httpStatus: 504,
      minDurationMs: 5000,
    },
    route: 'POST /checkout',
  },
  {
    key: 'api-quantity-validation',
    service: 'checkout-api',
    severity: 'warning',
    exceptionType: 'ValidationError',
    message: () => '"quantity" must be less than or equal to 99',
    frames: [
      js('validateCartItem', 'src/cart/validation.ts', 21, 11),
      js('async addItem', 'src/routes/cart.ts', 33, 5),
    ],
    base: 140,
    timing: { kind: 'steady' },
    trace: { share: 0.1, flavors: ['add_to_cart'], tag: 'api.server', httpStatus: 422 },
    route: 'POST /api/cart/{id}/items',
  },
  {
    key: 'api-duplicate-order',
    service: 'checkout-api',
    severity: 'error',
    exceptionType: 'QueryFailedError',
    message: () => 'duplicate key value violates unique constraint "orders_idempotency_key_key"',
    frames: [
      js(
        'PostgresQueryRunner.query',
        'node_modules/typeorm/driver/postgres/PostgresQueryRunner.js',
        219,
        19,
      ),
      js('async OrderRepository.create', 'src/orders/repository.ts', 47, 9),
      js('async placeOrder', 'src/routes/checkout.ts', 52, 19),
    ],
    base: 35,
    timing: { kind: 'steady' },
    route: 'POST /checkout',
  },
  {
    key: 'api-redis-oom',
    service: 'checkout-api',
    severity: 'error',
    exceptionType: 'ReplyError',
    message: () => "OOM command not allowed when used memory > 'maxmemory'.",
    frames: [
      js('parseError', 'node_modules/redis-parser/lib/parser.js', 179, 12),
      js('RedisCache.set', 'src/cache/redis-cache.ts', 31, 11),
      js('async saveCart', 'src/cart/store.ts', 64, 3),
    ],
    base: 70,
    timing: { kind: 'burst', daysAgo: 3, hourUtc: 16.6, minutes: 14 },
    trace: { share: 0.2, flavors: ['add_to_cart'], tag: 'redis' },
    route: 'POST /api/cart/{id}/items',
  },
  {
    key: 'api-worker-oom',
    service: 'checkout-api',
    severity: 'critical',
    exceptionType: null,
    message: (rng) =>
      `Worker ${rng.int(1, 4)} exited unexpectedly: signal SIGKILL (out of memory, rss ${rng.int(1900, 2100)} MiB)`,
    frames: null,
    fingerprint: 'order-worker-oom',
    title: 'Order worker crashed: out of memory',
    base: 8,
    timing: { kind: 'burst', daysAgo: 9, hourUtc: 21, minutes: 50 },
  },
  // payments (Python)
  {
    key: 'payments-declined',
    service: 'payments',
    severity: 'warning',
    exceptionType: 'PaymentDeclinedError',
    message: (rng) =>
      `Card declined: ${rng.weighted([
        ['insufficient_funds', 5],
        ['do_not_honor', 2],
        ['expired_card', 1],
        ['incorrect_cvc', 1],
      ] as const)}`,
    frames: [
      py(
        'create_charge',
        '/app/payments/api/charges.py',
        64,
        'intent = provider.confirm_intent(charge)',
      ),
      py(
        'confirm_intent',
        '/app/payments/providers/stripe.py',
        142,
        'self._raise_for_decline(response)',
      ),
      py(
        '_raise_for_decline',
        '/app/payments/providers/stripe.py',
        201,
        'raise PaymentDeclinedError(code)',
      ),
    ],
    base: 900,
    timing: { kind: 'steady' },
    trace: {
      share: 0.2,
      flavors: ['checkout', 'mobile_checkout'],
      tag: 'payments.provider',
      httpStatus: 402,
    },
    route: 'POST /charges',
    extra: (rng) => ({
      payment: {
        provider: 'stripe',
        amount: Math.round(rng.logNormal(55, 0.6) * 100) / 100,
        currency: 'EUR',
        '3ds': rng.chance(0.4),
      },
    }),
  },
  {
    key: 'payments-billing-address',
    service: 'payments',
    severity: 'error',
    exceptionType: 'KeyError',
    message: () => "'billing_address'",
    frames: [
      py('create_charge', '/app/payments/api/charges.py', 71, 'risk = fraud.score_charge(payload)'),
      py(
        'score_charge',
        '/app/payments/fraud/score.py',
        33,
        'features = address_features(payload)',
      ),
      py(
        'address_features',
        '/app/payments/fraud/features.py',
        18,
        'country = payload["billing_address"]["country"]',
      ),
    ],
    base: 180,
    timing: { kind: 'release', releases: ['payments@3.2.1'] },
    trace: { share: 0.25, flavors: ['checkout'], tag: 'payments.server' },
    route: 'POST /charges',
  },
  {
    key: 'payments-db-refused',
    service: 'payments',
    severity: 'critical',
    exceptionType: 'psycopg2.OperationalError',
    message: () =>
      'could not connect to server: Connection refused\n\tIs the server running on host "pg-primary.internal" (10.0.3.12) and accepting\n\tTCP/IP connections on port 5432?',
    frames: [
      py('create_charge', '/app/payments/api/charges.py', 58, 'with db.transaction() as tx:'),
      py('get_connection', '/app/payments/db.py', 22, 'return pool.getconn()'),
      py(
        'connect',
        '/usr/local/lib/python3.12/site-packages/psycopg2/__init__.py',
        122,
        'conn = _connect(dsn, connection_factory=connection_factory, **kwasync)',
      ),
    ],
    base: 110,
    timing: { kind: 'burst', daysAgo: 9, hourUtc: 3.2, minutes: 25 },
    trace: { share: 0.15, flavors: ['checkout'], tag: 'payments.server', httpStatus: 503 },
    route: 'POST /charges',
  },
  // inventory (JVM)
  {
    key: 'inventory-reservation-released',
    service: 'inventory',
    severity: 'error',
    exceptionType: 'java.lang.IllegalStateException',
    message: (rng) => `Reservation ${rng.int(10_000, 99_999)} already released`,
    frames: [
      jvm('com.acme.inventory.reservations.Reservation.release', 'Reservation.java', 57),
      jvm(
        'com.acme.inventory.reservations.ReservationService.expire',
        'ReservationService.java',
        141,
      ),
      jvm('com.acme.inventory.jobs.ExpireReservationsJob.run', 'ExpireReservationsJob.java', 38),
      jvm(
        'java.base/java.util.concurrent.ThreadPoolExecutor.runWorker',
        'ThreadPoolExecutor.java',
        1144,
      ),
    ],
    base: 240,
    timing: { kind: 'steady' },
  },
  {
    key: 'inventory-deadlock',
    service: 'inventory',
    severity: 'error',
    exceptionType: 'org.postgresql.util.PSQLException',
    message: (rng) =>
      `ERROR: deadlock detected\n  Detail: Process ${rng.int(3000, 9000)} waits for ShareLock on transaction ${rng.int(90_000, 99_999)}; blocked by process ${rng.int(3000, 9000)}.`,
    frames: [
      jvm(
        'org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse',
        'QueryExecutorImpl.java',
        2713,
      ),
      jvm('org.postgresql.jdbc.PgPreparedStatement.executeUpdate', 'PgPreparedStatement.java', 152),
      jvm('com.acme.inventory.jobs.ReconcileJob.applyBatch', 'ReconcileJob.java', 93),
      jvm('com.acme.inventory.jobs.ReconcileJob.run', 'ReconcileJob.java', 61),
    ],
    base: 30,
    timing: { kind: 'nightly' },
    trace: { share: 0.3, flavors: ['inventory_reconcile'], tag: 'inventory.job-db', spans: 90 },
  },
  {
    key: 'inventory-out-of-stock',
    service: 'inventory',
    severity: 'warning',
    exceptionType: 'com.acme.inventory.OutOfStockException',
    message: (rng) => `SKU ${sku(rng)} has 0 available (requested ${rng.int(1, 3)})`,
    frames: [
      jvm(
        'com.acme.inventory.reservations.ReservationService.reserve',
        'ReservationService.java',
        88,
      ),
      jvm('com.acme.inventory.api.ReservationController.create', 'ReservationController.java', 41),
    ],
    base: 310,
    timing: { kind: 'steady' },
    trace: { share: 0.12, flavors: ['add_to_cart'], tag: 'inventory.server', httpStatus: 409 },
    route: 'POST /reservations',
  },
  // pricing (Node)
  {
    key: 'pricing-missing-rule',
    service: 'pricing',
    severity: 'warning',
    exceptionType: 'Error',
    message: (rng) =>
      `No price rule for SKU ${sku(rng)} in region ${rng.pick(['eu-west', 'uk', 'us-east'])}`,
    frames: [
      js('PriceBook.lookup', 'src/price-book.ts', 74, 13),
      js('quote', 'src/routes/prices.ts', 19, 25),
    ],
    base: 60,
    timing: { kind: 'release', releases: ['pricing@0.10.0'] },
    trace: { share: 0.3, flavors: ['product_page'], tag: 'pricing.server', httpStatus: 404 },
    route: 'GET /prices/{sku}',
  },
  {
    key: 'pricing-stack-overflow',
    service: 'pricing',
    severity: 'error',
    exceptionType: 'RangeError',
    message: () => 'Maximum call stack size exceeded',
    frames: [
      js('resolveBundle', 'src/bundles.ts', 33, 21),
      js('resolveBundle', 'src/bundles.ts', 41, 14),
      js('resolveBundle', 'src/bundles.ts', 41, 14),
      js('quote', 'src/routes/quote.ts', 27, 12),
    ],
    base: 6,
    timing: { kind: 'steady' },
    route: 'POST /quote',
  },
  // Mobile: Android
  {
    key: 'android-cart-npe',
    service: 'shop-android',
    severity: 'critical',
    exceptionType: 'java.lang.NullPointerException',
    message: () =>
      "Attempt to invoke virtual method 'java.lang.String com.acme.shop.cart.CartItem.getSku()' on a null object reference",
    frames: [
      jvm('com.acme.shop.cart.CartAdapter.onBindViewHolder', 'CartAdapter.java', 88),
      jvm(
        'androidx.recyclerview.widget.RecyclerView$Adapter.onBindViewHolder',
        'RecyclerView.java',
        7254,
      ),
      jvm(
        'androidx.recyclerview.widget.RecyclerView$Adapter.bindViewHolder',
        'RecyclerView.java',
        7337,
      ),
      jvm('android.os.Handler.handleCallback', 'Handler.java', 942),
    ],
    base: 420,
    timing: { kind: 'release', releases: ['shop-android@5.4.0+5040'] },
    trace: { share: 0.2, flavors: ['mobile_cart'], tag: 'mobile.root', app: 'shop-android' },
  },
  {
    key: 'android-socket-timeout',
    service: 'shop-android',
    severity: 'error',
    exceptionType: 'java.net.SocketTimeoutException',
    message: () => 'timeout',
    frames: [
      jvm(
        'okhttp3.internal.http2.Http2Stream$StreamTimeout.newTimeoutException',
        'Http2Stream.kt',
        677,
      ),
      jvm('okhttp3.internal.http2.Http2Stream.takeHeaders', 'Http2Stream.kt', 143),
      jvm('com.acme.shop.api.ApiClient.execute', 'ApiClient.kt', 61),
    ],
    base: 200,
    timing: { kind: 'steady' },
    trace: {
      share: 0.1,
      flavors: ['mobile_product'],
      tag: 'mobile.fetch',
      app: 'shop-android',
      httpStatus: 0,
    },
  },
  {
    key: 'android-bad-token',
    service: 'shop-android',
    severity: 'error',
    exceptionType: 'android.view.WindowManager$BadTokenException',
    message: () => 'Unable to add window -- token null is not valid; is your activity running?',
    frames: [
      jvm('android.view.ViewRootImpl.setView', 'ViewRootImpl.java', 1270),
      jvm('android.app.Dialog.show', 'Dialog.java', 352),
      jvm('com.acme.shop.checkout.PaymentSheet.show', 'PaymentSheet.kt', 44),
    ],
    base: 14,
    timing: { kind: 'steady' },
  },
  // Mobile: iOS
  {
    key: 'ios-unrecognized-selector',
    service: 'shop-ios',
    severity: 'critical',
    exceptionType: 'NSInvalidArgumentException',
    message: (rng) =>
      `-[__NSCFNumber length]: unrecognized selector sent to instance 0x${rng.hex(9)}`,
    frames: [
      { fn: 'CheckoutViewModel.applyPromo(_:)', file: 'ShopApp', line: 212 },
      { fn: 'CheckoutView.body.getter', file: 'ShopApp', line: 96 },
      { fn: '__CFRunLoopDoObservers', file: 'CoreFoundation', line: 420 },
    ],
    base: 90,
    timing: { kind: 'release', releases: ['shop-ios@5.4.0+512'] },
  },
  {
    key: 'ios-url-timeout',
    service: 'shop-ios',
    severity: 'warning',
    exceptionType: 'URLError',
    message: () => 'The request timed out. (NSURLErrorDomain -1001)',
    frames: [
      { fn: 'APIClient.send<A>(_:)', file: 'ShopApp', line: 144 },
      { fn: 'CartStore.refresh()', file: 'ShopApp', line: 58 },
    ],
    base: 160,
    timing: { kind: 'steady' },
    trace: {
      share: 0.1,
      flavors: ['mobile_cart'],
      tag: 'mobile.fetch',
      app: 'shop-ios',
      httpStatus: 0,
    },
  },
];

export const issueGroup = (key: string): IssueGroup => {
  const g = ISSUE_CATALOG.find((x) => x.key === key);
  if (!g) throw new Error(`unknown issue group ${key}`);
  return g;
};

/**
 * The stack trace as the service's platform prints it. Line numbers move a little from one
 * release to the next, as real code does; grouping ignores them.
 */
export function renderStack(group: IssueGroup, message: string, release: string): string | null {
  if (!group.frames) return null;
  const shift = hash32(release) % 9;
  const type = group.exceptionType ?? 'Error';
  const frames = group.frames;
  switch (SERVICES[group.service].platform) {
    case 'browser':
    case 'node':
      return [
        `${type}: ${message}`,
        ...frames.map((f) =>
          f.file.startsWith('node_modules') || f.file.startsWith('node:')
            ? `    at ${f.fn} (${f.file}:${f.line}:${f.col ?? 1})`
            : `    at ${f.fn} (${f.file}:${f.line + shift}:${f.col ?? 1})`,
        ),
      ].join('\n');
    case 'python':
      return [
        'Traceback (most recent call last):',
        ...frames.map(
          (f) =>
            `  File "${f.file}", line ${f.file.startsWith('/app/') ? f.line + shift : f.line}, in ${f.fn}\n    ${f.code ?? 'pass'}`,
        ),
        `${type}: ${message}`,
      ].join('\n');
    case 'jvm':
    case 'android':
      return [
        `${type}: ${message}`,
        ...frames.map(
          (f) => `\tat ${f.fn}(${f.file}:${f.fn.startsWith('com.acme') ? f.line + shift : f.line})`,
        ),
      ].join('\n');
    case 'ios':
      return [
        `${type}: ${message}`,
        ...frames.map(
          (f, i) =>
            `${i}   ${f.file.padEnd(16)}0x${(0x100a3c000 + f.line * 64 + shift).toString(16).padStart(16, '0')} ${f.fn} + ${f.line}`,
        ),
      ].join('\n');
    case 'datastore':
      return null;
  }
}
