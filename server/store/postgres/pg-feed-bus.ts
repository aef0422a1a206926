import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FeedBus, FeedBusHandlers } from '../../core/feed-bus';
import type { Logger } from '../../core/logger';
import type { PgDb } from './pg-database';
import { sql, raw } from '../rows/sql';

/** Database time in epoch milliseconds: instances (and test clocks) may disagree. */
const DB_NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';
/** An instance that stopped refreshing its row this long ago is taken for gone. */
const LISTENING_STALE_MS = 120_000;
const HEARTBEAT_MS = 30_000;
/** Published rows are kept this long: a listener that reconnects within it catches up. */
const KEEP_EVENTS_MS = 5 * 60_000;
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;
/** Row ids delivered lately, so a catch-up after a reconnect sends nothing twice. */
const REMEMBERED_IDS = 10_000;

type EventRow = {
  id: number;
  origin: string;
  kind: 'event' | 'signout';
  subject: string;
  at: number | null;
  body: string;
};

/**
 * NOTIFY reaches every session of the database, whatever its schema; the channel is named
 * after the schema so that instances on different schemas (tests) do not hear each other.
 */
export function feedChannel(schema: string): string {
  const name = /^[a-z_][a-z0-9_]{0,40}$/.test(schema)
    ? schema
    : createHash('sha256').update(schema).digest('hex').slice(0, 24);
  return `lookout_feed_${name}`;
}

/**
 * The live feed between instances on one PostgreSQL database. A publish or logout-all is a
 * row of `feed_events` announced with `NOTIFY <channel>, '<id>:<origin>'` (the payload
 * stays small whatever the batch); each instance listens on one dedicated connection,
 * reads back the rows of other instances when it has connections to send them to, and
 * reconnects when that connection drops, catching up on the rows published meanwhile.
 * `feed_instances` records which instances hold connections, so nobody publishes to the
 * bus while no other instance listens.
 */
export type PgFeedBus = FeedBus & {
  /** Names the listening session (`application_name` lookout-feed-<id>) in pg_stat_activity. */
  readonly instanceId: string;
};

