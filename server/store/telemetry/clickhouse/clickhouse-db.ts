import { createClient, type ClickHouseClient, type ClickHouseSettings } from '@clickhouse/client';
import { raw, sql, type SqlFragment } from '../../rows/sql';
import { clickhouseStatement, inlinedStatement, jsonEachRow, jsonEachRowBytes } from './ch-sql';
import { SINGLE, type DdlTarget } from './clickhouse-schema';
import { acquireEmbeddedEngine, type EngineLease, type EngineSession } from './embedded-engine';

/**
 * ClickHouse as the telemetry adapters use it: statements built with `sql`…`` (values sent
 * as typed parameters), rows as JSON objects, inserts of JSONEachRow text. The same calls go
 * to the engine in this process (chdb) or to a server (`CLICKHOUSE_URL`), through
 * `@clickhouse/client` either way.
 */
export type ChDb = {
  /** The database every unqualified table name refers to. */
  database: string;
  /** True on the engine in this process. */
  embedded: boolean;
  /**
   * What names this database's files process-wide (`engine path` + database) on the engine
   * in this process: every handle open on it in the process has the same. Null on a server.
   */
  embeddedKey: string | null;
  /** Runs `fn` once when this handle closes, and waits for it before its sessions end. */
  onClose(fn: () => void | Promise<void>): void;
  /** Where the schema's tables are: one server (or this process), or a cluster's shards. */
  target: DdlTarget;
  rows<R>(q: SqlFragment): Promise<R[]>;
  one<R>(q: SqlFragment): Promise<R | null>;
  /** The output of a query whose text names its `FORMAT`, as the engine wrote it. */
  bytes(q: SqlFragment): Promise<Buffer>;
  /** A statement without rows to read (DDL, DELETE, INSERT … SELECT). */
  command(q: SqlFragment): Promise<void>;
  /**
   * Inserts JSONEachRow `lines` (one object a line) into `table`. The same `token` again
   * (a retry after a lost answer) inserts nothing: the table keeps the tokens of its last
   * inserts (`non_replicated_deduplication_window`).
   */
  insert(table: string, lines: string, token: string): Promise<void>;
  /** `insert` of rows (JSON objects), written in the form this ClickHouse takes best. */
  insertRows(table: string, rows: readonly object[], token: string): Promise<void>;
  close(): Promise<void>;
};

export type ClickHouseTarget = {
  /** `http(s)://…` of a server; null: the engine in this process, files in `embeddedPath`. */
  url: string | null;
  database: string;
  embeddedPath: string;
  /** The cluster the server's tables are sharded over (`deploy/clickhouse/cluster.sql`). */
  cluster?: string | null;
};

/**
 * Sessions on the embedded engine: a session runs its queries one after another, so a few
 * let an ingest insert and explorer reads run side by side.
 */
const EMBEDDED_SESSIONS = 3;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TOKEN = /^[A-Za-z0-9_:.-]{1,200}$/;

/**
 * Settings every statement runs with. On the embedded engine a setting given with a query is
 * a `SET` that stays on the session (an `insert_deduplication_token` so given would silently
 * drop the session's next insert), so per-statement settings go into the statement's own
 * SETTINGS clause instead, and only these constant ones are set, once per session.
 */
const SESSION_SETTINGS: Record<string, string | number> = {
  // Counts and epoch milliseconds come back as JSON numbers (all below 2^53).
  output_format_json_quote_64bit_integers: 0,
  // A lightweight DELETE returns once the rows are gone from reads.
  lightweight_deletes_sync: 2,
  // Values are written into the text as literals here (`inlinedStatement`): a list of a
  // batch's ids or of every id of a test runs past the default 256 KiB.
  max_query_size: 1 << 30,
};

/** Opens ClickHouse at `target` and creates its database when missing. */
export async function openClickHouse(target: ClickHouseTarget): Promise<ChDb> {
  if (!IDENTIFIER.test(target.database)) throw new Error(`not a database name: ${target.database}`);
  if (target.cluster && !IDENTIFIER.test(target.cluster))
    throw new Error(`not a cluster name: ${target.cluster}`);
  return target.url === null
    ? openEmbedded(target)
    : openServer(target.url, target.database, { cluster: target.cluster ?? null });
}

