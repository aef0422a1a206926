import type { LogItemInput } from '../ingest/item-schemas';
import type { Rng } from './random';
import { pickShopper } from './shoppers';
import type { EmittedSpan, EmittedTrace } from './span-tree';
import { flatWeight, sampleTimes, trafficWeight } from './traffic-shape';
import { scaled, type WorldContext } from './world-context';
import { SERVICES, type Environment, type ServiceName } from './world-model';

/**
 * Structured logs: the ones services write while serving traced requests (access logs, slow
 * queries, failures, job progress), which carry that trace's ids, and the steady background
 * of everything else (sign-ins, webhooks, cron jobs, health checks, browser and app logs).
 */
type Severity = 'info' | 'warning' | 'error' | 'critical';

type Log = {
  service: ServiceName;
  source: string;
  severity: Severity;
  message: string;
  attributes: Record<string, unknown>;
  /** Spelled as a debug or trace line (both read as info). */
  verbose?: boolean;
};

/** The spelling an SDK uses: aliases sometimes, and the older `level` key on mobile. */
function severityFields(rng: Rng, log: Log): Pick<LogItemInput, 'severity' | 'level'> {
  let spelled: string = log.severity;
  if (log.verbose) spelled = rng.chance(0.8) ? 'debug' : 'trace';
  else if (log.severity === 'warning' && rng.chance(0.5)) spelled = 'warn';
  else if (log.severity === 'critical' && rng.chance(0.7)) spelled = 'fatal';
  const platform = SERVICES[log.service].platform;
  return platform === 'ios' || platform === 'android' || rng.chance(0.05)
    ? { level: spelled }
    : { severity: spelled };
}

function push(
  ctx: WorldContext,
  rng: Rng,
  log: Log,
  at: number,
  environment: Environment,
  link?: { traceId: string; span: EmittedSpan },
  release?: string,
): void {
  const def = SERVICES[log.service];
  const item: LogItemInput = {
    id: rng.uuid(),
    occurred_at: new Date(at).toISOString(),
    ...severityFields(rng, log),
    message: log.message,
    source: log.source,
    attributes: log.attributes,
    ...(link ? { trace_id: link.traceId, span_id: link.span.item.span_id } : {}),
    release: release ?? ctx.timeline.releaseFor(log.service, environment, at, rng),
    environment,
    service_name: log.service,
  };
  // Database logs are shipped by the service that owns the connection.
  const project = link ? link.span.project : def.project;
  const sdk = link ? link.span.sdk : def.sdk;
  ctx.out.add('logs', project, sdk, item);
}

/** Kubernetes labels: keys with `/`, which JSON Pointer paths escape as `~1`. */
const k8sLabels = (service: ServiceName, release: string) => ({
  'app.kubernetes.io/name': service,
  'app.kubernetes.io/version': release.split('@')[1] ?? release,
});

const ms = (n: number) => Math.round(n * 10) / 10;

