import type { ThrottleStore } from '../../../core/store/state/throttle';
import { sql, type SqlRunner } from '../../rows/sql';

type CountRow = { failures: number; blocked_until: number };

/**
 * Failed attempts per key, the same SQL on both engines. The upsert's SET expressions read
 * the row as it was before the statement, so a blocked key is left as it is.
 */
export function sqlThrottle(db: SqlRunner): ThrottleStore {
  return {
    async count(key, now, forgetBefore) {
      const row = await db.one<CountRow>(sql`INSERT INTO auth_throttle
          (key, failures, blocked_until, failed_at)
        VALUES (${key}, 1, 0, ${now})
        ON CONFLICT (key) DO UPDATE SET
          failures = CASE WHEN auth_throttle.blocked_until > ${now} THEN auth_throttle.failures
            WHEN auth_throttle.failed_at < ${forgetBefore} THEN 1
            ELSE auth_throttle.failures + 1 END,
          failed_at = CASE WHEN auth_throttle.blocked_until > ${now} THEN auth_throttle.failed_at
            ELSE ${now} END
        RETURNING failures, blocked_until`);
      if (!row) throw new Error('throttle upsert returned no row');
      return row.blocked_until > now
        ? { blocked: true, blockedUntil: row.blocked_until }
        : { blocked: false, failures: row.failures };
    },
    async block(key, until) {
      await db.run(sql`UPDATE auth_throttle SET blocked_until = ${until}
        WHERE key = ${key} AND blocked_until < ${until}`);
    },
    async forgive(key, blockedUntil) {
      await db.run(sql`UPDATE auth_throttle SET
          failures = CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END,
          blocked_until = CASE WHEN blocked_until = ${blockedUntil} THEN 0 ELSE blocked_until END
        WHERE key = ${key}`);
    },
    async clear(key) {
      await db.run(sql`DELETE FROM auth_throttle WHERE key = ${key}`);
    },
    async sweep(now, forgetBefore) {
      await db.run(sql`DELETE FROM auth_throttle
        WHERE failed_at < ${forgetBefore} AND blocked_until <= ${now}`);
    },
  };
}
