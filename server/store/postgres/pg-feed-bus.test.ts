import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FeedBusHandlers } from '../../core/feed-bus';
import { openTestSchema } from '../../test-support/pg-test-schema';
import { pgFeedBus, type PgFeedBus } from './pg-feed-bus';
import { sql } from '../rows/sql';

const quiet = { info: () => undefined, error: () => undefined };

/** What one instance's hub hears from the others. */
function hearing(wanted = true) {
  const events: { projectId: string; texts: readonly string[] }[] = [];
  const signOuts: { accountId: string; at: number }[] = [];
  const handlers: FeedBusHandlers = {
    wanted: () => wanted,
    event: async (projectId, texts) => {
      events.push({ projectId, texts });
    },
    signedOut: (accountId, at) => signOuts.push({ accountId, at }),
  };
  return { events, signOuts, handlers };
}

describe.skipIf(!process.env.LOOKOUT_TEST_DATABASE_URL)('PostgreSQL feed bus', () => {
  let schema: Awaited<ReturnType<typeof openTestSchema>>;
  const buses: PgFeedBus[] = [];
  const open = async () => {
    const bus = await pgFeedBus({
      db: schema.instance(),
      schema: schema.schema,
      url: schema.url,
      log: quiet,
    });
    buses.push(bus);
    return bus;
  };
  beforeEach(async () => {
    schema = await openTestSchema();
  });
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
    await schema.close();
  });

  it('a publish at one instance reaches the others whole, not the publisher itself', async () => {
    const a = await open();
    const b = await open();
    const atA = hearing();
    const atB = hearing();
    a.receive(atA.handlers);
    b.receive(atB.handlers);
    // Far above NOTIFY's 8000-byte payload, with a NUL that PostgreSQL TEXT cannot hold raw.
    const big = JSON.stringify({ type: 'native_log', data: { message: 'x\u0000'.repeat(50_000) } });
    const texts = [big, JSON.stringify({ type: 'native_action', data: { id: 'a1' } })];
    await b.publish('p1', texts);
    await b.publish('p2', ['{"type":"native_log","data":{}}']);
    await vi.waitFor(() => expect(atA.events).toHaveLength(2));
    expect(atA.events[0]).toEqual({ projectId: 'p1', texts });
    expect(atA.events[1]?.projectId).toBe('p2');
    expect(atB.events).toEqual([]);
  });

  it('an instance without connections does not read published events back', async () => {
    const a = await open();
    const b = await open();
    const idle = hearing(false);
    const busy = hearing(true);
    a.receive(idle.handlers);
    const c = await open();
    c.receive(busy.handlers);
    await b.publish('p1', ['{}']);
    await vi.waitFor(() => expect(busy.events).toHaveLength(1));
    expect(idle.events).toEqual([]);
  });

  it('logout-all at one instance is heard by the others with its time', async () => {
    const a = await open();
    const b = await open();
    const atB = hearing(false);
    b.receive(atB.handlers);
    await a.signedOutEverywhere('acc-1', 1234);
    await vi.waitFor(() => expect(atB.signOuts).toEqual([{ accountId: 'acc-1', at: 1234 }]));
  });

  it('othersListening is true only while another instance holds a connection', async () => {
    const a = await open();
    const b = await open();
    expect(await b.othersListening()).toBe(false);
    await a.setListening(true);
    expect(await b.othersListening()).toBe(true);
    expect(await a.othersListening()).toBe(false);
    await a.setListening(false);
    expect(await b.othersListening()).toBe(false);
    await a.setListening(true);
    await a.close();
    expect(await b.othersListening()).toBe(false);
  });

  it('a listening connection that drops reconnects and catches up on what it missed', async () => {
    const a = await open();
    const b = await open();
    const atB = hearing();
    b.receive(atB.handlers);
    const admin = schema.instance();
    const ended = await admin.rows(
      sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ${`lookout-feed-${b.instanceId}`}`,
    );
    expect(ended).toHaveLength(1);
    await a.publish('p1', ['{"n":1}']);
    await a.signedOutEverywhere('acc-1', 5);
    await vi.waitFor(() => expect(atB.events).toEqual([{ projectId: 'p1', texts: ['{"n":1}'] }]), {
      timeout: 10_000,
    });
    await vi.waitFor(() => expect(atB.signOuts).toEqual([{ accountId: 'acc-1', at: 5 }]));
    // And it listens again: the next publish arrives once.
    await a.publish('p1', ['{"n":2}']);
    await vi.waitFor(() => expect(atB.events).toHaveLength(2));
    expect(atB.events[1]?.texts).toEqual(['{"n":2}']);
  });

  it('instances on different schemas of one database do not hear each other', async () => {
    const other = await openTestSchema();
    try {
      const a = await open();
      const elsewhere = await pgFeedBus({
        db: other.instance(),
        schema: other.schema,
        url: other.url,
        log: quiet,
      });
      buses.push(elsewhere);
      const heardElsewhere = hearing();
      elsewhere.receive(heardElsewhere.handlers);
      const b = await open();
      const atB = hearing();
      b.receive(atB.handlers);
      await a.publish('p1', ['{}']);
      await vi.waitFor(() => expect(atB.events).toHaveLength(1));
      expect(heardElsewhere.events).toEqual([]);
    } finally {
      await Promise.all(buses.splice(0).map((b) => b.close()));
      await other.close();
    }
  });
});
