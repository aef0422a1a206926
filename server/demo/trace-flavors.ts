import type { Rng } from './random';
import type { SpanNode } from './span-tree';
import type { ServiceName } from './world-model';

/**
 * The kinds of request the shop serves, as span trees: a storefront page or click calls the
 * checkout API, which calls pricing, inventory, payments, Postgres and Redis; the mobile apps
 * call the same API; workers and jobs run on their own. Old inventory releases name their
 * spans poorly (`GET`, `handler`) and query stock once per cart line, so trace naming and
 * the N+1 pattern have something to show, and both improve with inventory 1.22.0.
 */
export const FLAVORS = [
  'product_page',
  'cart_page',
  'add_to_cart',
  'checkout',
  'search',
  'mobile_product',
  'mobile_cart',
  'mobile_checkout',
  'order_worker',
  'stock_lookup',
  'price_refresh',
  'inventory_reconcile',
] as const;
export type Flavor = (typeof FLAVORS)[number];

export type MobileApp = 'shop-ios' | 'shop-android';

export type FlavorContext = {
  rng: Rng;
  releaseOf: (service: ServiceName) => string;
  app?: MobileApp;
  /** Size of an inventory reconciliation, in spans. */
  spans?: number;
};

const round = (n: number) => Math.round(n * 100) / 100;

export const PRODUCTS = [
  { sku: 'TSHIRT-RED-M', slug: 'organic-tee-red', price: 24.9, category: 'apparel' },
  { sku: 'TSHIRT-NVY-L', slug: 'organic-tee-navy', price: 24.9, category: 'apparel' },
  { sku: 'HOODIE-GRY-M', slug: 'zip-hoodie-grey', price: 59.0, category: 'apparel' },
  { sku: 'MUG-ENAMEL-WH', slug: 'enamel-mug-white', price: 14.5, category: 'home' },
  { sku: 'BOTTLE-750-BLK', slug: 'steel-bottle-black', price: 29.0, category: 'outdoor' },
  { sku: 'CAP-WOOL-OLV', slug: 'wool-cap-olive', price: 19.9, category: 'apparel' },
  { sku: 'SOCKS-3PK-MIX', slug: 'merino-socks-3-pack', price: 17.0, category: 'apparel' },
  { sku: 'TOTE-CANVAS-NAT', slug: 'canvas-tote-natural', price: 12.0, category: 'accessories' },
  { sku: 'NOTEBOOK-A5-DOT', slug: 'dotted-notebook-a5', price: 9.5, category: 'stationery' },
  { sku: 'BACKPACK-20L-BLU', slug: 'daypack-20l-blue', price: 89.0, category: 'outdoor' },
] as const;
export type Product = (typeof PRODUCTS)[number];

const isOldInventory = (ctx: FlavorContext) => ctx.releaseOf('inventory') === 'inventory@1.21.0';

function pg(
  rng: Rng,
  operation: 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE',
  table: string,
  statement: string,
  medianMs = 1.6,
  tag?: string,
): SpanNode {
  return {
    service: 'postgres',
    name: `${operation} ${table}`,
    operation: 'db.query',
    kind: 'client',
    selfMs: rng.logNormal(medianMs, 0.6),
    attributes: {
      'db.system': 'postgresql',
      'db.name': 'shop',
      'db.operation': operation,
      'db.sql.table': table,
      'db.statement': statement,
    },
    ...(tag ? { tag } : {}),
  };
}

function cache(rng: Rng, command: 'GET' | 'SET' | 'DEL', pattern: string, key: string): SpanNode {
  const operation =
    command === 'GET' ? 'cache.get' : command === 'SET' ? 'cache.set' : 'cache.delete';
  return {
    service: 'redis',
    name: `${command} ${pattern}`,
    operation,
    kind: 'client',
    selfMs: rng.logNormal(0.35, 0.5),
    attributes: {
      'db.system': 'redis',
      'db.operation': command,
      'cache.key': key,
      ...(command === 'GET' ? { 'cache.hit': rng.chance(0.78) } : {}),
    },
    tag: 'redis',
  };
}

