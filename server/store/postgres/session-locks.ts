import pg from 'pg';

/** The first key of every lock taken here (the second is the name's hash). */
const LOCK_SPACE = 26_014;

export type SessionLocks = {
  /** Runs `fn` while this process holds the lock named `name` (waits for it first). */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Takes the lock named `name` until `close()`, if no other process holds it in a way that
   * excludes this one (`exclusive`: no other holder at all; `shared`: no exclusive holder);
   * whether it was taken. Never waits.
   */
  hold(name: string, mode: 'exclusive' | 'shared'): Promise<boolean>;
  close(): Promise<void>;
};

/**
 * Locks shared by every instance on one PostgreSQL database, each held by a connection of its
 * own for as long as the work it guards takes (an advisory lock of the session, which the
 * server releases when that connection dies, e.g. with a process killed with SIGKILL). The
 * connections come from a pool of their own, so work waiting for a lock never holds one of
 * the connections the guarded work needs.
 */
export function sessionLocks(url: string, max = 8): SessionLocks {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const held: pg.PoolClient[] = [];
  return {
    async exclusive(name, fn) {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [LOCK_SPACE, name]);
        try {
          return await fn();
        } finally {
          await client
            .query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_SPACE, name])
            .catch(() => {
              // A connection that cannot unlock is dropped: the server releases its locks.
              broken = true;
            });
        }
      } finally {
        client.release(broken);
      }
    },
    async hold(name, mode) {
      const client = await pool.connect();
      const fn = mode === 'exclusive' ? 'pg_try_advisory_lock' : 'pg_try_advisory_lock_shared';
      try {
        const r = await client.query<{ taken: boolean }>(
          `SELECT ${fn}($1, hashtext($2)) AS taken`,
          [LOCK_SPACE, name],
        );
        if (r.rows[0]?.taken !== true) {
          client.release();
          return false;
        }
      } catch (e) {
        client.release(true);
        throw e;
      }
      held.push(client);
      return true;
    },
    async close() {
      // Ending the connections releases what they hold.
      for (const c of held.splice(0)) c.release(true);
      await pool.end();
    },
  };
}
