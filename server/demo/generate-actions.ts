import type { ActionItemInput } from '../ingest/item-schemas';
import type { Rng } from './random';
import { pickShopper } from './shoppers';
import { PRODUCTS, type Flavor, type MobileApp } from './trace-flavors';
import { sampleTimes } from './traffic-shape';
import { scaled, type WorldContext } from './world-context';
import { BAD_RELEASE, MINUTE_MS, SERVICES, type Environment } from './world-model';

/**
 * Product actions in shopping sessions. Every session starts at Home; fewer reach a product,
 * fewer add to cart, fewer check out, fewer place the order, so the funnel
 * Home → Product → Add to cart → Checkout → Place order drops off like a real shop's
 * (about 100% → 62% → 28% → 19% → 14%). Side steps (search, coupons) add noise; while the bad
 * checkout release runs, many placed orders end in an error instead of a confirmation.
 */
export const FUNNEL = [
  { kind: 'page_view', name: 'Home' },
  { kind: 'page_view', name: 'Product' },
  { kind: 'interaction', name: 'Add to cart' },
  { kind: 'page_view', name: 'Checkout' },
  { kind: 'interaction', name: 'Place order' },
] as const;

/** Share of all sessions reaching each funnel step. */
const REACH = [1, 0.62, 0.28, 0.19, 0.14] as const;
const stepChance = (i: 1 | 2 | 3 | 4) => REACH[i] / (REACH[i - 1] ?? 1);

type Step = {
  kind: ActionItemInput['kind'];
  name: string;
  properties: Record<string, unknown>;
  trace?: Flavor;
  noSession?: boolean;
};

const money = (n: number) => Math.round(n * 100) / 100;