/** The logs a service writes about one span of a trace, if any. */
function logsOfSpan(rng: Rng, span: EmittedSpan, trace: EmittedTrace): Log[] {
  const s = span.item;
  const service = s.service_name as ServiceName;
  const attrs = s.attributes ?? {};
  const duration = ms(s.duration_ms);
  const out: Log[] = [];
  const exception = s.events?.find((e) => e.name === 'exception');
  if (exception) {
    const type = String(exception.attributes?.['exception.type'] ?? 'Error');
    const message = String(exception.attributes?.['exception.message'] ?? '').split('\n')[0];
    out.push({
      service,
      source: service === 'payments' ? 'payments' : service === 'inventory' ? 'worker' : 'http',
      severity: 'error',
      message: `${s.name} failed: ${type}: ${message}`,
      attributes: { error: { type, message }, span_name: s.name, duration_ms: duration },
    });
  }
  switch (s.operation) {
    case 'http.server': {
      if (!rng.chance(0.55)) break;
      const status = Number(attrs['http.status_code'] ?? 200);
      const shopper = pickShopper(rng);
      out.push({
        service,
        source: 'http',
        severity: status >= 500 ? 'error' : status >= 400 ? 'warning' : 'info',
        message: `${String(attrs['http.method'])} ${String(attrs['http.target'])} ${status} in ${duration}ms`,
        attributes: {
          http: {
            method: attrs['http.method'],
            route: attrs['http.route'] ?? null,
            status_code: status,
          },
          duration_ms: duration,
          ...(rng.chance(0.6) ? { user: { id: shopper.id, tier: shopper.tier } } : {}),
          ...(rng.chance(0.3) ? { k8s: k8sLabels(service, s.release ?? '') } : {}),
        },
      });
      break;
    }
    case 'db.query':
      if (duration > 60) {
        out.push({
          service: 'postgres',
          source: 'db',
          severity: 'warning',
          message: `duration: ${duration} ms  statement: ${String(attrs['db.statement'])}`,
          attributes: {
            db: {
              system: 'postgresql',
              table: attrs['db.sql.table'],
              statement: attrs['db.statement'],
              duration_ms: duration,
            },
            slow_query_threshold_ms: 60,
          },
        });
      }
      break;
    case 'queue.process':
      if (s.name === 'inventory.reconcile') {
        out.push({
          service,
          source: 'worker',
          severity: s.status === 'error' ? 'error' : 'info',
          message: `inventory.reconcile ${s.status === 'error' ? 'aborted' : 'finished'} after ${Math.round(duration)}ms (${trace.spans.length} spans)`,
          attributes: {
            job: {
              name: 'inventory.reconcile',
              mode: attrs['job.mode'],
              batches: attrs['job.batches'],
            },
            duration_ms: duration,
          },
        });
      } else if (rng.chance(0.7)) {
        out.push({
          service,
          source: 'worker',
          severity: 'info',
          message: `processed order.created for order ${String(attrs['order.id'])} in ${duration}ms`,
          attributes: {
            job: { name: 'order.created', attempt: 1 },
            order: { id: attrs['order.id'] },
            duration_ms: duration,
          },
        });
      }
      break;
    case 'http.client':
      if (attrs['server.address'] === 'api.stripe.com' && !exception && rng.chance(0.8)) {
        out.push({
          service,
          source: 'payments',
          severity: duration > 900 ? 'warning' : 'info',
          message:
            duration > 900
              ? `payment provider slow: stripe answered in ${duration}ms`
              : `stripe payment_intent pi_${rng.hex(12)} confirmed in ${duration}ms`,
          attributes: {
            provider: 'stripe',
            payment: {
              amount: attrs['payment.amount'],
              currency: attrs['payment.currency'],
              captured: true,
            },
            latency_ms: duration,
          },
        });
      }
      break;
    case 'ui.load':
      if (rng.chance(0.2)) {
        out.push({
          service,
          source: 'app',
          severity: 'info',
          verbose: true,
          message: `${s.name} loaded in ${Math.round(duration)}ms`,
          attributes: { screen: s.name, duration_ms: duration, cold_start: rng.chance(0.1) },
        });
      }
      break;
    case 'pageload':
      if (rng.chance(0.1)) {
        const lcp = s.events?.find((e) => e.name === 'largest-contentful-paint')?.attributes
          ?.value_ms;
        out.push({
          service,
          source: 'console',
          severity: 'info',
          verbose: true,
          message: `[perf] LCP ${String(lcp)}ms on ${s.name}`,
          attributes: { page: s.name, web_vitals: { lcp_ms: lcp } },
        });
      }
      break;
  }
  if (s.name === 'reconcile batch' && rng.chance(0.08)) {
    out.push({
      service,
      source: 'worker',
      severity: 'info',
      verbose: true,
      message: `reconciled 50 SKUs in ${String(attrs.warehouse)}`,
      attributes: { warehouse: attrs.warehouse, batch: { size: 50 } },
    });
  }
  return out;
}

/** Logs that describe the traces built so far; they carry the trace and span ids. */
export function generateTraceLogs(ctx: WorldContext, rng: Rng, traces: readonly EmittedTrace[]) {
  for (const trace of traces) {
    for (const span of trace.spans) {
      for (const log of logsOfSpan(rng, span, trace)) {
        const at = Math.min(ctx.window.to, Math.floor(span.endMs));
        push(
          ctx,
          rng,
          log,
          at,
          trace.environment,
          { traceId: trace.traceId, span },
          span.item.release,
        );
      }
    }
  }
}

type Template = {
  weight: number;
  /** Follows the shop's traffic; otherwise steady around the clock (cron, health checks). */
  traffic: boolean;
  make: (rng: Rng) => Log;
};

const maskedEmail = (rng: Rng) =>
  `${rng.pick(['a', 'j', 'm', 's', 'k', 't'])}***@${rng.pick(['gmail.com', 'outlook.com', 'acme-customer.eu', 'web.de'])}`;

