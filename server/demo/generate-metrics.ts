import type { MetricItemInput } from '../ingest/item-schemas';
import type { Rng } from './random';
import { trafficWeight } from './traffic-shape';
import type { WorldContext } from './world-context';
import {
  BAD_RELEASE,
  HOUR_MS,
  MINUTE_MS,
  SERVICES,
  type Environment,
  type ServiceName,
} from './world-model';

/**
 * Metric series sampled at a fixed interval (5 minutes at scale 1): request latency per
 * route, orders per interval, the checkout database pool and the storefront's LCP. Values
 * follow the daily traffic and the releases: the bad checkout release slows checkout and
 * loses orders; web 1.8.2 loads faster; inventory 1.22.0 answers stock lookups faster.
 */
type Series = {
  service: ServiceName;
  environment: Environment;
  name: string;
  kind: MetricItemInput['kind'];
  unit?: string;
  temporality?: 'delta' | 'cumulative';
  /** Interval at scale 1. */
  everyMinutes: number;
  sample: (
    rng: Rng,
    t: number,
    release: string,
  ) => { value: number; attributes: Record<string, unknown> };
};

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

const latency = (
  service: ServiceName,
  method: string,
  route: string,
  base: (release: string) => number,
  environment: Environment = 'production',
  everyMinutes = 5,
): Series => ({
  service,
  environment,
  name: 'http.server.duration',
  kind: 'histogram',
  unit: 'ms',
  temporality: 'delta',
  everyMinutes,
  sample: (rng, t, release) => {
    const load = trafficWeight(t);
    return {
      value: round(base(release) * (1 + 0.35 * load) * rng.logNormal(1, 0.15)),
      attributes: {
        'http.method': method,
        'http.route': route,
        aggregation: 'mean',
        sample_count: Math.max(1, Math.round(load * 120 * rng.float(0.8, 1.2))),
      },
    };
  },
});

const badCheckout = (release: string) => release === BAD_RELEASE.release;

export const SERIES: readonly Series[] = [
  latency('checkout-api', 'POST', '/checkout', (r) => (badCheckout(r) ? 240 : 180)),
  latency('checkout-api', 'GET', '/api/cart/{id}', () => 35),
  latency('checkout-api', 'POST', '/checkout', () => 190, 'staging', 30),
  latency('payments', 'POST', '/charges', () => 420),
  latency('inventory', 'GET', '/stock', (r) => (r === 'inventory@1.21.0' ? 38 : 14)),
  latency('pricing', 'GET', '/prices/{sku}', (r) => (r === 'pricing@0.10.0' ? 4.5 : 6)),
  {
    service: 'checkout-api',
    environment: 'production',
    name: 'checkout.orders',
    kind: 'counter',
    temporality: 'delta',
    everyMinutes: 5,
    sample: (rng, t, release) => ({
      value: rng.poisson(9 * trafficWeight(t) * (badCheckout(release) ? 0.55 : 1)),
      attributes: { currency: 'EUR', channel: 'all' },
    }),
  },
  {
    service: 'checkout-api',
    environment: 'production',
    name: 'db.pool.in_use',
    kind: 'gauge',
    unit: 'connections',
    everyMinutes: 5,
    sample: (rng, t) => {
      const hour = new Date(t).getUTCHours();
      // The nightly reconciliation shares the primary database.
      const job = hour === 2 ? 6 : 0;
      const value = Math.round(3 + 14 * trafficWeight(t) + job + rng.normal(0, 1.5));
      return {
        value: Math.min(25, Math.max(0, value)),
        attributes: { pool: 'primary', 'db.system': 'postgresql', max: 25 },
      };
    },
  },
  {
    service: 'storefront-web',
    environment: 'production',
    name: 'web.vitals.lcp',
    kind: 'gauge',
    unit: 'ms',
    everyMinutes: 5,
    sample: (rng, t, release) => {
      const mobile = Math.floor(t / (5 * MINUTE_MS)) % 2 === 0;
      const faster = release === 'web@1.8.2' ? 0.8 : 1;
      return {
        value: Math.round((mobile ? 2600 : 1700) * faster * rng.logNormal(1, 0.1)),
        attributes: {
          page: '/product/{slug}',
          device: mobile ? 'mobile' : 'desktop',
          percentile: 'p75',
        },
      };
    },
  },
  ...(['shop-ios', 'shop-android'] as const).map((service): Series => ({
    service,
    environment: 'production',
    name: 'app.startup.cold',
    kind: 'gauge',
    unit: 'ms',
    everyMinutes: 15,
    sample: (rng) => ({
      value: Math.round((service === 'shop-ios' ? 1100 : 1500) * rng.logNormal(1, 0.12)),
      attributes: { percentile: 'p75' },
    }),
  })),
];

/** Samples of every series from the start of the window up to "now". */
export function generateMetrics(ctx: WorldContext): void {
  const rng = ctx.rng.fork('metrics');
  for (const series of SERIES) {
    // Fewer samples at small scales, but never sparser than one every six hours.
    const every = Math.max(
      10_000,
      Math.min(6 * HOUR_MS, (series.everyMinutes * MINUTE_MS) / ctx.scale),
    );
    const first = Math.ceil(ctx.window.from / every) * every;
    for (let t = first; t <= ctx.window.to; t += every) emitSample(ctx, rng, series, t);
  }
}

function emitSample(ctx: WorldContext, rng: Rng, series: Series, t: number): void {
  const def = SERVICES[series.service];
  const release = ctx.timeline.releaseFor(series.service, series.environment, t, rng);
  const { value, attributes } = series.sample(rng, t, release);
  const item: MetricItemInput = {
    id: rng.uuid(),
    occurred_at: new Date(t).toISOString(),
    name: series.name,
    kind: series.kind,
    value,
    ...(series.unit ? { unit: series.unit } : {}),
    ...(series.temporality ? { temporality: series.temporality } : {}),
    attributes,
    release,
    environment: series.environment,
    service_name: series.service,
  };
  ctx.out.add('metrics', def.project, def.sdk, item);
}