type ServerSide = {
  selfMs: number;
  children: SpanNode[];
  /** Span name; default `<method> <route>`. */
  name?: string;
  /** Leave out `http.route` (the framework did not match a route). */
  unmatched?: boolean;
  tag?: string;
  status?: number;
};

/** An HTTP call: the caller's client span around the callee's server span. */
function httpCall(
  rng: Rng,
  from: ServiceName,
  to: ServiceName,
  method: string,
  route: string,
  path: string,
  server: ServerSide,
  client: { tag?: string; noStatus?: boolean } = {},
): SpanNode {
  return {
    service: from,
    name: `${method} ${route}`,
    operation: 'http.client',
    kind: 'client',
    selfMs: rng.logNormal(1.8, 0.4),
    ...(client.noStatus ? { noStatus: true } : {}),
    attributes: {
      'http.method': method,
      'http.url': `http://${to}.internal:8080${path}`,
      'peer.service': to,
      'http.status_code': server.status ?? 200,
    },
    ...(client.tag ? { tag: client.tag } : {}),
    children: [
      {
        service: to,
        name: server.name ?? `${method} ${route}`,
        operation: 'http.server',
        kind: 'server',
        selfMs: server.selfMs,
        attributes: {
          'http.method': method,
          ...(server.unmatched ? {} : { 'http.route': route }),
          'http.target': path,
          'http.status_code': server.status ?? 200,
          'net.host.name': `${to}-${rng.hex(4)}`,
        },
        ...(server.tag ? { tag: server.tag } : {}),
        children: server.children,
      },
    ],
  };
}

function pricing(ctx: FlavorContext, from: ServiceName, product: Product): SpanNode {
  const { rng } = ctx;
  const children = [cache(rng, 'GET', 'price:{sku}', `price:${product.sku}`)];
  if (rng.chance(0.3)) {
    children.push(
      pg(rng, 'SELECT', 'price_rules', 'SELECT * FROM price_rules WHERE sku = $1 AND region = $2'),
    );
  }
  return httpCall(rng, from, 'pricing', 'GET', '/prices/{sku}', `/prices/${product.sku}`, {
    selfMs: rng.logNormal(2.5, 0.5),
    children,
    tag: 'pricing.server',
  });
}

function stockLookup(ctx: FlavorContext, from: ServiceName, skus: string[]): SpanNode {
  const { rng } = ctx;
  const old = isOldInventory(ctx);
  const queries = old
    ? skus.map(() =>
        pg(rng, 'SELECT', 'stock_levels', 'SELECT quantity FROM stock_levels WHERE sku = $1'),
      )
    : [
        pg(
          rng,
          'SELECT',
          'stock_levels',
          'SELECT sku, quantity FROM stock_levels WHERE sku = ANY($1)',
          2.2,
        ),
      ];
  return httpCall(rng, from, 'inventory', 'GET', '/stock', `/stock?skus=${skus.join(',')}`, {
    selfMs: rng.logNormal(1.5, 0.4),
    ...(old ? { name: 'GET', unmatched: true } : {}),
    tag: 'inventory.server',
    children: [
      {
        service: 'inventory',
        name: old ? 'handler' : 'StockService.lookup',
        // The old inventory release names its handlers with the SDK's placeholders.
        ...(old ? { operation: 'default' } : {}),
        kind: 'internal',
        selfMs: rng.logNormal(0.8, 0.4),
        children: queries,
      },
    ],
  });
}

function reservation(ctx: FlavorContext, from: ServiceName, product: Product): SpanNode {
  const { rng } = ctx;
  const old = isOldInventory(ctx);
  return httpCall(rng, from, 'inventory', 'POST', '/reservations', '/reservations', {
    selfMs: rng.logNormal(2, 0.4),
    ...(old ? { name: 'POST', unmatched: true } : {}),
    tag: 'inventory.server',
    children: [
      {
        service: 'inventory',
        name: old ? 'handler' : 'ReservationService.reserve',
        // The old inventory release names its handlers with the SDK's placeholders.
        ...(old ? { operation: 'default' } : {}),
        kind: 'internal',
        selfMs: rng.logNormal(0.6, 0.4),
        attributes: { sku: product.sku },
        children: [
          pg(
            rng,
            'SELECT',
            'stock_levels',
            'SELECT quantity FROM stock_levels WHERE sku = $1 FOR UPDATE',
            2.5,
          ),
          pg(
            rng,
            'UPDATE',
            'stock_levels',
            'UPDATE stock_levels SET reserved = reserved + $2 WHERE sku = $1',
          ),
          pg(
            rng,
            'INSERT',
            'reservations',
            'INSERT INTO reservations (id, sku, quantity, expires_at) VALUES ($1, $2, $3, $4)',
          ),
        ],
      },
    ],
  });
}