export async function pgFeedBus(opts: {
  db: PgDb;
  schema: string;
  /** The connection URL; the listener gets a connection of its own. */
  url: string;
  log: Logger;
}): Promise<PgFeedBus> {
  const { db, log } = opts;
  const instanceId = randomBytes(9).toString('base64url');
  const channel = feedChannel(opts.schema);
  let handlers: FeedBusHandlers | null = null;
  let client: pg.Client | null = null;
  let closing = false;
  let reconnectDelay = RECONNECT_MIN_MS;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** Highest row id this instance has seen announced (a reconnect reads what came after). */
  let lastId = 0;
  const delivered = new Set<number>();
  // Rows are handled one at a time, in the order they were announced.
  let queue: Promise<void> = Promise.resolve();
  // Writes of this instance's row, in order (a late `false` must not overwrite a `true`).
  let presence: Promise<void> = Promise.resolve();
  let listening = false;

  function remember(id: number) {
    delivered.add(id);
    if (delivered.size > REMEMBERED_IDS) {
      const oldest = delivered.values().next().value;
      if (oldest !== undefined) delivered.delete(oldest);
    }
    lastId = Math.max(lastId, id);
  }

  async function handle(row: Pick<EventRow, 'id' | 'kind'> & Partial<EventRow>): Promise<void> {
    if (delivered.has(row.id) || !handlers) return;
    remember(row.id);
    if (row.kind === 'event' && !handlers.wanted()) return;
    const full =
      row.body !== undefined
        ? (row as EventRow)
        : await db.one<EventRow>(
            sql`SELECT id, origin, kind, subject, at, body FROM feed_events WHERE id = ${row.id}`,
          );
    if (!full) return;
    if (full.kind === 'signout') handlers.signedOut(full.subject, full.at ?? 0);
    else await handlers.event(full.subject, JSON.parse(full.body) as string[]);
  }

  function enqueue(work: () => Promise<void>) {
    queue = queue.then(work).catch((err: unknown) => {
      log.error('live feed: reading a published event failed', { error: String(err) });
    });
  }

  function onNotification(msg: pg.Notification) {
    const [kind, id, origin] = (msg.payload ?? '').split(':');
    const n = Number(id);
    if (origin === instanceId || !Number.isSafeInteger(n)) return;
    if (kind !== 'e' && kind !== 's') return;
    enqueue(() => handle({ id: n, kind: kind === 'e' ? 'event' : 'signout' }));
  }

  async function connect(catchUp: boolean): Promise<void> {
    const c = new pg.Client({
      connectionString: opts.url,
      keepAlive: true,
      application_name: `lookout-feed-${instanceId}`,
    });
    c.on('notification', onNotification);
    c.on('error', () => undefined);
    c.on('end', () => {
      if (client !== c || closing) return;
      client = null;
      log.error('live feed: the listening connection dropped; reconnecting');
      scheduleReconnect();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    if (closing) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    reconnectDelay = RECONNECT_MIN_MS;
    if (catchUp) {
      // Rows announced while nobody listened here; NOTIFY does not queue for a lost session.
      const since = lastId;
      enqueue(async () => {
        const rows =
          await db.rows<EventRow>(sql`SELECT id, origin, kind, subject, at, body FROM feed_events
           WHERE id > ${since} AND origin <> ${instanceId} ORDER BY id`);
        for (const row of rows) await handle(row);
      });
    } else {
      const row = await db.one<{ id: number }>(
        sql`SELECT COALESCE(max(id), 0) AS id FROM feed_events`,
      );
      lastId = Math.max(lastId, row?.id ?? 0);
    }
  }

  function scheduleReconnect() {
    if (closing || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      connect(true).catch((err: unknown) => {
        log.error('live feed: reconnecting the listening connection failed', {
          error: String(err),
        });
        reconnectDelay = Math.min(RECONNECT_MAX_MS, reconnectDelay * 2);
        scheduleReconnect();
      });
    }, reconnectDelay);
    reconnectTimer.unref();
  }

  function writePresence(): Promise<void> {
    const value = listening;
    presence = presence
      .catch(() => undefined)
      .then(async () => {
        await db.run(sql`INSERT INTO feed_instances (instance_id, listening,
        seen_at) VALUES (${instanceId}, ${value}, ${raw(DB_NOW_MS)})
           ON CONFLICT (instance_id) DO UPDATE SET listening = ${value}, seen_at = ${raw(DB_NOW_MS)}`);
      });
    return presence;
  }

  const heartbeat = setInterval(() => {
    if (listening) void writePresence().catch(() => undefined);
    void db
      .run(sql`DELETE FROM feed_events WHERE created_at < ${raw(DB_NOW_MS)} - ${KEEP_EVENTS_MS}`)
      .catch(() => undefined);
    // Rows of instances gone without closing (a live one writes its row again when it changes).
    void db
      .run(
        sql`DELETE FROM feed_instances WHERE seen_at < ${raw(DB_NOW_MS)} - ${LISTENING_STALE_MS} AND instance_id <> ${instanceId}`,
      )
      .catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();

  async function announce(
    kind: 'event' | 'signout',
    subject: string,
    at: number | null,
    body: string,
  ): Promise<void> {
    await db.run(sql`WITH e AS (
         INSERT INTO feed_events (origin, kind, subject, at, body, created_at)
         VALUES (${instanceId}, ${kind}, ${subject}, ${at}, ${body}, ${raw(DB_NOW_MS)}) RETURNING id
       )
       SELECT pg_notify(${channel},
       ${kind === 'event' ? 'e' : 's'} || ':' || id || ':' || ${instanceId}) FROM e`);
  }

  await connect(false);

  return {
    instanceId,
    async othersListening() {
      const row = await db.one<{ any: boolean }>(sql`SELECT EXISTS (
           SELECT 1 FROM feed_instances
           WHERE listening AND instance_id <> ${instanceId} AND seen_at > ${raw(DB_NOW_MS)} - ${LISTENING_STALE_MS}
         ) AS any`);
      return row?.any === true;
    },
    publish: (projectId, texts) => announce('event', projectId, null, JSON.stringify(texts)),
    signedOutEverywhere: (accountId, at) => announce('signout', accountId, at, '[]'),
    setListening: (value) => {
      listening = value;
      return writePresence();
    },
    receive(h) {
      handlers = h;
    },
    async close() {
      closing = true;
      clearInterval(heartbeat);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
      await queue;
      await presence.catch(() => undefined);
      await db
        .run(sql`DELETE FROM feed_instances WHERE instance_id = ${instanceId}`)
        .catch(() => undefined);
    },
  };
}
