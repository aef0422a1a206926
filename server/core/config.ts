import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { defaultPlanQuotas, PLAN_TIERS, type PlanQuota, type PlanTier } from '../domain/plans';

/**
 * The service's whole configuration, read from the environment once at start.
 * Nothing else in server/ reads process.env: everything is passed down from here.
 */
const booleanFlag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const positiveSeconds = z.coerce.number().int().positive();

/** `10.0.0.1`, `::1`, `10.0.0.0/8`, `fd00::/8`. */
function isProxyEntry(entry: string): boolean {
  const [ip, bits, extra] = entry.split('/');
  const family = isIP(ip ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

const quotaOverride = z
  .object({
    issue_events: z.number().int().nonnegative(),
    trace_spans: z.number().int().nonnegative(),
    log_bytes: z.number().int().nonnegative(),
    metric_bytes: z.number().int().nonnegative(),
    retention_days: z.number().int().positive(),
  })
  .partial()
  .strict()
  .optional();
const planQuotaOverrides = z
  .object({ free: quotaOverride, pro: quotaOverride, scale: quotaOverride })
  .strict();

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOOKOUT_DATA_DIR: z.string().min(1).default('./.lookout'),
  /** `postgres://…`: the PostgreSQL store instead of the embedded SQLite file. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /**
   * Where telemetry lives. `clickhouse` (the default with SQLite state): ClickHouse, the embedded
   * engine (chdb) under the data directory, or the server at CLICKHOUSE_URL. `state` (the
   * default with DATABASE_URL): PostgreSQL's own telemetry tables, the "PostgreSQL only"
   * deployment. SQLite keeps no telemetry of its own.
   */
  LOOKOUT_TELEMETRY: z.enum(['state', 'clickhouse']).optional(),
  /** `http(s)://[user:password@]host:port`: a ClickHouse server instead of the embedded engine. */
  CLICKHOUSE_URL: z
    .string()
    .regex(/^https?:\/\//, 'must be an http:// or https:// URL')
    .optional(),
  /**
   * The cluster (`remote_servers` name) whose schema `deploy/clickhouse/cluster.sql` created:
   * deletes then go to every shard's local table (`ON CLUSTER`), which the Distributed tables
   * do not take. Only with CLICKHOUSE_URL.
   */
  CLICKHOUSE_CLUSTER: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'must be a plain identifier')
    .optional(),
  /** The ClickHouse database telemetry lives in (created when missing). */
  CLICKHOUSE_DATABASE: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'must be a plain identifier')
    .default('lookout'),
  LOOKOUT_DEMO: booleanFlag.default(false),
  /** Volume of the seeded demo telemetry (1 = two weeks, a few hundred thousand events); 0 = accounts only. */
  LOOKOUT_DEMO_SCALE: z.coerce.number().min(0).max(50).default(1),
  /** Seed of the demo world's generator: the same seed gives the same telemetry. */
  LOOKOUT_DEMO_SEED: z.coerce.number().int().min(0).max(0xffffffff).default(20_240_611),
  LOOKOUT_LOG_LEVEL: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
  LOOKOUT_STATIC_DIR: z.string().min(1).default('./dist'),
  LOOKOUT_ACCESS_TOKEN_TTL_SECONDS: positiveSeconds.default(15 * 60),
  LOOKOUT_REFRESH_TOKEN_TTL_SECONDS: positiveSeconds.default(30 * 24 * 60 * 60),
  LOOKOUT_FEED_TICKET_TTL_SECONDS: positiveSeconds.default(60),
  /** Alert rules are evaluated on windows aligned to this interval (docs/alerts.md). */
  LOOKOUT_ALERT_EVERY_SECONDS: positiveSeconds.default(60),
  LOOKOUT_COOKIE_SECURE: booleanFlag.default(false),
  LOOKOUT_INGEST_RATE_PER_SECOND: z.coerce.number().positive().default(50),
  LOOKOUT_INGEST_RATE_BURST: z.coerce.number().int().positive().default(200),
  /** Failed sign-ins of one account (e-mail) answered at once; each further one waits longer. */
  LOOKOUT_SIGNIN_ACCOUNT_FAILURES: z.coerce.number().int().min(1).default(5),
  /** Failed sign-ins (and unknown tokens or tickets) of one client address answered at once. */
  LOOKOUT_SIGNIN_ADDRESS_FAILURES: z.coerce.number().int().min(1).default(20),
  /** The first wait after the allowance; it doubles with each further failure. */
  LOOKOUT_SIGNIN_BACKOFF_SECONDS: positiveSeconds.default(1),
  /** The longest wait (the lockout): after it the right password works again. */
  LOOKOUT_SIGNIN_LOCKOUT_SECONDS: positiveSeconds.default(15 * 60),
  /** Failures are forgotten after this long without another one. */
  LOOKOUT_SIGNIN_FORGET_SECONDS: positiveSeconds.default(60 * 60),
  /**
   * Comma-separated addresses or CIDR blocks of reverse proxies whose `X-Forwarded-For` is
   * believed. Empty (the default): the client address is the socket's peer.
   */
  LOOKOUT_TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((s, ctx) => {
      const items = s
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== '');
      for (const item of items) {
        if (!isProxyEntry(item)) {
          ctx.addIssue({ code: 'custom', message: `not an IP address or CIDR block: ${item}` });
          return z.NEVER;
        }
      }
      return items;
    }),
  /** How often the live feed pings each connection (and sends a `heartbeat` message). */
  LOOKOUT_FEED_HEARTBEAT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  LOOKOUT_PLAN_QUOTAS: z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (!s) return {};
      try {
        return planQuotaOverrides.parse(JSON.parse(s));
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: 'must be JSON like {"free":{"issue_events":100}}',
        });
        return z.NEVER;
      }
    }),
});