const TEMPLATES: readonly Template[] = [
  {
    weight: 14,
    traffic: true,
    make: (rng) => {
      const shopper = pickShopper(rng);
      const ok = rng.chance(0.9);
      return {
        service: 'checkout-api',
        source: 'auth',
        severity: ok ? 'info' : 'warning',
        message: ok
          ? `login succeeded for user ${shopper.id}`
          : `login failed for ${maskedEmail(rng)}: invalid password`,
        attributes: {
          user: ok ? { id: shopper.id, tier: shopper.tier } : { id: null },
          auth: {
            method: rng.pick(['password', 'password', 'google', 'apple']),
            mfa: rng.chance(0.3),
            attempt: ok ? 1 : rng.int(1, 5),
          },
        },
      };
    },
  },
  {
    weight: 6,
    traffic: true,
    make: (rng) => {
      const shopper = pickShopper(rng);
      return {
        service: 'checkout-api',
        source: 'auth',
        severity: 'info',
        verbose: true,
        message: `refresh token rotated for user ${shopper.id}`,
        attributes: {
          user: { id: shopper.id, tier: shopper.tier },
          token: { family_age_days: rng.int(0, 29) },
        },
      };
    },
  },
  {
    weight: 10,
    traffic: true,
    make: (rng) => {
      const event = rng.weighted([
        ['charge.succeeded', 8],
        ['charge.refunded', 1],
        ['charge.dispute.created', 0.2],
        ['payment_intent.payment_failed', 1.5],
      ] as const);
      const badSignature = rng.chance(0.02);
      return {
        service: 'payments',
        source: 'payments',
        severity: badSignature
          ? 'warning'
          : event === 'charge.dispute.created'
            ? 'warning'
            : 'info',
        message: badSignature
          ? 'webhook signature verification failed; ignoring event'
          : `webhook received: ${event}`,
        attributes: {
          'stripe/event': event,
          webhook: { id: `evt_${rng.hex(14)}`, livemode: true, delivery_attempt: rng.int(1, 2) },
          signature_valid: !badSignature,
        },
      };
    },
  },
  {
    weight: 3,
    traffic: true,
    make: (rng) => {
      const amount = Math.round(rng.logNormal(40, 0.6) * 100) / 100;
      return {
        service: 'payments',
        source: 'payments',
        severity: 'info',
        message: `refund issued for order ${rng.int(100_000, 999_999)}: ${amount.toFixed(2)} EUR`,
        attributes: {
          refund: {
            amount,
            currency: 'EUR',
            reason: rng.pick(['requested_by_customer', 'duplicate', 'fraudulent']),
          },
        },
      };
    },
  },
  {
    weight: 8,
    traffic: false,
    make: (rng) => {
      const inUse = rng.int(2, 22);
      const waiting = inUse > 19 ? rng.int(1, 6) : 0;
      return {
        service: 'checkout-api',
        source: 'db',
        severity: waiting > 0 ? 'warning' : 'info',
        verbose: waiting === 0,
        message:
          waiting > 0
            ? `connection pool saturated: ${inUse}/25 in use, ${waiting} waiting`
            : `connection pool: ${inUse}/25 in use`,
        attributes: {
          pool: { name: 'primary', in_use: inUse, max: 25, waiting },
          db: { system: 'postgresql' },
        },
      };
    },
  },
  {
    weight: 7,
    traffic: false,
    make: (rng) => {
      const retry = rng.chance(0.12);
      const dead = retry && rng.chance(0.1);
      return {
        service: 'checkout-api',
        source: 'worker',
        severity: dead ? 'error' : retry ? 'warning' : 'info',
        message: dead
          ? 'dead-lettered job email.send after 5 attempts'
          : retry
            ? `retrying job email.send (attempt ${rng.int(2, 4)}/5): 429 Too Many Requests`
            : `cron carts.expire: expired ${rng.int(0, 40)} carts`,
        attributes: {
          job: {
            name: retry ? 'email.send' : 'carts.expire',
            queue: 'default',
            attempt: retry ? rng.int(2, 5) : 1,
          },
          'cron~schedule': retry ? null : '*/15 * * * *',
          duration_ms: ms(rng.logNormal(40, 0.8)),
        },
      };
    },
  },
  {
    weight: 9,
    traffic: false,
    make: (rng) => {
      const service = rng.pick(['inventory', 'pricing', 'checkout-api', 'payments'] as const);
      return {
        service,
        source: 'http',
        severity: 'info',
        verbose: true,
        message: 'GET /healthz 200 in 1ms',
        attributes: {
          http: { method: 'GET', route: '/healthz', status_code: 200 },
          probe: 'kubelet',
          ready: true,
        },
      };
    },
  },
  {
    weight: 3,
    traffic: false,
    make: (rng) => ({
      service: 'inventory',
      source: 'worker',
      severity: 'info',
      message: `expired ${rng.int(0, 25)} reservations`,
      attributes: {
        job: { name: 'reservations.expire', scheduled: true },
        warehouse: rng.pick(['FRA-1', 'AMS-2', 'MAD-1']),
      },
    }),
  },
  {
    weight: 2,
    traffic: false,
    make: (rng) => ({
      service: 'pricing',
      source: 'cache',
      severity: 'info',
      message: `price cache warmed: ${rng.int(900, 1400)} SKUs in ${rng.int(200, 900)}ms`,
      attributes: {
        cache: {
          backend: 'redis',
          ttl_seconds: 3600,
          hit_ratio: Math.round(rng.float(0.7, 0.97) * 1000) / 1000,
        },
      },
    }),
  },
  {
    weight: 0.05,
    traffic: true,
    make: (rng) => ({
      service: 'checkout-api',
      source: 'http',
      severity: 'critical',
      message: 'uncaught exception; process exiting so the orchestrator restarts it',
      attributes: {
        process: { pid: rng.int(1, 64), uptime_s: rng.int(60, 900_000) },
        exit_code: 1,
      },
    }),
  },
  {
    weight: 12,
    traffic: true,
    make: (rng) => {
      const kind = rng.weighted([
        ['hydrate', 5],
        ['slow', 2],
        ['consent', 2],
        ['sw', 0.1],
      ] as const);
      const base = { service: 'storefront-web' as const, source: 'console' };
      switch (kind) {
        case 'hydrate':
          return {
            ...base,
            severity: 'info',
            verbose: true,
            message: `[cart] hydrated ${rng.int(0, 6)} items from storage`,
            attributes: { storage: 'localStorage', bytes: rng.int(80, 4000) },
          };
        case 'slow':
          return {
            ...base,
            severity: 'warning',
            message: `Slow resource /assets/hero.avif took ${rng.int(1500, 4000)}ms`,
            attributes: {
              resource: { path: '/assets/hero.avif', size_kb: 412 },
              connection: rng.pick(['4g', '3g', 'wifi']),
            },
          };
        case 'consent':
          return {
            ...base,
            severity: 'info',
            message: '[analytics] consent not given, tracking disabled',
            attributes: { consent: { analytics: false, marketing: false } },
          };
        case 'sw':
          return {
            ...base,
            severity: 'error',
            message: 'Failed to register service worker: The operation is insecure.',
            attributes: { browser: { name: 'Firefox', private_mode: true } },
          };
      }
    },
  },
  {
    weight: 9,
    traffic: true,
    make: (rng) => {
      const service = rng.chance(0.55) ? ('shop-ios' as const) : ('shop-android' as const);
      const kind = rng.weighted([
        ['active', 5],
        ['push', 2],
        ['cache', 1],
        ['memory', 0.5],
      ] as const);
      const device = {
        platform: service === 'shop-ios' ? 'ios' : 'android',
        battery_low: rng.chance(0.1),
      };
      switch (kind) {
        case 'active':
          return {
            service,
            source: 'app',
            severity: 'info',
            verbose: true,
            message: 'app became active',
            attributes: { device, session: { resumed: rng.chance(0.6) } },
          };
        case 'push':
          return {
            service,
            source: 'app',
            severity: 'info',
            message: 'push token registered',
            attributes: {
              device,
              push: { provider: service === 'shop-ios' ? 'apns' : 'fcm', opted_in: true },
            },
          };
        case 'cache':
          return {
            service,
            source: 'app',
            severity: 'info',
            message: `image cache trimmed to ${rng.int(30, 60)} MB`,
            attributes: { device, cache: { evicted: rng.int(10, 400) } },
          };
        case 'memory':
          return {
            service,
            source: 'app',
            severity: 'warning',
            message: 'low memory warning received',
            attributes: { device, memory: { available_mb: rng.int(40, 180) } },
          };
      }
    },
  },
];

/** `count` background logs within `window`, shaped by their templates' rhythm. */
export function generateBackgroundLogs(ctx: WorldContext, rng: Rng, count: number): void {
  const total = TEMPLATES.reduce((sum, t) => sum + t.weight, 0);
  for (const template of TEMPLATES) {
    const n = rng.poisson((count * template.weight) / total);
    const times = sampleTimes(rng, n, [ctx.window], template.traffic ? trafficWeight : flatWeight);
    for (const at of times) {
      const environment = rng.chance(0.06) ? 'staging' : 'production';
      push(ctx, rng, template.make(rng), at, environment);
    }
  }
}

export function generateLogs(ctx: WorldContext): void {
  const rng = ctx.rng.fork('logs');
  generateTraceLogs(ctx, rng, ctx.traces.traces);
  generateBackgroundLogs(ctx, rng, scaled(ctx, 45_000, 150));
}
