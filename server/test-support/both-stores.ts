import { expect } from 'vitest';
import { signIn } from './api-client';
import { startService, type RunningService } from './start-service';
import { NATIVE, createTenant, ingest } from './telemetry';
import { clickhouseTestTelemetry } from './test-clickhouse';

/**
 * What the "PostgreSQL answers as SQLite does" tests share: one service on each store, a
 * tenant of its own on each, the same batches sent to both, and a seeded random source
 * whose seed every failure prints.
 */
export type StoreSide = {
  svc: RunningService<false>;
  token: string;
  projectId: string;
  key: string;
};

async function sideOf(svc: RunningService<false>): Promise<StoreSide> {
  const tenant = await createTenant(svc, { password: 'both-stores-password' });
  const token = (await signIn(svc.baseUrl, tenant.email, tenant.password)).accessToken;
  return { svc, token, projectId: tenant.projectId, key: tenant.ingestKey };
}

/** A service on SQLite and one on PostgreSQL (LOOKOUT_TEST_DATABASE_URL), each with a tenant. */
export async function startBothStores(): Promise<{ sqlite: StoreSide; pg: StoreSide }> {
  const [a, b] = await Promise.all([
    // The default deployment: SQLite state, telemetry on ClickHouse.
    startService({ config: { databaseUrl: null, telemetry: clickhouseTestTelemetry() } }),
    startService(),
  ]);
  return { sqlite: await sideOf(a), pg: await sideOf(b) };
}

/** Sends the same native batches, in order, to each side; every one must be accepted. */
export async function ingestOnBoth(sides: readonly StoreSide[], bodies: readonly unknown[]) {
  for (const side of sides) {
    for (const body of bodies) {
      const res = await ingest(side.svc, NATIVE, side.key, body);
      expect(res.status, res.text).toBe(200);
    }
  }
}

/** mulberry32: a repeatable random source for a seed printed with every failure. */
export function seededRandom(seed: number) {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    random,
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T,
    chance: (p: number) => random() < p,
  };
}