export type ServiceConfig = {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection URL; null keeps the SQLite file in `dataDir`. */
  databaseUrl: string | null;
  telemetry: TelemetryConfig;
  demo: boolean;
  /** Multiplies the demo world's volumes; 0 seeds the accounts and projects only. */
  demoScale: number;
  demoSeed: number;
  logLevel: 'silent' | 'error' | 'info' | 'debug';
  staticDir: string | null;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  feedTicketTtlSeconds: number;
  cookieSecure: boolean;
  /** Per ingest key: sustained requests per second and burst size of its token bucket. */
  ingestRate: { perSecond: number; burst: number };
  planQuotas: Record<PlanTier, PlanQuota>;
  /** Sign-in throttling (auth/attempt-throttle.ts). */
  signInThrottle: SignInThrottleConfig;
  /** Reverse proxies whose `X-Forwarded-For` names the client (addresses or CIDR blocks). */
  trustedProxies: string[];
  /** Seconds between the live feed's pings and `heartbeat` messages. */
  feedHeartbeatSeconds: number;
  /**
   * Alert evaluation interval, and whether this process runs the evaluator and the webhook
   * delivery worker in the background (tests drive them with a controlled clock instead).
   */
  alerts: { everySeconds: number; background: boolean };
};

export type SignInThrottleConfig = {
  /** Failures per account (normalized e-mail) answered at once. */
  accountFailures: number;
  /** Failures per client address answered at once (sign-ins, and unknown tokens apart). */
  addressFailures: number;
  /** First wait after the allowance, doubled per further failure, at most `lockoutSeconds`. */
  backoffSeconds: number;
  lockoutSeconds: number;
  /** Quiet time after which a key's failures are forgotten. */
  forgetSeconds: number;
};

/**
 * The telemetry tier: in the state store's engine, or in ClickHouse (`url` null: the engine
 * in-process, its files in `embeddedPath`).
 */
export type TelemetryConfig =
  | { engine: 'state' }
  | {
      engine: 'clickhouse';
      url: string | null;
      database: string;
      embeddedPath: string;
      /** The cluster a server's tables are sharded over (CLICKHOUSE_CLUSTER), if any. */
      cluster?: string | null;
    };

export class ConfigError extends Error {}

