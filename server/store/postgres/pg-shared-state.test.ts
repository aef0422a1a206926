import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestSchema } from '../../test-support/pg-test-schema';
import { pgFeedTickets, pgRateLimiter } from './pg-shared-state';

const T0 = Date.parse('2025-03-03T09:00:00.000Z');

describe.skipIf(!process.env.LOOKOUT_TEST_DATABASE_URL)('PostgreSQL shared state', () => {
  let schema: Awaited<ReturnType<typeof openTestSchema>>;
  beforeEach(async () => {
    schema = await openTestSchema();
  });
  afterEach(async () => {
    await schema.close();
  });

  describe('feed tickets', () => {
    it('a ticket put by one instance is taken once by another', async () => {
      const a = pgFeedTickets(schema.instance());
      const b = pgFeedTickets(schema.instance());
      const ticket = { accountId: 'acc-1', issuedAt: T0, expiresAt: T0 + 60_000 };
      await a.put('h1', ticket);
      expect(await b.take('h1')).toEqual(ticket);
      expect(await b.take('h1')).toBeNull();
      expect(await a.take('h1')).toBeNull();
    });

    it('of concurrent takes at several instances, exactly one gets the ticket', async () => {
      const instances = [1, 2, 3].map(() => pgFeedTickets(schema.instance()));
      await instances[0]?.put('h1', { accountId: 'a', issuedAt: T0, expiresAt: T0 + 1 });
      const taken = await Promise.all(
        instances.flatMap((t) => [t.take('h1'), t.take('h1'), t.take('h1')]),
      );
      expect(taken.filter((t) => t !== null)).toHaveLength(1);
    });

    it('dropAccount spends that account’s tickets only; sweep the expired ones', async () => {
      const t = pgFeedTickets(schema.instance());
      await t.put('mine', { accountId: 'a', issuedAt: T0, expiresAt: T0 + 60_000 });
      await t.put('theirs', { accountId: 'b', issuedAt: T0, expiresAt: T0 + 60_000 });
      await t.put('old', { accountId: 'b', issuedAt: T0, expiresAt: T0 + 1_000 });
      await t.dropAccount('a');
      await t.sweep(T0 + 1_000);
      expect(await t.take('mine')).toBeNull();
      expect(await t.take('old')).toBeNull();
      expect(await t.take('theirs')).not.toBeNull();
    });
  });

  describe('ingest rate limits', () => {
    it('one bucket per key across instances: a burst, then refusals until it refills', async () => {
      let t = T0;
      const opts = { perSecond: 2, burst: 3, now: () => t };
      const a = pgRateLimiter(schema.instance(), opts);
      const b = pgRateLimiter(schema.instance(), opts);
      expect([(await a.take('k')).ok, (await b.take('k')).ok, (await a.take('k')).ok]).toEqual([
        true,
        true,
        true,
      ]);
      expect(await b.take('k')).toEqual({ ok: false, retryAfterSeconds: 1 });
      // A refused request takes nothing: half a second later one token is back.
      t += 500;
      expect((await a.take('k')).ok).toBe(true);
      expect((await b.take('k')).ok).toBe(false);
      expect((await b.take('other')).ok).toBe(true);
    });

    it('concurrent requests at two instances get exactly the burst', async () => {
      const opts = { perSecond: 0.001, burst: 5, now: () => T0 };
      const a = pgRateLimiter(schema.instance(), opts);
      const b = pgRateLimiter(schema.instance(), opts);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).take('k')),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(5);
    });

    it('names the whole seconds until a token is back, as in memory', async () => {
      const limiter = pgRateLimiter(schema.instance(), {
        perSecond: 0.25,
        burst: 1,
        now: () => T0,
      });
      await limiter.take('k');
      expect(await limiter.take('k')).toEqual({ ok: false, retryAfterSeconds: 4 });
    });

    it('an instance whose clock is behind the bucket’s refills nothing and drains nothing', async () => {
      const a = pgRateLimiter(schema.instance(), { perSecond: 1, burst: 2, now: () => T0 });
      const late = pgRateLimiter(schema.instance(), {
        perSecond: 1,
        burst: 2,
        now: () => T0 - 5_000,
      });
      expect((await a.take('k')).ok).toBe(true);
      expect((await late.take('k')).ok).toBe(true);
      expect((await a.take('k')).ok).toBe(false);
    });
  });
});
