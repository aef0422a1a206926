import type { IssueItemInput } from '../ingest/item-schemas';
import { breadcrumbsFor } from './breadcrumbs';
import { ISSUE_CATALOG, issueGroup, renderStack, type IssueGroup } from './issue-catalog';
import type { Rng } from './random';
import { pickShopper } from './shoppers';
import { flatWeight, sampleTimes, trafficWeight } from './traffic-shape';
import { scaled, type WorldContext } from './world-context';
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  SERVICES,
  type Environment,
  type ServiceName,
  type Window,
} from './world-model';

/** Occurrences of each issue group, each with its own release, trail and context. */
export function generateIssues(ctx: WorldContext): void {
  const rng = ctx.rng.fork('issues');
  for (const group of ISSUE_CATALOG) {
    // At least a few of every group, so tiny scales still show the whole catalog.
    const count = scaled(ctx, group.base, 3);
    // Incidents and the nightly job happen in production only; the rest shows in staging too.
    const productionOnly = group.timing.kind === 'burst' || group.timing.kind === 'nightly';
    const staging = productionOnly ? 0 : Math.round(count * 0.04);
    for (const environment of ['production', 'staging'] as const) {
      const n = environment === 'production' ? count - staging : staging;
      const windows = windowsOf(ctx, group, environment);
      const times = sampleTimes(rng, n, windows, weightOf(ctx, group, environment));
      for (const t of times) occurrence(ctx, rng, group, t, environment);
    }
  }
}

/** `count` occurrences of groups that can happen within `window` (the live trickle). */
export function generateIssuesNow(ctx: WorldContext, rng: Rng, count: number): void {
  for (let i = 0; i < count; i++) {
    const t = rng.int(ctx.window.from, ctx.window.to);
    const candidates = ISSUE_CATALOG.filter((g) =>
      windowsOf(ctx, g, 'production').some((w) => w.from <= t && t <= w.to),
    );
    if (candidates.length === 0) continue;
    const group = rng.weighted(candidates.map((g) => [g, g.base] as const));
    occurrence(ctx, rng, group, t, 'production');
  }
}

function windowsOf(ctx: WorldContext, group: IssueGroup, env: Environment): Window[] {
  const { timing } = group;
  const { window } = ctx;
  const today = Math.floor(window.to / DAY_MS) * DAY_MS;
  switch (timing.kind) {
    case 'steady':
      return [window];
    case 'release': {
      const service = timing.service ?? group.service;
      return timing.releases.flatMap((r) => ctx.timeline.windowsOf(service, env, r, window));
    }
    case 'burst': {
      const from = today - timing.daysAgo * DAY_MS + timing.hourUtc * HOUR_MS;
      return [{ from, to: Math.min(window.to, from + timing.minutes * MINUTE_MS) }];
    }
    case 'after-deploy':
      return ctx.timeline
        .deployedAt(group.service, env)
        .map((at) => ({ from: at, to: Math.min(window.to, at + timing.hours * HOUR_MS) }))
        .filter((w) => w.to > window.from);
    case 'nightly': {
      const out: Window[] = [];
      for (let day = today - 15 * DAY_MS; day <= today; day += DAY_MS) {
        const from = Math.max(window.from, day + 2 * HOUR_MS);
        const to = Math.min(window.to, day + 2 * HOUR_MS + 50 * MINUTE_MS);
        if (to > from) out.push({ from, to });
      }
      return out;
    }
  }
}

function weightOf(ctx: WorldContext, group: IssueGroup, env: Environment): (t: number) => number {
  if (group.timing.kind === 'after-deploy') {
    // Stale chunks fail most right after a deployment, then fade as tabs reload.
    const deploys = ctx.timeline.deployedAt(group.service, env);
    return (t) => {
      const since = Math.min(...deploys.filter((d) => d <= t).map((d) => t - d));
      return Number.isFinite(since) ? Math.exp(-since / (0.75 * HOUR_MS)) : 0.01;
    };
  }
  const timing = group.timing;
  if (timing.kind === 'release') {
    // Errors of one app release rise as users update to it and fade once a fix ships.
    const service = timing.service ?? group.service;
    return (t) =>
      trafficWeight(t) *
      Math.max(0.02, ...timing.releases.map((r) => ctx.timeline.shareOf(service, env, r, t)));
  }
  // Incidents and nightly jobs happen whatever the hour; user-facing errors follow traffic.
  return timing.kind === 'burst' || timing.kind === 'nightly' ? flatWeight : trafficWeight;
}

/** How the SDK spells the level: aliases too, which the service normalizes. */
function severityInput(rng: Rng, group: IssueGroup): Pick<IssueItemInput, 'severity' | 'level'> {
  const platform = SERVICES[group.service].platform;
  const spelled =
    group.severity === 'warning' && rng.chance(0.5)
      ? 'warn'
      : group.severity === 'critical' && rng.chance(0.6)
        ? 'fatal'
        : group.severity;
  // The mobile SDKs still send the older `level` key.
  return platform === 'ios' || platform === 'android' ? { level: spelled } : { severity: spelled };
}

const FLAGS = (rng: Rng) => ({
  new_checkout: rng.chance(0.5),
  one_click_pay: rng.chance(0.2),
  recommendations_v2: rng.chance(0.7),
});

