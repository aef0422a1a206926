import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { listen } from '../listen';
import { createApp } from '../app';
import { testConfig, type ServiceConfig } from '../core/config';
import type { DemoCredentials } from '../demo/demo-accounts';
import type { AppEnv } from '../http/app-env';
import type { Deps } from '../core/deps';
import type { Logger } from '../core/logger';
import { createService } from '../service';
import { shutdownService } from '../shutdown';
import { createTestDatabase, type TestDatabase } from './test-database';
import { dropTestTelemetry, testTelemetry } from './test-clickhouse';

/** A clock that only moves when a test moves it, so expiry is tested without sleeping. */
export type TestClock = {
  now: () => number;
  advance(ms: number): void;
  set(epochMs: number): void;
};

export const CLOCK_START = Date.parse('2025-03-03T09:00:00.000Z');

export function createTestClock(start = CLOCK_START): TestClock {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (epochMs) => {
      current = epochMs;
    },
  };
}

export type StartOptions<D extends boolean> = {
  /** Seed the demo accounts and read back `<dir>/demo-credentials.json`. */
  demo?: D;
  config?: Partial<ServiceConfig>;
  /** Replaces the service's logger (to capture access-log lines). */
  log?: Logger;
  clock?: TestClock;
  /** Registers extra routes on the app before it listens (e.g. a handler that throws). */
  extend?: (app: OpenAPIHono<AppEnv>) => void;
  /** Another instance on the same store: the PostgreSQL schema of this running service. */
  sameDatabaseAs?: RunningService<boolean>;
};

export type RunningService<D extends boolean> = {
  baseUrl: string;
  deps: Deps;
  app: OpenAPIHono<AppEnv>;
  clock: TestClock;
  dir: string;
  creds: D extends true ? DemoCredentials : null;
  /** Where its data lives (PostgreSQL schema, or none for SQLite). */
  database: TestDatabase;
  /** SIGTERM's orderly shutdown (see server/shutdown.ts); `close()` still cleans up after it. */
  shutdown(graceMs?: number): Promise<void>;
  close(): Promise<void>;
};

/**
 * Starts the real service on a temporary data directory, listening on 127.0.0.1 at a free
 * port, for contract tests that talk HTTP with `fetch`. `close()` removes everything.
 */
export async function startService<D extends boolean = false>(
  opts: StartOptions<D> = {},
): Promise<RunningService<D>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-test-'));
  const clock = opts.clock ?? createTestClock();
  const database = opts.sameDatabaseAs
    ? opts.sameDatabaseAs.database.share()
    : await createTestDatabase();
  // A second instance shares the first one's telemetry too.
  const telemetry = opts.sameDatabaseAs
    ? opts.sameDatabaseAs.deps.config.telemetry
    : (testTelemetry() ?? { engine: 'state' as const });
  const config = testConfig(dir, {
    databaseUrl: database.url,
    telemetry,
    ...opts.config,
    demo: opts.demo === true,
  });
  const ownsTelemetry = !opts.sameDatabaseAs && config.telemetry.engine === 'clickhouse';
  const dropTelemetry = async () => {
    if (ownsTelemetry) await dropTestTelemetry(config.telemetry);
  };
  const service = await createService(config, clock.now).catch(async (err: unknown) => {
    await database.drop();
    await dropTelemetry();
    throw err;
  });
  // The access log captures its logger when the app is built, so a custom one needs a new app.
  const deps: Deps = opts.log ? { ...service.deps, log: opts.log } : service.deps;
  const app = opts.log ? createApp(deps) : service.app;
  opts.extend?.(app);

  let creds: DemoCredentials | null = null;
  if (opts.demo) {
    const file = path.join(dir, 'demo-credentials.json');
    creds = JSON.parse(fs.readFileSync(file, 'utf8')) as DemoCredentials;
  }

  const running = await listen(app, 0, '127.0.0.1');
  const port = running.port;
  let stopped = false;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    deps,
    app,
    clock,
    dir,
    creds: creds as RunningService<D>['creds'],
    database,
    async shutdown(graceMs) {
      stopped = true;
      await shutdownService(running, service, graceMs);
    },
    async close() {
      if (!stopped) {
        stopped = true;
        await running.close();
        await service.close();
      }
      await database.drop();
      await dropTelemetry();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