function productApi(ctx: FlavorContext, product: Product): SpanNode {
  const { rng } = ctx;
  const children: SpanNode[] = [cache(rng, 'GET', 'product:{id}', `product:${product.sku}`)];
  if (rng.chance(0.3)) {
    children.push(
      pg(rng, 'SELECT', 'products', 'SELECT * FROM products WHERE slug = $1'),
      pg(
        rng,
        'SELECT',
        'product_images',
        'SELECT url, width FROM product_images WHERE product_id = $1',
      ),
      cache(rng, 'SET', 'product:{id}', `product:${product.sku}`),
    );
  }
  children.push(pricing(ctx, 'checkout-api', product));
  return {
    service: 'checkout-api',
    name: 'GET /api/products/{id}',
    operation: 'http.server',
    kind: 'server',
    selfMs: rng.logNormal(3, 0.5),
    tag: 'api.server',
    attributes: {
      'http.method': 'GET',
      'http.route': '/api/products/{id}',
      'http.target': `/api/products/${product.slug}`,
      'http.status_code': 200,
    },
    children,
  };
}

function cartApi(ctx: FlavorContext, cartId: string, lines: number): SpanNode {
  const { rng } = ctx;
  const skus = Array.from({ length: lines }, () => rng.pick(PRODUCTS).sku);
  return {
    service: 'checkout-api',
    name: 'GET /api/cart/{id}',
    operation: 'http.server',
    kind: 'server',
    selfMs: rng.logNormal(2.5, 0.5),
    tag: 'api.server',
    attributes: {
      'http.method': 'GET',
      'http.route': '/api/cart/{id}',
      'http.target': `/api/cart/${cartId}`,
      'http.status_code': 200,
      'cart.lines': lines,
    },
    children: [
      cache(rng, 'GET', 'cart:{id}', `cart:${cartId}`),
      pg(rng, 'SELECT', 'cart_items', 'SELECT * FROM cart_items WHERE cart_id = $1'),
      stockLookup(ctx, 'checkout-api', skus),
    ],
  };
}

function charge(ctx: FlavorContext, amount: number): SpanNode {
  const { rng } = ctx;
  return httpCall(
    rng,
    'checkout-api',
    'payments',
    'POST',
    '/charges',
    '/charges',
    {
      selfMs: rng.logNormal(4, 0.5),
      tag: 'payments.server',
      status: 201,
      children: [
        pg(
          rng,
          'INSERT',
          'payment_attempts',
          'INSERT INTO payment_attempts (id, order_ref, amount, currency) VALUES ($1, $2, $3, $4)',
        ),
        {
          service: 'payments',
          name: 'POST /v1/payment_intents',
          operation: 'http.client',
          kind: 'client',
          selfMs: rng.logNormal(380, 0.45),
          tag: 'payments.provider',
          attributes: {
            'http.method': 'POST',
            'http.url': 'https://api.stripe.com/v1/payment_intents',
            'server.address': 'api.stripe.com',
            'http.status_code': 200,
            'payment.amount': amount,
            'payment.currency': 'EUR',
          },
        },
        pg(
          rng,
          'UPDATE',
          'payment_attempts',
          'UPDATE payment_attempts SET status = $2 WHERE id = $1',
        ),
      ],
    },
    { tag: 'payments.client' },
  );
}