function session(ctx: WorldContext, rng: Rng, start: number): void {
  const surface = rng.weighted([
    ['storefront-web', 65],
    ['shop-ios', 20],
    ['shop-android', 15],
  ] as const);
  const web = surface === 'storefront-web';
  const environment: Environment = rng.chance(0.03) ? 'staging' : 'production';
  const shopper = pickShopper(rng);
  const signedIn = rng.chance(0.6);
  const distinctId = signedIn ? shopper.id : `anon_${rng.hex(16)}`;
  const sessionId = rng.uuid();
  const utm = web
    ? rng.weighted([
        ['google', 35],
        ['newsletter', 15],
        ['instagram', 12],
        ['affiliate', 6],
        [null, 32],
      ] as const)
    : null;
  // Properties every action of the session carries (an SDK's "super properties").
  const common = {
    plan: signedIn ? shopper.tier : 'guest',
    ...(utm ? { utm_source: utm } : {}),
  };
  const view = web ? 'page_view' : 'screen_view';
  const steps: Step[] = [];
  if (!web && rng.chance(0.1)) {
    // Opened from a push notification before the app started its session.
    steps.push({
      kind: 'interaction',
      name: 'Push opened',
      properties: { campaign: 'weekend-sale' },
      noSession: true,
    });
  }
  steps.push({ kind: view, name: 'Home', properties: {} });
  if (rng.chance(0.25)) {
    steps.push({
      kind: 'interaction',
      name: 'Search',
      properties: { query_length: rng.int(3, 14), results: rng.int(0, 48) },
    });
  }
  if (rng.chance(0.2)) {
    steps.push({
      kind: view,
      name: 'Category',
      properties: { category: rng.pick(PRODUCTS).category },
    });
  }
  let cart = 0;
  let items = 0;
  if (rng.chance(stepChance(1))) {
    const views = rng.int(1, 3);
    let product = rng.pick(PRODUCTS);
    for (let i = 0; i < views; i++) {
      product = rng.pick(PRODUCTS);
      steps.push({
        kind: view,
        name: 'Product',
        properties: { product_id: product.sku, category: product.category, price: product.price },
        ...(rng.chance(0.05) ? { trace: web ? 'product_page' : 'mobile_product' } : {}),
      });
    }
    if (rng.chance(0.1))
      steps.push({
        kind: 'interaction',
        name: 'Size guide',
        properties: { product_id: product.sku },
      });
    if (rng.chance(stepChance(2))) {
      const lines = rng.chance(0.2) ? 2 : 1;
      for (let i = 0; i < lines; i++) {
        const p = i === 0 ? product : rng.pick(PRODUCTS);
        const quantity = rng.chance(0.85) ? 1 : 2;
        cart = money(cart + p.price * quantity);
        items += quantity;
        steps.push({
          kind: 'interaction',
          name: 'Add to cart',
          properties: { product_id: p.sku, quantity, price: p.price, cart_value: cart },
          ...(web && rng.chance(0.08) ? { trace: 'add_to_cart' as const } : {}),
        });
      }
      if (rng.chance(stepChance(3))) {
        steps.push({
          kind: view,
          name: 'Checkout',
          properties: { cart_value: cart, items, currency: 'EUR' },
        });
        if (rng.chance(0.15))
          steps.push({
            kind: 'interaction',
            name: 'Apply coupon',
            properties: { coupon_valid: rng.chance(0.6) },
          });
        if (rng.chance(stepChance(4))) {
          steps.push({
            kind: 'interaction',
            name: 'Place order',
            properties: {
              cart_value: cart,
              items,
              currency: 'EUR',
              payment_method: rng.weighted([
                ['card', 6],
                ['paypal', 2],
                [web ? 'klarna' : surface === 'shop-ios' ? 'apple_pay' : 'google_pay', 2],
              ] as const),
              coupon_applied: rng.chance(0.15),
            },
          });
        }
      }
    }
  }

  // Think time between steps; the whole session ends before "now".
  const offsets: number[] = [];
  let offset = 0;
  for (let i = 0; i < steps.length; i++) {
    offsets.push(offset);
    offset += Math.min(10 * MINUTE_MS, Math.round(rng.logNormal(22_000, 0.8)));
  }
  const begin = Math.min(start, ctx.window.to - offset - 2_000);
  const release = ctx.timeline.releaseFor(surface, environment, begin, rng);
  const app: MobileApp | undefined = web ? undefined : surface;

  steps.forEach((step, i) => {
    const at = begin + (offsets[i] ?? 0);
    let link: { trace_id: string; span_id: string } | null = null;
    if (step.trace || (step.name === 'Place order' && rng.chance(0.3))) {
      const flavor = step.trace ?? (web ? 'checkout' : 'mobile_checkout');
      const trace = ctx.traces.build(rng, flavor, at, {
        environment,
        releases: { [surface]: release },
        ...(app ? { app } : {}),
      });
      link = { trace_id: trace.traceId, span_id: trace.root.item.span_id };
    }
    add(ctx, rng, surface, { ...step, properties: { ...common, ...step.properties } }, at, {
      distinctId,
      sessionId,
      release,
      environment,
      link,
    });
    if (step.name === 'Place order') {
      // The bad checkout release fails many orders; the shopper sees an error page.
      const failing =
        ctx.timeline.releaseAt(BAD_RELEASE.service, environment, at) === BAD_RELEASE.release &&
        rng.chance(0.45);
      const next: Step = failing
        ? {
            kind: 'interaction',
            name: 'Payment error shown',
            properties: { error_code: 'checkout_failed', cart_value: cart },
          }
        : {
            kind: view,
            name: 'Order confirmed',
            properties: { order_id: rng.int(100_000, 999_999), cart_value: cart },
          };
      add(
        ctx,
        rng,
        surface,
        { ...next, properties: { ...common, ...next.properties } },
        at + rng.int(800, 4000),
        {
          distinctId,
          sessionId,
          release,
          environment,
          link: null,
        },
      );
    }
  });
}

function add(
  ctx: WorldContext,
  rng: Rng,
  surface: 'storefront-web' | MobileApp,
  step: Step,
  at: number,
  who: {
    distinctId: string;
    sessionId: string;
    release: string;
    environment: Environment;
    link: { trace_id: string; span_id: string } | null;
  },
): void {
  const def = SERVICES[surface];
  const item: ActionItemInput = {
    id: rng.uuid(),
    occurred_at: new Date(Math.min(at, ctx.window.to)).toISOString(),
    name: step.name,
    kind: step.kind,
    distinct_id: who.distinctId,
    session_id: step.noSession ? null : who.sessionId,
    properties: step.properties,
    ...(who.link ?? {}),
    release: who.release,
    environment: who.environment,
    service_name: surface,
  };
  ctx.out.add('actions', def.project, def.sdk, item);
}

/** `count` sessions starting within the context's window, shaped by the daily rhythm. */
export function generateSessions(ctx: WorldContext, rng: Rng, count: number): void {
  for (const start of sampleTimes(rng, count, [ctx.window])) session(ctx, rng, start);
}

export function generateActions(ctx: WorldContext): void {
  generateSessions(ctx, ctx.rng.fork('actions'), scaled(ctx, 6000, 100));
}
