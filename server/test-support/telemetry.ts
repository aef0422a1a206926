import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { PlanTier } from '../domain/plans';
import { subscriptionFor } from '../domain/subscription';
import { hashPassword, hashToken, newId, newToken } from '../domain/secrets';
import { call, type ApiResponse } from './api-client';
import { openPgPool, pgDatabase } from '../store/postgres/pg-database';
import type { Store } from '../core/store/store';
import type { RunningService } from './start-service';
import { questionMarks, storeSql, type StoreSql } from './store-sql';
import { raw, sql } from '../store/rows/sql';
import {
  openClickHouse,
  type ChDb,
  type ClickHouseTarget,
} from '../store/telemetry/clickhouse/clickhouse-db';
import { TABLES_IN_CLICKHOUSE } from '../store/clickhouse-store';

/**
 * Helpers for the ingestion and live-feed contract tests: item builders, the two ingest
 * routes, a read-only view of the SQLite file, and tenants created straight in the store.
 */

export const NATIVE = '/api/telemetry/ingest';
export const SDK = '/v1/events';

export const T0 = '2025-03-03T08:00:00.000Z';
export const at = (offsetMs: number) => new Date(Date.parse(T0) + offsetMs).toISOString();

/** Envelope (native) or context (SDK) defaults that make every item valid. */
export const CONTEXT = {
  release: 'shop@1.0.0',
  environment: 'production',
  service_name: 'checkout-api',
};

type Item = Record<string, unknown> & { id: string };

export const logItem = (o: Record<string, unknown> = {}): Item => ({
  id: randomUUID(),
  occurred_at: T0,
  severity: 'info',
  message: 'cart loaded',
  attributes: { cart_items: 3 },
  ...o,
});

export const issueItem = (o: Record<string, unknown> = {}): Item => ({
  id: randomUUID(),
  occurred_at: T0,
  severity: 'error',
  message: 'payment declined',
  exception: { type: 'PaymentError', value: 'card declined' },
  stack_trace:
    'PaymentError: card declined\n    at charge (src/pay.ts:10:5)\n    at checkout (src/checkout.ts:20:3)',
  ...o,
});

export const spanItem = (o: Record<string, unknown> = {}): Item => ({
  id: randomUUID(),
  trace_id: 'a'.repeat(32),
  span_id: randomUUID().replace(/-/g, '').slice(0, 16),
  name: 'GET /cart',
  operation: 'http.server',
  started_at: T0,
  duration_ms: 12.5,
  status: 'ok',
  ...o,
});

export const actionItem = (o: Record<string, unknown> = {}): Item => ({
  id: randomUUID(),
  occurred_at: T0,
  name: 'checkout_started',
  kind: 'interaction',
  distinct_id: 'user-1',
  session_id: 'session-1',
  properties: { plan: 'pro' },
  ...o,
});

export const metricItem = (o: Record<string, unknown> = {}): Item => ({
  id: randomUUID(),
  occurred_at: T0,
  name: 'web.vitals.lcp',
  kind: 'gauge',
  value: 2310,
  unit: 'ms',
  ...o,
});

export type NativeEnvelope = {
  issues?: Item[];
  logs?: Item[];
  trace_spans?: Item[];
  actions?: Item[];
  [key: string]: unknown;
};

export const nativeBody = (items: NativeEnvelope) => ({ ...CONTEXT, ...items });

export type SdkEvent = Item & { type: string };
export const sdkEvent = (type: string, item: Item): SdkEvent => ({ type, ...item });
export const sdkBody = (events: unknown[], extra: Record<string, unknown> = {}) => ({
  sdk: { name: 'lookout.javascript', version: '2.3.0' },
  context: { ...CONTEXT },
  events,
  ...extra,
});

export const ingest = (svc: RunningService<boolean>, route: string, key: string, json: unknown) =>
  call(svc.baseUrl, 'POST', route, { token: key, json });

export type NativeCounts = {
  issues: number;
  logs: number;
  trace_spans: number;
  actions: number;
  already_accepted: number;
};
export type SdkCounts = NativeCounts & { metrics: number; context_updated: boolean };

export const body = <T>(res: ApiResponse) => res.body as T;