function checkoutApi(ctx: FlavorContext): SpanNode {
  const { rng } = ctx;
  const cartId = rng.hex(8);
  const lines = rng.int(1, 4);
  const product = rng.pick(PRODUCTS);
  const amount = round(product.price * lines * rng.float(0.9, 1.3));
  return {
    service: 'checkout-api',
    name: 'POST /checkout',
    operation: 'http.server',
    kind: 'server',
    selfMs: rng.logNormal(6, 0.4),
    tag: 'api.server',
    attributes: {
      'http.method': 'POST',
      'http.route': '/checkout',
      'http.target': '/checkout',
      'http.status_code': 201,
      'cart.id': cartId,
      'cart.lines': lines,
      'order.total': amount,
    },
    children: [
      {
        service: 'checkout-api',
        name: 'validateCart',
        kind: 'internal',
        selfMs: rng.logNormal(1.2, 0.4),
      },
      cache(rng, 'GET', 'cart:{id}', `cart:${cartId}`),
      pg(rng, 'SELECT', 'carts', 'SELECT * FROM carts WHERE id = $1'),
      pg(rng, 'SELECT', 'cart_items', 'SELECT * FROM cart_items WHERE cart_id = $1'),
      {
        service: 'checkout-api',
        name: 'applyDiscount',
        kind: 'internal',
        selfMs: rng.logNormal(0.7, 0.4),
        tag: 'api.discount',
      },
      httpCall(rng, 'checkout-api', 'pricing', 'POST', '/quote', '/quote', {
        selfMs: rng.logNormal(3, 0.5),
        tag: 'pricing.server',
        children: [
          pg(
            rng,
            'SELECT',
            'price_rules',
            'SELECT * FROM price_rules WHERE sku = ANY($1) AND region = $2',
          ),
          cache(rng, 'GET', 'tax:{region}', 'tax:eu-west'),
        ],
      }),
      reservation(ctx, 'checkout-api', product),
      charge(ctx, amount),
      pg(
        rng,
        'INSERT',
        'orders',
        'INSERT INTO orders (id, cart_id, total, currency, status) VALUES ($1, $2, $3, $4, $5)',
      ),
      pg(
        rng,
        'INSERT',
        'order_items',
        'INSERT INTO order_items (order_id, sku, quantity, price) SELECT $1, sku, quantity, price FROM cart_items WHERE cart_id = $2',
      ),
      {
        service: 'checkout-api',
        name: 'order.created publish',
        operation: 'queue.publish',
        kind: 'producer',
        selfMs: rng.logNormal(1.1, 0.4),
        attributes: { 'messaging.system': 'rabbitmq', 'messaging.destination': 'orders' },
      },
    ],
  };
}

/** A browser page load: own work (parse, render) around the API calls it makes. */
function pageLoad(ctx: FlavorContext, route: string, children: SpanNode[]): SpanNode {
  const { rng } = ctx;
  const lcp = Math.round(rng.logNormal(2100, 0.3));
  return {
    service: 'storefront-web',
    name: route,
    operation: 'pageload',
    kind: 'internal',
    selfMs: rng.logNormal(420, 0.35),
    tag: 'web.root',
    attributes: {
      'browser.name': rng.weighted([
        ['Chrome', 6],
        ['Safari', 3],
        ['Firefox', 1],
        ['Edge', 1],
      ] as const),
      'device.type': rng.chance(0.58) ? 'mobile' : 'desktop',
      'url.path': route,
    },
    marks: [
      {
        name: 'first-contentful-paint',
        at: 0.35,
        attributes: { value_ms: Math.round(lcp * 0.55) },
      },
      { name: 'largest-contentful-paint', at: 0.85, attributes: { value_ms: lcp } },
    ],
    children: [
      ...children,
      {
        service: 'storefront-web',
        name: `${route} render`,
        operation: 'ui.render',
        kind: 'internal',
        selfMs: rng.logNormal(35, 0.5),
      },
    ],
  };
}

function webClick(ctx: FlavorContext, name: string, children: SpanNode[]): SpanNode {
  return {
    service: 'storefront-web',
    name,
    operation: 'ui.action.click',
    kind: 'internal',
    selfMs: ctx.rng.logNormal(40, 0.4),
    tag: 'web.root',
    children,
  };
}

