import { describe, expect, it } from 'vitest';
import type { AccountRow } from '../core/store/state/accounts';
import type { ReadableProject } from '../core/store/state/projects';
import type { Store } from '../core/store/store';
import type { FeedBus, FeedBusHandlers } from '../core/feed-bus';
import { CLOSE_SIGNED_OUT, CLOSE_TOO_SLOW, createFeedHub } from './feed-hub';
import type { FeedMessage } from '../core/feed-hub';

const T0 = Date.parse('2025-03-03T09:00:00.000Z');

/** Just what the hub reads from storage: accounts (for logout-all) and readable projects. */
function fakeWorld() {
  const accounts = new Map<string, AccountRow>();
  const readable = new Map<string, Set<string>>();
  const addAccount = (id: string, projects: string[] = []) => {
    accounts.set(id, {
      id,
      email: `${id}@test`,
      name: null,
      passwordHash: 'x',
      createdAt: T0,
      revokedBefore: null,
    });
    readable.set(id, new Set(projects));
  };
  const store = {
    accounts: { byId: async (id: string) => accounts.get(id) ?? null },
    projects: {
      readableBy: async (id: string): Promise<ReadableProject[]> =>
        [...(readable.get(id) ?? [])].map((p) => ({
          id: p,
          organizationId: 'org',
          slug: p,
          name: p,
          createdAt: T0,
          role: 'member',
        })),
    },
  } as unknown as Store;
  return { store, accounts, readable, addAccount };
}

