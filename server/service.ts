import type { ServiceConfig } from './core/config';
import { createApp } from './app';
import type { Deps } from './core/deps';
import { createFeedHub } from './feed/feed-hub';
import { createLogger } from './core/logger';
import { openStore } from './store/open-store';
import { openSharedState } from './shared-state';
import { seedDemoAccounts, writeDemoCredentials } from './demo/demo-accounts';
import { seedDemoTelemetry } from './demo/seed-demo-world';
import { flushToolConnectionUses } from './auth/tool-connection-usage';

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
    const demo = await seedDemoAccounts(deps);
    demoCredentialsFile = writeDemoCredentials(config.dataDir, demo.credentials);
    // Two weeks of telemetry, sent through the ingest routes before the service listens.
    if (config.demoScale > 0) await seedDemoTelemetry(deps, demo);
  }
  const app = createApp(deps);
  /**
   * Writes the tool connections' uses counted since the last minute, ends what instances share
   * (the feed's listening connection), then the store.
   */
  const close = async () => {
    await flushToolConnectionUses(deps).catch(() => log.error('tool connection uses not recorded'));
    await shared.close();
    await store.close();
  };
  return { app, deps, store, demoCredentialsFile, close };
}