function webFetch(
  ctx: FlavorContext,
  method: string,
  route: string,
  path: string,
  server: SpanNode,
): SpanNode {
  return {
    service: 'storefront-web',
    name: `${method} ${route}`,
    operation: 'http.client',
    kind: 'client',
    selfMs: ctx.rng.logNormal(24, 0.5),
    tag: 'web.fetch',
    attributes: {
      'http.method': method,
      'http.url': `https://shop.acme.dev${path}`,
      'http.status_code': 200,
    },
    children: [server],
  };
}

/** Mobile SDKs report no span status; their spans read as status null. */
function mobileScreen(
  ctx: FlavorContext,
  screen: string,
  method: string,
  route: string,
  path: string,
  server: SpanNode,
): SpanNode {
  const { rng } = ctx;
  const app = ctx.app ?? 'shop-ios';
  return {
    service: app,
    name: screen,
    operation: 'ui.load',
    kind: 'internal',
    selfMs: rng.logNormal(180, 0.4),
    noStatus: true,
    tag: 'mobile.root',
    attributes: {
      'app.screen': screen,
      'device.model': app === 'shop-ios' ? 'iPhone15,2' : 'Pixel 7',
    },
    children: [
      {
        service: app,
        name: `${method} ${route}`,
        operation: 'http.client',
        kind: 'client',
        selfMs: rng.logNormal(60, 0.5),
        noStatus: true,
        tag: 'mobile.fetch',
        attributes: {
          'http.method': method,
          'http.url': `https://api.acme.dev${path}`,
          'http.status_code': 200,
        },
        children: [server],
      },
      {
        service: app,
        name: `${screen}.render`,
        operation: 'ui.render',
        kind: 'internal',
        selfMs: rng.logNormal(28, 0.4),
        noStatus: true,
      },
    ],
  };
}

function orderWorker(ctx: FlavorContext): SpanNode {
  const { rng } = ctx;
  const orderId = rng.int(100_000, 999_999);
  const children: SpanNode[] = [
    pg(rng, 'SELECT', 'orders', 'SELECT * FROM orders WHERE id = $1'),
    pg(rng, 'SELECT', 'order_items', 'SELECT * FROM order_items WHERE order_id = $1'),
    {
      service: 'checkout-api',
      name: 'POST /email',
      operation: 'http.client',
      kind: 'client',
      selfMs: rng.logNormal(140, 0.5),
      attributes: {
        'http.method': 'POST',
        'http.url': 'https://api.postmarkapp.com/email',
        'server.address': 'api.postmarkapp.com',
        'http.status_code': 200,
      },
    },
    cache(rng, 'DEL', 'cart:{id}', `cart:${rng.hex(8)}`),
  ];
  // An uninstrumented helper shows up as a span named "span", without an operation.
  if (rng.chance(0.3))
    children.push({ service: 'checkout-api', name: 'span', selfMs: rng.logNormal(3, 0.6) });
  children.push(
    pg(rng, 'UPDATE', 'orders', "UPDATE orders SET status = 'confirmed' WHERE id = $1"),
  );
  return {
    service: 'checkout-api',
    name: 'order.created',
    operation: 'queue.process',
    kind: 'consumer',
    selfMs: rng.logNormal(4, 0.4),
    tag: 'worker.root',
    attributes: {
      'messaging.system': 'rabbitmq',
      'messaging.destination': 'orders',
      'order.id': orderId,
    },
    children,
  };
}

function stockApi(ctx: FlavorContext): SpanNode {
  const { rng } = ctx;
  const old = isOldInventory(ctx);
  const product = rng.pick(PRODUCTS);
  return {
    service: 'inventory',
    name: old ? 'GET' : 'GET /stock/{sku}',
    operation: 'http.server',
    kind: 'server',
    selfMs: rng.logNormal(1.5, 0.4),
    tag: 'inventory.server',
    attributes: {
      'http.method': 'GET',
      ...(old ? {} : { 'http.route': '/stock/{sku}' }),
      'http.target': `/stock/${product.sku}`,
      'http.status_code': 200,
    },
    children: [
      {
        service: 'inventory',
        name: old ? 'handler' : 'StockService.lookup',
        // The old inventory release names its handlers with the SDK's placeholders.
        ...(old ? { operation: 'default' } : {}),
        kind: 'internal',
        selfMs: rng.logNormal(0.6, 0.4),
        children: [
          cache(rng, 'GET', 'stock:{sku}', `stock:${product.sku}`),
          pg(
            rng,
            'SELECT',
            'stock_levels',
            'SELECT quantity, reserved FROM stock_levels WHERE sku = $1',
          ),
          pg(rng, 'SELECT', 'warehouses', 'SELECT code, region FROM warehouses WHERE active'),
        ],
      },
    ],
  };
}