function setup(ttlSeconds = 60, maxBacklogBytes?: number) {
  let now = T0;
  const world = fakeWorld();
  const hub = createFeedHub({
    store: world.store,
    now: () => now,
    ticketTtlSeconds: ttlSeconds,
    maxBacklogBytes,
  });
  return {
    hub,
    world,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}

function socket() {
  const sent: FeedMessage[] = [];
  const closes: { code: number; reason: string }[] = [];
  return {
    sent,
    closes,
    send: (text: string) => sent.push(JSON.parse(text) as FeedMessage),
    close: (code: number, reason: string) => closes.push({ code, reason }),
    backlog: () => 0,
  };
}

/** A client that stopped reading: everything sent stays in the service's buffer. */
function stalledSocket() {
  const s = socket();
  let unsent = 0;
  return {
    ...s,
    send: (text: string) => {
      unsent += Buffer.byteLength(text);
      s.send(text);
    },
    backlog: () => unsent,
  };
}

const log = (id: string, projectId: string): FeedMessage => ({
  type: 'native_log',
  data: { id, project_id: projectId },
});

describe('feed hub tickets', () => {
  it('a ticket is a new lk_ft_ secret with the configured lifetime', async () => {
    const { hub } = setup(45);
    const a = await hub.issueTicket('acc-1');
    const b = await hub.issueTicket('acc-1');
    expect(a.ticket).toMatch(/^lk_ft_[A-Za-z0-9_-]{40,}$/);
    expect(a.expiresInSeconds).toBe(45);
    expect(b.ticket).not.toBe(a.ticket);
  });

  it('is single-use: the first redeem gets the grant, the second nothing', async () => {
    const { hub, world } = setup();
    world.addAccount('acc-1');
    const { ticket } = await hub.issueTicket('acc-1');
    expect(await hub.redeem(ticket)).toEqual({ accountId: 'acc-1', issuedAt: T0 });
    expect(await hub.redeem(ticket)).toBeNull();
  });

  it('concurrent redeems of one ticket: exactly one wins', async () => {
    const { hub, world } = setup();
    world.addAccount('acc-1');
    const { ticket } = await hub.issueTicket('acc-1');
    const results = await Promise.all([hub.redeem(ticket), hub.redeem(ticket), hub.redeem(ticket)]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it('an unknown ticket, or a ticket of an unknown account, is refused', async () => {
    const { hub } = setup();
    expect(await hub.redeem('lk_ft_unknown')).toBeNull();
    const { ticket } = await hub.issueTicket('gone');
    expect(await hub.redeem(ticket)).toBeNull();
  });

  it('expires when its lifetime has elapsed (and is spent by the late try)', async () => {
    const { hub, world, advance } = setup(60);
    world.addAccount('acc-1');
    const inTime = (await hub.issueTicket('acc-1')).ticket;
    const late = (await hub.issueTicket('acc-1')).ticket;
    advance(59_999);
    expect(await hub.redeem(inTime)).not.toBeNull();
    advance(1);
    expect(await hub.redeem(late)).toBeNull();
    advance(-1);
    expect(await hub.redeem(late)).toBeNull();
  });

  it('a ticket issued at or before the account’s logout-all is refused; a later one is not', async () => {
    const { hub, world, advance, now } = setup();
    world.addAccount('acc-1');
    const before = (await hub.issueTicket('acc-1')).ticket;
    const row = world.accounts.get('acc-1');
    if (row) row.revokedBefore = now();
    advance(1);
    const after = (await hub.issueTicket('acc-1')).ticket;
    expect(await hub.redeem(before)).toBeNull();
    expect(await hub.redeem(after)).not.toBeNull();
  });

  it('closeAccount spends the account’s unused tickets only', async () => {
    const { hub, world } = setup();
    world.addAccount('acc-1');
    world.addAccount('acc-2');
    const mine = (await hub.issueTicket('acc-1')).ticket;
    const theirs = (await hub.issueTicket('acc-2')).ticket;
    await hub.closeAccount('acc-1');
    expect(await hub.redeem(mine)).toBeNull();
    expect(await hub.redeem(theirs)).not.toBeNull();
  });
});

describe('feed hub connections', () => {
  it('publish reaches only connections whose account reads the project, in order', async () => {
    const { hub, world } = setup();
    world.addAccount('reader', ['p1', 'p2']);
    world.addAccount('other', ['p2']);
    const a = socket();
    const b = socket();
    hub.attach({ accountId: 'reader', issuedAt: T0 }, a);
    hub.attach({ accountId: 'other', issuedAt: T0 }, b);
    await hub.publish('p1', [log('l1', 'p1'), log('l2', 'p1')]);
    await hub.publish('p2', [log('l3', 'p2')]);
    await hub.publish('p3', [log('l4', 'p3')]);
    expect(a.sent.map((m) => (m.data as { id: string }).id)).toEqual(['l1', 'l2', 'l3']);
    expect(b.sent.map((m) => (m.data as { id: string }).id)).toEqual(['l3']);
    expect(a.sent[0]).toEqual({ type: 'native_log', data: { id: 'l1', project_id: 'p1' } });
  });

  it('a detached connection receives nothing more', async () => {
    const { hub, world } = setup();
    world.addAccount('reader', ['p1']);
    const a = socket();
    const detach = hub.attach({ accountId: 'reader', issuedAt: T0 }, a);
    expect(hub.connectionCount).toBe(1);
    detach();
    expect(hub.connectionCount).toBe(0);
    await hub.publish('p1', [log('l1', 'p1')]);
    expect(a.sent).toEqual([]);
  });

  it('a connection whose send throws is dropped', async () => {
    const { hub, world } = setup();
    world.addAccount('reader', ['p1']);
    hub.attach(
      { accountId: 'reader', issuedAt: T0 },
      {
        send: () => {
          throw new Error('socket gone');
        },
        close: () => {},
        backlog: () => 0,
      },
    );
    const ok = socket();
    hub.attach({ accountId: 'reader', issuedAt: T0 }, ok);
    await hub.publish('p1', [log('l1', 'p1')]);
    expect(hub.connectionCount).toBe(1);
    expect(ok.sent).toHaveLength(1);
  });

  it('a connection that stops reading is closed with 4008 once its backlog passes the limit', async () => {
    const message = log('l0', 'p1');
    const size = Buffer.byteLength(JSON.stringify(message));
    const { hub, world } = setup(60, 3 * size);
    world.addAccount('reader', ['p1']);
    const stalled = stalledSocket();
    const reading = socket();
    hub.attach({ accountId: 'reader', issuedAt: T0 }, stalled);
    hub.attach({ accountId: 'reader', issuedAt: T0 }, reading);
    const ids = ['l0', 'l1', 'l2', 'l3', 'l4', 'l5'];
    await hub.publish(
      'p1',
      ids.slice(0, 3).map((id) => log(id, 'p1')),
    );
    // At the limit, not over it: still open.
    expect(stalled.closes).toEqual([]);
    await hub.publish(
      'p1',
      ids.slice(3).map((id) => log(id, 'p1')),
    );
    // One more message went over the limit; the next one closed it instead of buffering more.
    expect(stalled.sent).toHaveLength(4);
    expect(stalled.closes).toEqual([{ code: CLOSE_TOO_SLOW, reason: expect.any(String) }]);
    expect(hub.connectionCount).toBe(1);
    await hub.publish('p1', [log('l6', 'p1')]);
    expect(stalled.sent).toHaveLength(4);
    expect(reading.sent.map((m) => (m.data as { id: string }).id)).toEqual([...ids, 'l6']);
    expect(reading.closes).toEqual([]);
  });

  it('lost access applies within seconds (readable projects are re-read after 5 s)', async () => {
    const { hub, world, advance } = setup();
    world.addAccount('reader', ['p1']);
    const a = socket();
    hub.attach({ accountId: 'reader', issuedAt: T0 }, a);
    await hub.publish('p1', [log('l1', 'p1')]);
    world.readable.set('reader', new Set());
    advance(5_001);
    await hub.publish('p1', [log('l2', 'p1')]);
    expect(a.sent.map((m) => (m.data as { id: string }).id)).toEqual(['l1']);
  });

  it('closeAccount closes that account’s connections with 4001 and leaves others', async () => {
    const { hub, world } = setup();
    world.addAccount('acc-1', ['p1']);
    world.addAccount('acc-2', ['p1']);
    const a = socket();
    const a2 = socket();
    const b = socket();
    hub.attach({ accountId: 'acc-1', issuedAt: T0 }, a);
    hub.attach({ accountId: 'acc-1', issuedAt: T0 }, a2);
    hub.attach({ accountId: 'acc-2', issuedAt: T0 }, b);
    await hub.closeAccount('acc-1');
    expect(CLOSE_SIGNED_OUT).toBe(4001);
    expect(a.closes).toEqual([{ code: 4001, reason: 'signed out everywhere' }]);
    expect(a2.closes).toEqual([{ code: 4001, reason: 'signed out everywhere' }]);
    expect(b.closes).toEqual([]);
    expect(hub.connectionCount).toBe(1);
    await hub.publish('p1', [log('l1', 'p1')]);
    expect(a.sent).toEqual([]);
    expect(b.sent).toHaveLength(1);
  });

  it('a ticket redeemed before logout-all but attached after it is closed at once', async () => {
    const { hub, world, advance } = setup();
    world.addAccount('acc-1', ['p1']);
    const grant = await hub.redeem((await hub.issueTicket('acc-1')).ticket);
    expect(grant).not.toBeNull();
    if (!grant) return;
    await hub.closeAccount('acc-1'); // logout-all while the handshake is still under way
    const late = socket();
    hub.attach(grant, late);
    expect(late.closes).toEqual([{ code: 4001, reason: 'signed out everywhere' }]);
    expect(hub.connectionCount).toBe(0);
    await hub.publish('p1', [log('l1', 'p1')]);
    expect(late.sent).toEqual([]);

    // A ticket issued after the logout-all opens a connection as usual.
    advance(1);
    const fresh = await hub.redeem((await hub.issueTicket('acc-1')).ticket);
    if (!fresh) throw new Error('fresh ticket refused');
    const ok = socket();
    hub.attach(fresh, ok);
    expect(ok.closes).toEqual([]);
    expect(hub.connectionCount).toBe(1);
  });

  it('closeAll closes every connection with the given code', () => {
    const { hub } = setup();
    const a = socket();
    const b = socket();
    hub.attach({ accountId: 'x', issuedAt: T0 }, a);
    hub.attach({ accountId: 'y', issuedAt: T0 }, b);
    hub.closeAll(1001, 'service stopping');
    expect([...a.closes, ...b.closes]).toEqual([
      { code: 1001, reason: 'service stopping' },
      { code: 1001, reason: 'service stopping' },
    ]);
    expect(hub.connectionCount).toBe(0);
  });
});

/** A bus whose other instances the test plays: what this hub sent, and a way to send to it. */
function fakeBus() {
  const published: { projectId: string; texts: readonly string[] }[] = [];
  const signOuts: { accountId: string; at: number }[] = [];
  const listeningWrites: boolean[] = [];
  let others = false;
  let handlers: FeedBusHandlers | null = null;
  const bus: FeedBus = {
    othersListening: async () => others,
    publish: async (projectId, texts) => {
      published.push({ projectId, texts });
    },
    signedOutEverywhere: async (accountId, at) => {
      signOuts.push({ accountId, at });
    },
    setListening: async (value) => {
      listeningWrites.push(value);
    },
    receive: (h) => {
      handlers = h;
    },
    close: async () => undefined,
  };
  const other = () => {
    if (!handlers) throw new Error('the hub did not subscribe');
    return handlers;
  };
  return {
    bus,
    published,
    signOuts,
    listeningWrites,
    setOthersListening: (v: boolean) => {
      others = v;
    },
    other,
  };
}

function setupWithBus() {
  const world = fakeWorld();
  const fake = fakeBus();
  let now = T0;
  const hub = createFeedHub({
    store: world.store,
    now: () => now,
    ticketTtlSeconds: 60,
    bus: fake.bus,
  });
  return { hub, world, fake, advance: (ms: number) => (now += ms) };
}

describe('feed hub across instances (the bus)', () => {
  it('a publish goes to the bus only while another instance listens, as the texts sent here', async () => {
    const { hub, world, fake } = setupWithBus();
    world.addAccount('reader', ['p1']);
    const a = socket();
    hub.attach({ accountId: 'reader', issuedAt: T0 }, a);
    await hub.publish('p1', [log('l1', 'p1')]);
    expect(fake.published).toEqual([]);
    fake.setOthersListening(true);
    await hub.publish('p1', [log('l2', 'p1')]);
    expect(fake.published).toEqual([{ projectId: 'p1', texts: [JSON.stringify(log('l2', 'p1'))] }]);
    expect(a.sent.map((m) => (m.data as { id: string }).id)).toEqual(['l1', 'l2']);
  });

  it('reach: connections here, and whether another instance listens', async () => {
    const { hub, world, fake } = setupWithBus();
    world.addAccount('reader', ['p1']);
    expect(await hub.reach()).toEqual({ here: false, elsewhere: false });
    fake.setOthersListening(true);
    expect(await hub.reach()).toEqual({ here: false, elsewhere: true });
    fake.setOthersListening(false);
    const detach = hub.attach({ accountId: 'reader', issuedAt: T0 }, socket());
    expect(await hub.reach()).toEqual({ here: true, elsewhere: false });
    detach();
    expect(await hub.reach()).toEqual({ here: false, elsewhere: false });
  });

  it('publish trusts the reach it is given instead of asking the bus again', async () => {
    const { hub, world, fake } = setupWithBus();
    world.addAccount('reader', ['p1']);
    fake.setOthersListening(true);
    await hub.publish('p1', [log('l1', 'p1')], false);
    expect(fake.published).toEqual([]);
    fake.setOthersListening(false);
    await hub.publish('p1', [log('l2', 'p1')], true);
    expect(fake.published).toEqual([{ projectId: 'p1', texts: [JSON.stringify(log('l2', 'p1'))] }]);
  });

  it('events of other instances reach the connections here that read their project', async () => {
    const { hub, world, fake } = setupWithBus();
    world.addAccount('reader', ['p1']);
    world.addAccount('other', ['p2']);
    const a = socket();
    const b = socket();
    expect(fake.other().wanted()).toBe(false);
    hub.attach({ accountId: 'reader', issuedAt: T0 }, a);
    hub.attach({ accountId: 'other', issuedAt: T0 }, b);
    expect(fake.other().wanted()).toBe(true);
    await fake.other().event('p1', [JSON.stringify(log('l1', 'p1'))]);
    expect(a.sent).toEqual([log('l1', 'p1')]);
    expect(b.sent).toEqual([]);
    // Not sent on to the bus again.
    expect(fake.published).toEqual([]);
  });

  it('becomes listening when a ticket is redeemed (before the handshake answers), and stops after the last connection', async () => {
    const { hub, world, fake } = setupWithBus();
    world.addAccount('reader', ['p1']);
    const grant = await hub.redeem((await hub.issueTicket('reader')).ticket);
    if (!grant) throw new Error('ticket refused');
    expect(fake.listeningWrites).toEqual([true]);
    const detach = hub.attach(grant, socket());
    const second = hub.attach({ accountId: 'reader', issuedAt: T0 }, socket());
    detach();
    expect(fake.listeningWrites).toEqual([true]);
    second();
    expect(fake.listeningWrites).toEqual([true, false]);
  });

  it('logout-all here is sent to the bus; one heard from the bus closes the connections here with 4001', async () => {
    const { hub, world, fake, advance } = setupWithBus();
    world.addAccount('acc-1', ['p1']);
    world.addAccount('acc-2', ['p1']);
    await hub.closeAccount('acc-1');
    expect(fake.signOuts).toEqual([{ accountId: 'acc-1', at: T0 }]);

    advance(1_000);
    const a = socket();
    const b = socket();
    hub.attach({ accountId: 'acc-2', issuedAt: T0 + 1 }, a);
    hub.attach({ accountId: 'acc-1', issuedAt: T0 + 1 }, b);
    const grant = await hub.redeem((await hub.issueTicket('acc-2')).ticket);
    if (!grant) throw new Error('ticket refused');
    fake.other().signedOut('acc-2', T0 + 1_000);
    expect(a.closes).toEqual([{ code: CLOSE_SIGNED_OUT, reason: 'signed out everywhere' }]);
    expect(b.closes).toEqual([]);
    // A handshake under way when the other instance signed the account out is closed too.
    const late = socket();
    hub.attach(grant, late);
    expect(late.closes).toEqual([{ code: CLOSE_SIGNED_OUT, reason: 'signed out everywhere' }]);
    expect(hub.connectionCount).toBe(1);
  });
});