export function readConfig(env: Record<string, string | undefined>): ServiceConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.LOOKOUT_DATA_DIR);
  const telemetryEngine =
    e.LOOKOUT_TELEMETRY ?? (e.DATABASE_URL && !e.CLICKHOUSE_URL ? 'state' : 'clickhouse');
  if (telemetryEngine === 'state' && e.CLICKHOUSE_URL)
    throw new ConfigError(
      'Invalid configuration:\n  CLICKHOUSE_URL: set, but LOOKOUT_TELEMETRY=state keeps telemetry out of ClickHouse',
    );
  if (e.CLICKHOUSE_CLUSTER && !e.CLICKHOUSE_URL)
    throw new ConfigError(
      'Invalid configuration:\n  CLICKHOUSE_CLUSTER: set, but a cluster is reached through a server (set CLICKHOUSE_URL to one of its nodes)',
    );
  if (telemetryEngine === 'state' && !e.DATABASE_URL)
    throw new ConfigError(
      'Invalid configuration:\n  LOOKOUT_TELEMETRY: state keeps telemetry in PostgreSQL (DATABASE_URL); SQLite keeps state only, its telemetry goes to ClickHouse (unset LOOKOUT_TELEMETRY)',
    );
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    telemetry:
      telemetryEngine === 'clickhouse'
        ? {
            engine: 'clickhouse',
            url: e.CLICKHOUSE_URL ?? null,
            database: e.CLICKHOUSE_DATABASE,
            embeddedPath: path.join(dataDir, 'clickhouse'),
            cluster: e.CLICKHOUSE_CLUSTER ?? null,
          }
        : { engine: 'state' },
    demo: e.LOOKOUT_DEMO,
    demoScale: e.LOOKOUT_DEMO_SCALE,
    demoSeed: e.LOOKOUT_DEMO_SEED,
    logLevel: e.LOOKOUT_LOG_LEVEL,
    staticDir: path.resolve(e.LOOKOUT_STATIC_DIR),
    accessTokenTtlSeconds: e.LOOKOUT_ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: e.LOOKOUT_REFRESH_TOKEN_TTL_SECONDS,
    feedTicketTtlSeconds: e.LOOKOUT_FEED_TICKET_TTL_SECONDS,
    cookieSecure: e.LOOKOUT_COOKIE_SECURE,
    ingestRate: { perSecond: e.LOOKOUT_INGEST_RATE_PER_SECOND, burst: e.LOOKOUT_INGEST_RATE_BURST },
    planQuotas: Object.fromEntries(
      PLAN_TIERS.map((t) => [t, { ...defaultPlanQuotas[t], ...(e.LOOKOUT_PLAN_QUOTAS[t] ?? {}) }]),
    ) as Record<PlanTier, PlanQuota>,
    signInThrottle: {
      accountFailures: e.LOOKOUT_SIGNIN_ACCOUNT_FAILURES,
      addressFailures: e.LOOKOUT_SIGNIN_ADDRESS_FAILURES,
      backoffSeconds: e.LOOKOUT_SIGNIN_BACKOFF_SECONDS,
      lockoutSeconds: e.LOOKOUT_SIGNIN_LOCKOUT_SECONDS,
      forgetSeconds: e.LOOKOUT_SIGNIN_FORGET_SECONDS,
    },
    trustedProxies: e.LOOKOUT_TRUSTED_PROXIES,
    feedHeartbeatSeconds: e.LOOKOUT_FEED_HEARTBEAT_SECONDS,
    alerts: { everySeconds: e.LOOKOUT_ALERT_EVERY_SECONDS, background: true },
  };
}

/**
 * Defaults for tests: everything from the schema, a given data directory, no static files.
 * `demo: true` seeds the demo accounts only (`demoScale: 0`); a test that wants the demo
 * telemetry too sets `demoScale`.
 */
export function testConfig(dataDir: string, overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    ...readConfig({ LOOKOUT_DATA_DIR: dataDir, LOOKOUT_LOG_LEVEL: 'silent' }),
    demoScale: 0,
    staticDir: null,
    // Tests run evaluation and deliveries on their own clock (server/alerts/*.test.ts).
    alerts: { everySeconds: 60, background: false },
    port: 0,
    host: '127.0.0.1',
    ...overrides,
  };
}