function priceRefresh(ctx: FlavorContext): SpanNode {
  const { rng } = ctx;
  const children: SpanNode[] = [
    pg(rng, 'SELECT', 'price_rules', 'SELECT * FROM price_rules WHERE updated_at > $1', 4),
  ];
  const n = rng.int(3, 9);
  for (let i = 0; i < n; i++) {
    const p = rng.pick(PRODUCTS);
    children.push(cache(rng, 'SET', 'price:{sku}', `price:${p.sku}`));
  }
  children.push({ service: 'pricing', name: 'span', selfMs: rng.logNormal(2, 0.5) });
  // A cron entry point with a generic name and no operation: naming quality flags it.
  return {
    service: 'pricing',
    name: 'handler',
    kind: 'internal',
    selfMs: rng.logNormal(5, 0.4),
    children,
  };
}

/**
 * The nightly stock reconciliation: batches of SKUs, each read and written back. Its size is
 * set in spans (hundreds nightly, thousands for the weekly full run). The last batch's updates
 * carry the tag a deadlock failure uses, so a failing run fails at its end.
 */
function reconcile(ctx: FlavorContext): SpanNode {
  const { rng } = ctx;
  const target = Math.max(5, ctx.spans ?? 300);
  const batches: SpanNode[] = [];
  let count = 1;
  while (count < target) {
    const warehouse = rng.pick(['FRA-1', 'AMS-2', 'MAD-1', 'WAW-1']);
    const queries: SpanNode[] = [
      pg(
        rng,
        'SELECT',
        'stock_levels',
        'SELECT sku, quantity FROM stock_levels WHERE warehouse = $1 ORDER BY sku LIMIT 50 OFFSET $2',
        3,
      ),
      pg(
        rng,
        'SELECT',
        'stock_movements',
        'SELECT sku, SUM(delta) FROM stock_movements WHERE warehouse = $1 AND at > $2 GROUP BY sku',
        5,
      ),
    ];
    const updates = rng.int(4, 9);
    for (let i = 0; i < updates; i++) {
      queries.push(
        pg(
          rng,
          'UPDATE',
          'stock_levels',
          'UPDATE stock_levels SET quantity = $3 WHERE warehouse = $1 AND sku = $2',
          1.2,
        ),
      );
      if (rng.chance(0.15)) {
        queries.push(
          pg(
            rng,
            'INSERT',
            'stock_adjustments',
            'INSERT INTO stock_adjustments (warehouse, sku, delta, reason) VALUES ($1, $2, $3, $4)',
          ),
        );
      }
    }
    const room = target - count - 1;
    if (room < 1) break;
    const kept = queries.slice(0, room);
    batches.push({
      service: 'inventory',
      name: 'reconcile batch',
      kind: 'internal',
      selfMs: rng.logNormal(0.8, 0.3),
      attributes: { warehouse, 'batch.size': 50 },
      children: kept,
    });
    count += 1 + kept.length;
  }
  const last = batches[batches.length - 1];
  for (const q of last?.children ?? [])
    if (q.name === 'UPDATE stock_levels') q.tag = 'inventory.job-db';
  return {
    service: 'inventory',
    name: 'inventory.reconcile',
    operation: 'queue.process',
    kind: 'consumer',
    selfMs: rng.logNormal(15, 0.3),
    attributes: {
      'messaging.system': 'rabbitmq',
      'job.name': 'inventory.reconcile',
      'job.mode': target >= 1000 ? 'full' : 'incremental',
      'job.batches': batches.length,
    },
    children: batches,
  };
}

