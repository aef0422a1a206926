import type { ServiceConfig } from './config';
import { createApp } from './app';
import type { Deps } from './http/app-env';
import { createFeedHub } from './feed/feed-hub';
import { createLogger } from './http/logger';
import { openStore } from './store/open-store';
import { seedDemoAccounts, writeDemoCredentials } from './demo/demo-accounts';
import { seedDemoTelemetry } from './demo/seed-demo-world';

/** Opens storage, seeds the demo world into an empty store when asked, and builds the app. */
export async function createService(config: ServiceConfig, now: () => number = Date.now) {
  const store = await openStore(config);
  const feed = createFeedHub({ store, now, ticketTtlSeconds: config.feedTicketTtlSeconds });
  const deps: Deps = {
    store,
    config,
    now,
    log: createLogger(config.logLevel),
    feed,
    // logout-all ends the account's live connections (spec: Sign-out rules).
    onAccountSignedOutEverywhere: new Set([(accountId) => feed.closeAccount(accountId)]),
  };
  let demoCredentialsFile: string | null = null;
  if (config.demo && (await store.accounts.count()) === 0) {
    const demo = await seedDemoAccounts(deps);
    demoCredentialsFile = writeDemoCredentials(config.dataDir, demo.credentials);
    // Two weeks of telemetry, sent through the ingest routes before the service listens.
    if (config.demoScale > 0) await seedDemoTelemetry(deps, demo);
  }
  const app = createApp(deps);
  return { app, deps, store, demoCredentialsFile };
}