function attributesFor(
  rng: Rng,
  group: IssueGroup,
  service: ServiceName,
  status: number,
): Record<string, unknown> {
  const signedIn = rng.chance(0.65);
  const shopper = pickShopper(rng);
  const user = signedIn ? { user: { id: shopper.id, tier: shopper.tier } } : {};
  const platform = SERVICES[service].platform;
  const extra = group.extra?.(rng) ?? {};
  switch (platform) {
    case 'browser': {
      const browser = rng.weighted([
        [{ name: 'Chrome', version: '131.0.6778' }, 6],
        [{ name: 'Safari', version: '18.1' }, 3],
        [{ name: 'Firefox', version: '133.0' }, 1],
        [{ name: 'Edge', version: '131.0.2903' }, 1],
      ] as const);
      return {
        ...user,
        browser,
        os: {
          name:
            browser.name === 'Safari'
              ? rng.pick(['iOS', 'macOS'])
              : rng.pick(['Windows', 'Android', 'macOS']),
        },
        region: shopper.region,
        url: `https://shop.acme.dev${rng.pick(['/', '/cart', '/checkout', '/search?q=tee', '/product/organic-tee-red'])}`,
        viewport: {
          width: rng.pick([390, 414, 1280, 1440, 1920]),
          height: rng.pick([844, 896, 800, 900, 1080]),
        },
        feature_flags: FLAGS(rng),
        ...extra,
      };
    }
    case 'ios':
    case 'android':
      return {
        ...user,
        device:
          platform === 'ios'
            ? {
                model: rng.pick(['iPhone15,2', 'iPhone14,5', 'iPhone16,1']),
                os_version: rng.pick(['17.6.1', '18.1', '18.2']),
              }
            : {
                model: rng.pick(['Pixel 7', 'SM-S911B', 'moto g54']),
                os_version: rng.pick(['13', '14', '15']),
              },
        app: { in_foreground: rng.chance(0.92), memory_mb: rng.int(180, 620) },
        network: rng.weighted([
          ['wifi', 6],
          ['cellular', 4],
        ] as const),
        locale: rng.pick(['en-GB', 'de-DE', 'fr-FR', 'en-US', 'es-ES']),
        feature_flags: FLAGS(rng),
        ...extra,
      };
    default: {
      const [method, route] = (group.route ?? 'POST /jobs').split(' ');
      return {
        ...user,
        ...(group.route ? { http: { method, route, status_code: status } } : {}),
        region: 'eu-west-1',
        host: `${service}-${rng.hex(5)}-${rng.hex(5)}`,
        feature_flags: FLAGS(rng),
        ...extra,
      };
    }
  }
}

function occurrence(
  ctx: WorldContext,
  rng: Rng,
  group: IssueGroup,
  at: number,
  environment: Environment,
): void {
  const service = group.service;
  const def = SERVICES[service];
  const timing = group.timing;
  // An error that only one release has reports that release, even on a phone that has
  // several installed versions in the field.
  const pinned =
    timing.kind === 'release' && (timing.service ?? service) === service
      ? timing.releases.find(
          (r) =>
            ctx.timeline.windowsOf(service, environment, r, { from: at, to: at + 1 }).length > 0,
        )
      : undefined;
  const release = pinned ?? ctx.timeline.releaseFor(service, environment, at, rng);
  const message = group.message(rng);
  let occurredAt = at;
  let link: { trace_id: string; span_id: string } | null = null;
  const traceLink = group.trace;
  if (traceLink && rng.chance(traceLink.share)) {
    const cause = traceLink.causeKey ? issueGroup(traceLink.causeKey) : group;
    const causeRelease = ctx.timeline.releaseAt(cause.service, environment, at);
    const causeMessage = cause === group ? message : cause.message(rng);
    const trace = ctx.traces.build(rng, rng.pick(traceLink.flavors), at, {
      environment,
      releases: { [service]: release },
      ...(traceLink.app ? { app: traceLink.app } : {}),
      ...(traceLink.spans !== undefined ? { spans: traceLink.spans } : {}),
      failure: {
        tag: traceLink.tag,
        exception: {
          type: cause.exceptionType ?? 'Error',
          message: causeMessage,
          stack: renderStack(cause, causeMessage, causeRelease),
        },
        statusMessage: `${cause.exceptionType ?? 'Error'}: ${causeMessage.split('\n')[0] ?? ''}`,
        ...(traceLink.httpStatus !== undefined ? { httpStatus: traceLink.httpStatus } : {}),
        ...(traceLink.minDurationMs !== undefined
          ? { minDurationMs: traceLink.minDurationMs }
          : {}),
      },
    });
    const linked = traceLink.linkTag
      ? trace.spans.find((s) => s.tag === traceLink.linkTag)
      : trace.failed;
    if (trace.failed && linked) {
      link = { trace_id: trace.traceId, span_id: linked.item.span_id };
      // The error is reported when the failing span records its exception.
      occurredAt = Math.floor(trace.failed.endMs) - 1;
    }
  }
  const stack = renderStack(group, message, release);
  const trail = breadcrumbsFor(rng, def.platform, occurredAt);
  const item: IssueItemInput = {
    id: rng.uuid(),
    occurred_at: new Date(occurredAt).toISOString(),
    ...severityInput(rng, group),
    message,
    ...(group.exceptionType ? { exception: { type: group.exceptionType, value: message } } : {}),
    ...(stack ? { stack_trace: stack } : {}),
    ...(group.fingerprint ? { fingerprint: group.fingerprint } : {}),
    ...(group.title ? { title: group.title } : {}),
    attributes: attributesFor(rng, group, service, group.trace?.httpStatus || 500),
    ...(link ?? {}),
    ...(trail ? { breadcrumbs: trail.breadcrumbs, breadcrumbs_truncated: trail.truncated } : {}),
    release,
    environment,
    service_name: service,
  };
  ctx.out.add('issues', def.project, def.sdk, item);
}