export function buildFlavor(flavor: Flavor, ctx: FlavorContext): SpanNode {
  const { rng } = ctx;
  const product = rng.pick(PRODUCTS);
  const cartId = rng.hex(8);
  switch (flavor) {
    case 'product_page':
      return pageLoad(ctx, '/product/{slug}', [
        webFetch(
          ctx,
          'GET',
          '/api/products/{id}',
          `/api/products/${product.slug}`,
          productApi(ctx, product),
        ),
      ]);
    case 'cart_page':
      return pageLoad(ctx, '/cart', [
        webFetch(
          ctx,
          'GET',
          '/api/cart/{id}',
          `/api/cart/${cartId}`,
          cartApi(ctx, cartId, rng.int(1, 6)),
        ),
      ]);
    case 'add_to_cart':
      return webClick(ctx, 'Add to cart', [
        webFetch(ctx, 'POST', '/api/cart/{id}/items', `/api/cart/${cartId}/items`, {
          service: 'checkout-api',
          name: 'POST /api/cart/{id}/items',
          operation: 'http.server',
          kind: 'server',
          selfMs: rng.logNormal(3, 0.4),
          tag: 'api.server',
          attributes: {
            'http.method': 'POST',
            'http.route': '/api/cart/{id}/items',
            'http.target': `/api/cart/${cartId}/items`,
            'http.status_code': 201,
          },
          children: [
            pg(rng, 'SELECT', 'products', 'SELECT id, price FROM products WHERE sku = $1'),
            reservation(ctx, 'checkout-api', product),
            pg(
              rng,
              'INSERT',
              'cart_items',
              'INSERT INTO cart_items (cart_id, sku, quantity, price) VALUES ($1, $2, $3, $4)',
            ),
            cache(rng, 'SET', 'cart:{id}', `cart:${cartId}`),
          ],
        }),
      ]);
    case 'checkout':
      return webClick(ctx, 'Place order', [
        webFetch(ctx, 'POST', '/checkout', '/checkout', checkoutApi(ctx)),
      ]);
    case 'search': {
      const term = rng.pick(['tee', 'hoodie', 'mug', 'bottle', 'socks', 'backpack', 'gift']);
      const children: SpanNode[] = [cache(rng, 'GET', 'search:{hash}', `search:${rng.hex(8)}`)];
      if (rng.chance(0.7)) {
        children.push(
          pg(
            rng,
            'SELECT',
            'products',
            "SELECT * FROM products WHERE search_vector @@ plainto_tsquery('simple', $1) LIMIT 24",
            45,
          ),
          pg(
            rng,
            'SELECT',
            'product_images',
            'SELECT product_id, url FROM product_images WHERE product_id = ANY($1)',
          ),
        );
      }
      return pageLoad(ctx, '/search', [
        webFetch(ctx, 'GET', '/api/search', `/api/search?q=${term}`, {
          service: 'checkout-api',
          name: 'GET /api/search',
          operation: 'http.server',
          kind: 'server',
          selfMs: rng.logNormal(3, 0.4),
          tag: 'api.server',
          attributes: {
            'http.method': 'GET',
            'http.route': '/api/search',
            'http.target': `/api/search?q=${term}`,
            'http.status_code': 200,
          },
          children,
        }),
      ]);
    }
    case 'mobile_product':
      return mobileScreen(
        ctx,
        'ProductScreen',
        'GET',
        '/api/products/{id}',
        `/api/products/${product.slug}`,
        productApi(ctx, product),
      );
    case 'mobile_cart':
      return mobileScreen(
        ctx,
        'CartScreen',
        'GET',
        '/api/cart/{id}',
        `/api/cart/${cartId}`,
        cartApi(ctx, cartId, rng.int(1, 5)),
      );
    case 'mobile_checkout':
      return mobileScreen(
        ctx,
        'CheckoutScreen',
        'POST',
        '/checkout',
        '/checkout',
        checkoutApi(ctx),
      );
    case 'order_worker':
      return orderWorker(ctx);
    case 'stock_lookup':
      return stockApi(ctx);
    case 'price_refresh':
      return priceRefresh(ctx);
    case 'inventory_reconcile':
      return reconcile(ctx);
  }
}
