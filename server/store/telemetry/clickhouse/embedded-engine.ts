import fs from 'node:fs';
import type { ClickHouseClientConfigOptions } from '@clickhouse/client';

/**
 * ClickHouse's engine in this process (chdb) binds ONE data directory per process: a second
 * directory is refused while a session on the first is open. Every service in the process
 * (tests run several) therefore shares one engine on one directory and keeps its tables in
 * a database of its own. This holder counts the services using the engine; the engine's
 * sessions close with their service, and the directory is free again once the last is gone.
 *
 * The holder lives on `globalThis`: test runners evaluate modules again for each file, while
 * the native engine and its directory stay bound to the process.
 */
type Holder = { path: string | null; users: number };

/** A connection `@clickhouse/client` runs its API on. */
export type EngineConnection = NonNullable<ClickHouseClientConfigOptions['connection']>;

/** A session's connection, and its insert of bytes the engine reads where they are. */
export type EngineSession = {
  connection: EngineConnection;
  /** `INSERT INTO table SETTINGS … FORMAT JSONEachRow` of `values` (not to change until done). */
  insertBytes(
    table: string,
    values: Buffer,
    settings: Record<string, string | number>,
  ): Promise<void>;
};

const KEY = Symbol.for('lookout.embedded-clickhouse');
const holder = (): Holder => {
  const g = globalThis as { [KEY]?: Holder };
  g[KEY] ??= { path: null, users: 0 };
  return g[KEY];
};

/** A service's use of the embedded engine: its sessions, until `release()`. */
export type EngineLease = {
  path: string;
  /** A new session on the engine (queries on one session run one after another). */
  connect(): EngineSession;
  release(): void;
};

export class EngineDirectoryInUse extends Error {}

/**
 * Takes the engine on `path`. Another service may already hold it on the same path; a
 * different path while it is held cannot be served in this process.
 */
export async function acquireEmbeddedEngine(path: string): Promise<EngineLease> {
  // Loaded on first use: a deployment without the embedded engine never maps its library
  // (hundreds of MB) into the process.
  const { createChdbConnection } = await import('chdb/connection');
  const h = holder();
  if (h.users > 0 && h.path !== path)
    throw new EngineDirectoryInUse(
      `the embedded ClickHouse engine already uses ${String(h.path)} in this process; ` +
        `services in one process share one directory and keep apart by database name`,
    );
  fs.mkdirSync(path, { recursive: true });
  h.path = path;
  h.users += 1;
  let released = false;
  return {
    path,
    connect: () => {
      const connection = createChdbConnection({ path });
      return {
        // chdb implements the connection of @clickhouse/client-common, which @clickhouse/client
        // bundles a copy of: the same interface, two declarations.
        connection: connection as unknown as EngineConnection,
        // The buffer goes to the engine as it is: no query text to build around it, no copy
        // into UTF-8 on this thread. JSONEachRow, not RowBinary: chdb reads the bytes as the
        // statement's inline data, which an empty line ends, and binary rows hold `\n\n`
        // (through a file RowBinary saved about 12 ms of CPU per 1,000 logs; bench/README.md).
        insertBytes: async (table, values, settings) => {
          await connection.chdb.rawInsert({ table, values, format: 'JSONEachRow', settings });
        },
      };
    },
    release() {
      if (released) return;
      released = true;
      h.users -= 1;
      if (h.users === 0) h.path = null;
    },
  };
}

/** How many services hold the engine now (for tests). */
export const embeddedEngineUsers = (): number => holder().users;