async function openEmbedded(target: ClickHouseTarget): Promise<ChDb> {
  const lease: EngineLease = await acquireEmbeddedEngine(target.embeddedPath);
  const sessions: { client: ClickHouseClient; engine: EngineSession; busy: number }[] = [];
  try {
    for (let i = 0; i < EMBEDDED_SESSIONS; i++) {
      const engine = lease.connect();
      const client = createClient({ connection: engine.connection });
      sessions.push({ client, engine, busy: 0 });
      if (i === 0)
        await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${target.database}` });
      // `USE` and `SET` stay on the session: every later statement of it runs with them.
      await client.command({ query: `USE ${target.database}` });
      for (const [k, v] of Object.entries(SESSION_SETTINGS))
        await client.command({ query: `SET ${k} = ${String(v)}` });
    }
  } catch (e) {
    await Promise.all(sessions.map((s) => s.client.close().catch(() => undefined)));
    lease.release();
    throw e;
  }
  /** The session with the fewest statements running (ties: the first). */
  const pick = () => sessions.reduce((a, b) => (b.busy < a.busy ? b : a));
  const onSession = async <T>(fn: (s: (typeof sessions)[number]) => Promise<T>): Promise<T> => {
    const s = pick();
    s.busy += 1;
    try {
      return await fn(s);
    } finally {
      s.busy -= 1;
    }
  };
  // Buffers of finished inserts, reused so a batch's bytes go to memory already in use.
  const spare: Buffer[] = [];
  const insertRows = (table: string, rows: readonly object[], token: string) =>
    onSession(async (s) => {
      const { buffer, bytes } = jsonEachRowBytes(rows, spare.pop() ?? Buffer.allocUnsafe(1 << 20));
      try {
        // The token in the statement's own SETTINGS, as `insert` sends it.
        await s.engine.insertBytes(table, bytes, {
          insert_deduplication_token: token,
          ...EMBEDDED_INSERT_SETTINGS,
        });
      } finally {
        if (spare.length < SPARE_BUFFERS && buffer.length <= MAX_SPARE_BYTES) spare.push(buffer);
      }
    });
  let closed = false;
  return chDb(
    target.database,
    `${lease.path}\0${target.database}`,
    SINGLE,
    (fn) => onSession((s) => fn(s.client)),
    async () => {
      if (closed) return;
      closed = true;
      await Promise.all(sessions.map((s) => s.client.close()));
      lease.release();
    },
    insertRows,
    // Literals, not parameters: chdb runs statements with parameters one at a time across the
    // process, so explorer reads queued behind each other and behind ingest (ch-sql.ts).
    inlinedStatement,
  );
}

/**
 * Settings of every row insert into the engine in this process. A group's rows (a few MB at
 * most) are parsed on the inserting thread: split into segments for the engine's threads
 * (the default) they cost 9–14 ms more CPU per 1,000 logs (alternating groups of 2,000 logs
 * in one process, both orders, load 9–11; bench/README.md, ingest).
 */
const EMBEDDED_INSERT_SETTINGS = { input_format_parallel_parsing: 0 };

/** Insert buffers kept for reuse, and the largest kept (a 10 MiB batch's is let go). */
const SPARE_BUFFERS = 4;
const MAX_SPARE_BYTES = 8 << 20;

async function openServer(url: string, database: string, target: DdlTarget): Promise<ChDb> {
  // Over HTTP every request carries its settings (nothing stays between requests).
  const settings: ClickHouseSettings = {
    output_format_json_quote_64bit_integers: 0,
    lightweight_deletes_sync: '2',
  };
  const admin = createClient({ url, clickhouse_settings: settings });
  try {
    await admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}` });
  } finally {
    await admin.close();
  }
  const client = createClient({ url, database, clickhouse_settings: settings });
  return chDb(
    database,
    null,
    target,
    (fn) => fn(client),
    () => client.close(),
  );
}

function chDb(
  database: string,
  embeddedKey: string | null,
  target: DdlTarget,
  on: <T>(fn: (c: ClickHouseClient) => Promise<T>) => Promise<T>,
  close: () => Promise<void>,
  /** How rows are inserted when not as JSONEachRow text through `insert`. */
  rowInsert?: (table: string, rows: readonly object[], token: string) => Promise<void>,
  statement: typeof clickhouseStatement = clickhouseStatement,
): ChDb {
  const rows = <R>(q: SqlFragment) =>
    on(async (c) => {
      const { query, params } = statement(q);
      const result = await c.query({ query, query_params: params, format: 'JSONEachRow' });
      return result.json<R>();
    });
  const checked = (table: string, token: string) => {
    if (!IDENTIFIER.test(table)) throw new Error(`not a table name: ${table}`);
    if (!TOKEN.test(token)) throw new Error(`not an insert token: ${token}`);
  };
  const insert: ChDb['insert'] = (table, lines, token) => {
    checked(table, token);
    if (lines.length === 0) return Promise.resolve();
    // The data follows the statement, as `clickhouse-client` sends it: one request, and
    // the token in the statement's own SETTINGS (see SESSION_SETTINGS).
    return on(async (c) => {
      await c.command({
        query: `INSERT INTO ${table} SETTINGS insert_deduplication_token = '${token}' FORMAT JSONEachRow\n${lines}`,
      });
    });
  };
  const closing: (() => void | Promise<void>)[] = [];
  return {
    database,
    embedded: embeddedKey !== null,
    embeddedKey,
    onClose: (fn) => void closing.push(fn),
    target,
    rows,
    one: async <R>(q: SqlFragment) => (await rows<R>(q))[0] ?? null,
    bytes: (q) =>
      on(async (c) => {
        const { query, params } = statement(q);
        const { stream } = await c.exec({ query, query_params: params });
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      }),
    command: (q) =>
      on(async (c) => {
        const { query, params } = statement(q);
        await c.command({ query, query_params: params });
      }),
    insert,
    insertRows: (table, rows, token) => {
      checked(table, token);
      if (rows.length === 0) return Promise.resolve();
      return rowInsert ? rowInsert(table, rows, token) : insert(table, jsonEachRow(rows), token);
    },
    close: async () => {
      for (const fn of closing.splice(0)) await fn();
      await close();
    },
  };
}

/** `sql` for a table or column name that is known to be an identifier. */
export const identifier = (name: string): SqlFragment => {
  if (!IDENTIFIER.test(name)) throw new Error(`not an identifier: ${name}`);
  return sql`${raw(name)}`;
};
