import { createApp } from '../app';
import { createRateLimiter } from '../http/rate-limit';
import type { Deps } from '../core/deps';
import type { DemoAccounts, DemoCredentials } from './demo-accounts';
import type { DemoDeployment } from './deployment-timeline';
import { startDemoWorld, type DemoWorldSource } from './start-demo-world';
import { appTransport, sendBatches, type SendOptions, type SendReport } from './send-batches';
import { seedDemoDeployments } from './seed-deployments';
import { seedDemoAlertRules } from './seed-alert-rules';
import { seedDemoOwnership } from './seed-ownership';
import { seedDemoTriage } from './seed-triage';
import type { Stream } from './telemetry-collector';
import { byProjectKey } from './world-model';

type AppLike = Parameters<typeof appTransport>[0];

export type SeedResult = SendReport & {
  seconds: number;
  /** What the generator made (accepted counts are in `accepted`). */
  generated: Record<Stream, number>;
  deployments: DemoDeployment[];
};

/** The ingest key of each demo project. */
export const ingestKeysByProject = (creds: DemoCredentials) =>
  byProjectKey(creds.projects, (p) => p.ingest_key);

/**
 * Requests of each project in flight while seeding. The journaled ingest writes requests of a
 * project that wait together as one insert per table (group commit), so a few in flight make
 * a few times fewer, larger ClickHouse parts: at scale 1, 67 writes instead of 259, 239 parts
 * instead of 815, and 16-22 % less CPU (8 in flight cost more than 4; bench/README.md, demo).
 */
const IN_FLIGHT = 4;

/**
 * From this scale on the world is generated in a worker thread. Below it generating takes
 * less than the worker's start (loading tsx and the generator, about a second), e.g. the e2e
 * suite's 0.05 (about 0.3 s on this thread).
 */
const WORKER_MIN_SCALE = 0.25;

/** Starts generating the world the seed sends (in a worker from WORKER_MIN_SCALE on). */
export function startSeedWorld(opts: {
  now: number;
  seed: number;
  scale: number;
  worker?: boolean;
}): DemoWorldSource {
  return startDemoWorld(
    { seed: opts.seed, now: opts.now, scale: opts.scale },
    { worker: opts.worker ?? opts.scale >= WORKER_MIN_SCALE },
  );
}

/** Generates the world and sends it through `app`'s ingest routes with the projects' keys. */
export async function seedDemoWorld(opts: {
  app: AppLike;
  credentials: DemoCredentials;
  now: number;
  seed: number;
  scale: number;
  sleep?: SendOptions['sleep'];
  onStopped?: SendOptions['onStopped'];
  /** Generate in a worker thread (by default from WORKER_MIN_SCALE on). */
  worker?: boolean;
  /** The world already being generated (`startSeedWorld` with the same seed, now and scale). */
  world?: DemoWorldSource;
}): Promise<SeedResult> {
  const world = opts.world ?? startSeedWorld(opts);
  const keys = ingestKeysByProject(opts.credentials);
  const report = await sendBatches(world.batches, {
    transport: appTransport(opts.app),
    keyOf: (project) => keys[project],
    inFlight: IN_FLIGHT,
    ...(opts.sleep ? { sleep: opts.sleep } : {}),
    ...(opts.onStopped ? { onStopped: opts.onStopped } : {}),
  });
  const summary = await world.summary;
  return {
    ...report,
    // From the start of generating, which may have begun before this call.
    seconds: (performance.now() - world.startedAt) / 1000,
    generated: summary.counts,
    deployments: summary.deployments,
  };
}

export function describeSeed(r: SeedResult): string {
  const a = r.accepted;
  return (
    `Seeded the demo world: ${a.issues} issues events, ${a.logs} logs, ${a.trace_spans} spans, ` +
    `${a.actions} actions, ${a.metrics} metrics in ${r.seconds.toFixed(1)} s`
  );
}

/**
 * The service's first start with the demo on, after the accounts (whose owner is on the pro
 * plan: the world does not fit the free quotas): send two weeks of telemetry through the
 * app's own ingest routes. The app used for
 * seeding is built like the served one but without access-log lines for its few hundred
 * requests; errors are still logged.
 */
export async function seedDemoTelemetry(
  deps: Deps,
  demo: DemoAccounts,
  started?: { world: DemoWorldSource; now: number },
): Promise<SeedResult> {
  const { demoScale: scale, demoSeed: seed } = deps.config;
  const app = createApp({
    ...deps,
    log: { info: () => {}, error: deps.log.error },
    // Its own buckets, as before the limit was shared: seeding does not spend the served keys'.
    ingestLimiter: createRateLimiter({ ...deps.config.ingestRate, now: deps.now }),
  });
  deps.log.info(`Seeding the demo world (scale ${scale}, seed ${seed})…`);
  const result = await seedDemoWorld({
    app,
    credentials: demo.credentials,
    now: started?.now ?? deps.now(),
    seed,
    scale,
    ...(started ? { world: started.world } : {}),
    onStopped: (s) =>
      deps.log.error(
        `demo world: stopped sending ${s.stream}: usage_limit_exceeded (${s.limit}) until ${s.reset_at}`,
      ),
  });
  deps.log.info(describeSeed(result), {
    issues: result.accepted.issues,
    logs: result.accepted.logs,
    trace_spans: result.accepted.trace_spans,
    actions: result.accepted.actions,
    metrics: result.accepted.metrics,
    seconds: Math.round(result.seconds * 10) / 10,
    requests: result.requests,
  });
  // Then some triage history (statuses, assignees, a manual priority) through the issue routes.
  const triage = await seedDemoTriage({ app, credentials: demo.credentials });
  deps.log.info(`Triaged demo issues with ${triage.requests} requests`);
  // And who owns what in Checkout API: ownership rules and CODEOWNERS, through their route.
  await seedDemoOwnership({ app, credentials: demo.credentials });
  // And alert rules that fire on the live trickle (docs/alerts.md), through their route.
  await seedDemoAlertRules({
    app,
    credentials: demo.credentials,
    ownerAccountId: demo.ownerAccountId,
  });
  // And the deployment timeline the world's releases follow, through the deployment route.
  const deployments = await seedDemoDeployments({
    app,
    credentials: demo.credentials,
    deployments: result.deployments,
  });
  deps.log.info(`Recorded ${deployments} demo deployments`);
  return result;
}