/** Reads the service's SQLite file with a connection of its own, read-only. */
export function readDb<T>(dir: string, read: (db: Database.Database) => T): T {
  const db = new Database(path.join(dir, 'lookout.sqlite'), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

export const TELEMETRY_TABLES = [
  'logs',
  'issue_occurrences',
  'issues',
  'spans',
  'actions',
  'metric_samples',
] as const;
export type TelemetryTable = (typeof TELEMETRY_TABLES)[number];

/**
 * A test service whose stored rows a test reads: one in this process (`startService`), or one
 * in a process of its own (`startServiceProcess`), on SQLite or PostgreSQL alike.
 */
export type StoredData =
  | { dir: string; deps: { store: Store } }
  | { dataDir: string; databaseUrl: string | null; clickhouse?: ClickHouseTarget | null };

/**
 * Runs `read` on the ClickHouse database holding the service's `table` (the open one of a
 * service in this process, else opened for the call); undefined when the table is in the
 * state store.
 */
async function withClickHouse<T>(
  src: StoredData,
  table: string,
  read: (db: ChDb) => Promise<T>,
): Promise<T | undefined> {
  if (!TABLES_IN_CLICKHOUSE.has(table)) return undefined;
  if ('deps' in src) {
    const store = src.deps.store as Store & { clickhouse?: ChDb };
    return store.clickhouse ? read(store.clickhouse) : undefined;
  }
  if (!src.clickhouse) return undefined;
  const db = await openClickHouse(src.clickhouse);
  try {
    return await read(db);
  } finally {
    await db.close();
  }
}

async function withStoreSql<T>(src: StoredData, read: (sql: StoreSql) => Promise<T>): Promise<T> {
  let sql: StoreSql;
  if ('deps' in src) sql = storeSql(src);
  else if (src.databaseUrl) {
    const db = pgDatabase(openPgPool(src.databaseUrl, 1));
    sql = {
      dialect: 'postgres',
      rows: (text, params = []) => db.rows(questionMarks(text, params)),
      exec: async (text) => {
        await db.run(raw(text));
      },
      close: () => db.close(),
    };
  } else {
    const db = new Database(path.join(src.dataDir, 'lookout.sqlite'), {
      readonly: true,
      fileMustExist: true,
    });
    sql = {
      dialect: 'sqlite',
      rows: async <R>(text: string, params: readonly unknown[] = []) =>
        db.prepare(text).all(...params) as R[],
      exec: async (text) => {
        db.exec(text);
      },
      close: async () => {
        db.close();
      },
    };
  }
  try {
    return await read(sql);
  } finally {
    await sql.close();
  }
}

/**
 * Rows of a query (`?` placeholders) on the service's store; a plain query of a telemetry
 * table goes to ClickHouse when that table's rows live there.
 */
export async function storedRows<R = Record<string, unknown>>(
  src: StoredData,
  text: string,
  params: readonly unknown[] = [],
): Promise<R[]> {
  const table = /\bFROM (\w+)\b/i.exec(text)?.[1];
  if (table !== undefined) {
    const rows = await withClickHouse(src, table, (db) => db.rows<R>(questionMarks(text, params)));
    if (rows) return rows;
  }
  return withStoreSql(src, (sql) => sql.rows<R>(text, params));
}

/** The first row of a query on the service's store, or undefined. */
export const storedRow = async <R = Record<string, unknown>>(
  src: StoredData,
  text: string,
  params: readonly unknown[] = [],
): Promise<R | undefined> => (await storedRows<R>(src, text, params))[0];

/** Row count of every telemetry table (and the usage counters), optionally of one project. */
export async function tableCounts(src: StoredData, projectId?: string) {
  const inClickHouse = 'deps' in src ? 'clickhouse' in src.deps.store : Boolean(src.clickhouse);
  const counts = await withStoreSql(src, async (sql) => {
    const counts: Record<string, number> = {};
    const stateTables = TELEMETRY_TABLES.filter(
      (t) => !inClickHouse || !TABLES_IN_CLICKHOUSE.has(t),
    );
    for (const t of [...stateTables, 'usage_counters', 'project_contexts']) {
      const text = `SELECT COUNT(*) AS n FROM ${t}${projectId ? ' WHERE project_id = ?' : ''}`;
      const [row] = await sql.rows<{ n: number }>(text, projectId ? [projectId] : []);
      counts[t] = row?.n ?? 0;
    }
    return counts;
  });
  for (const table of TELEMETRY_TABLES) {
    const n = await withClickHouse(src, table, async (db) => {
      const where = projectId ? sql`WHERE project_id = ${projectId}` : raw('');
      return (
        await db.one<{ n: number }>(sql`SELECT toUInt32(count()) AS n FROM ${raw(table)} ${where}`)
      )?.n;
    });
    if (n !== undefined) counts[table] = n;
  }
  return counts;
}

/** How many rows of a table hold each of the ids (column `id`, or `event_id` for metrics). */
export async function idCounts(
  src: StoredData,
  table: TelemetryTable,
  projectId: string,
  ids: string[],
): Promise<number[]> {
  const column = table === 'metric_samples' ? 'event_id' : 'id';
  const onClickHouse = await withClickHouse(src, table, async (db) => {
    const rows = await db.rows<{ id: string; n: number }>(
      sql`SELECT ${raw(column)} AS id, toUInt32(count()) AS n FROM ${raw(table)}
        WHERE project_id = ${projectId} AND ${raw(column)} IN ${ids} GROUP BY id`,
    );
    const byId = new Map(rows.map((r) => [r.id, r.n]));
    return ids.map((id) => byId.get(id) ?? 0);
  });
  if (onClickHouse) return onClickHouse;
  return withStoreSql(src, async (sql) => {
    const counts: number[] = [];
    for (const id of ids) {
      const [row] = await sql.rows<{ n: number }>(
        `SELECT COUNT(*) AS n FROM ${table} WHERE project_id = ? AND ${column} = ?`,
        [projectId, id],
      );
      counts.push(row?.n ?? 0);
    }
    return counts;
  });
}

export type UsageRow = { stream: string; day: number; events: number; bytes: number };

/** The usage counters of a project, by stream. */
export async function usageOf(
  src: StoredData,
  projectId: string,
): Promise<Record<string, UsageRow>> {
  const rows = await storedRows<UsageRow>(
    src,
    'SELECT stream, day, events, bytes FROM usage_counters WHERE project_id = ?',
    [projectId],
  );
  return Object.fromEntries(rows.map((r) => [r.stream, r]));
}

export type Tenant = {
  accountId: string;
  organizationId: string;
  projectId: string;
  ingestKey: string;
  email: string;
  password: string;
};

/**
 * An account owning its own organization and project, with an ingest key: its usage and
 * access are independent of the demo world (whatever the demo seeds).
 */
export async function createTenant(
  svc: RunningService<boolean>,
  opts: { tier?: PlanTier; password?: string } = {},
): Promise<Tenant> {
  const store = svc.deps.store;
  const now = svc.clock.now();
  const accountId = newId();
  const organizationId = newId();
  const projectId = newId();
  const short = accountId.slice(0, 8);
  const email = `owner-${short}@elsewhere.test`;
  const password = opts.password ?? 'not-used';
  await store.accounts.create({
    id: accountId,
    email,
    name: null,
    passwordHash: opts.password ? await hashPassword(password) : 'scrypt$unusable',
    createdAt: now,
    revokedBefore: null,
  });
  await store.accounts.createOrganization({
    id: organizationId,
    slug: `org-${short}`,
    name: `Org ${short}`,
    createdAt: now,
  });
  await store.accounts.addMember({ organizationId, accountId, role: 'owner' });
  await store.projects.create({
    id: projectId,
    organizationId,
    slug: `project-${short}`,
    name: `Project ${short}`,
    createdAt: now,
  });
  const ingestKey = await addIngestKey(svc, projectId);
  if (opts.tier) {
    const plan = subscriptionFor({ tier: opts.tier }, now);
    if (!plan.ok) throw new Error(plan.error);
    await store.usage.setPlan(accountId, plan.subscription);
  }
  return { accountId, organizationId, projectId, ingestKey, email, password };
}

/** A new ingest key of the project, optionally already revoked or with an expiry. */
export async function addIngestKey(
  svc: RunningService<boolean>,
  projectId: string,
  times: { expiresAt?: number; revokedAt?: number } = {},
): Promise<string> {
  const key = newToken('ingest');
  await svc.deps.store.projects.createIngestKey({
    id: newId(),
    projectId,
    name: 'test key',
    keyHash: hashToken(key),
    keyPrefix: key.slice(0, 12),
    createdAt: svc.clock.now(),
    expiresAt: times.expiresAt ?? null,
    revokedAt: times.revokedAt ?? null,
  });
  return key;
}
