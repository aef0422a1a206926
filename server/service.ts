import type { ServiceConfig } from './core/config';
import { createApp } from './app';
import type { Deps } from './core/deps';
import { createFeedHub } from './feed/feed-hub';
import { createLogger } from './core/logger';
import { openStore } from './store/open-store';
import { clickhouseExtras } from './store/clickhouse-store';
import { openSharedState } from './shared-state';
import { seedDemoAccounts, writeDemoCredentials } from './demo/demo-accounts';
import { seedDemoTelemetry, startSeedWorld } from './demo/seed-demo-world';
import { flushToolConnectionUses } from './auth/tool-connection-usage';
import { scheduleAlerts } from './alerts/alert-schedule';

/** Opens storage, seeds the demo world into an empty store when asked, and builds the app. */
export async function createService(config: ServiceConfig, now: () => number = Date.now) {
  const log = createLogger(config.logLevel);
  const store = await openStore(config, log);
  const shared = await openSharedState(config, store, log, now);
  const feed = createFeedHub({
    store,
    now,
    ticketTtlSeconds: config.feedTicketTtlSeconds,
    tickets: shared.feedTickets,
    bus: shared.feedBus,
  });
  const deps: Deps = {
    store,
    config,
    now,
    log,
    feed,
    ingestLimiter: shared.ingestLimiter,
    // logout-all ends the account's live connections on every instance (spec: Sign-out rules).
    onAccountSignedOutEverywhere: new Set([
      (accountId) =>
        void feed.closeAccount(accountId).catch(() => log.error('live feed: logout-all failed')),
    ]),
  };
  let demoCredentialsFile: string | null = null;
  if (config.demo && (await store.accounts.count()) === 0) {
    // The world is generated (on a worker thread at scale) while the accounts are made.
    const worldNow = now();
    const world =
      config.demoScale > 0
        ? startSeedWorld({ now: worldNow, seed: config.demoSeed, scale: config.demoScale })
        : null;
    const demo = await seedDemoAccounts(deps);
    demoCredentialsFile = writeDemoCredentials(config.dataDir, demo.credentials);
    // Two weeks of telemetry, sent through the ingest routes before the service listens.
    if (world) await seedDemoTelemetry(deps, demo, { world, now: worldNow });
  }
  const app = createApp(deps);
  const stopRetention = scheduleRetention(store, now, log);
  // Alert evaluation and webhook deliveries (docs/alerts.md); tests drive them on their clock.
  const stopAlerts = config.alerts.background
    ? scheduleAlerts(store, now, log, config.alerts.everySeconds)
    : async () => undefined;
  /**
   * Writes the tool connections' uses counted since the last minute, ends what instances share
   * (the feed's listening connection), then the store.
   */
  const close = async () => {
    stopRetention();
    await stopAlerts();
    await flushToolConnectionUses(deps).catch(() => log.error('tool connection uses not recorded'));
    await shared.close();
    await store.close();
  };
  return { app, deps, store, demoCredentialsFile, close };
}

const RETENTION_EVERY_MS = 3_600_000;

/**
 * Telemetry past its plan's retention is deleted hourly, on the service's clock, where the
 * telemetry engine does it (ClickHouse); the first sweep runs a minute after start.
 */
function scheduleRetention(
  store: Parameters<typeof clickhouseExtras>[0],
  now: () => number,
  log: Pick<ReturnType<typeof createLogger>, 'error'>,
): () => void {
  const extras = clickhouseExtras(store);
  if (!extras) return () => undefined;
  const sweep = () =>
    void extras
      .expireTelemetry(now())
      .catch((e: unknown) => log.error(`retention: telemetry not expired yet (${String(e)})`));
  const first = setTimeout(sweep, 60_000);
  const every = setInterval(sweep, RETENTION_EVERY_MS);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
