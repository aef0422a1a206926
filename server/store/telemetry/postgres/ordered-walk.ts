import type { PgDb } from '../../postgres/pg-database';
import { sql, type SqlFragment } from '../../rows/sql';

/**
 * Rows of a newest-first `ORDER BY … LIMIT` query, read by walking an index in that order.
 * The planner estimates the rows left after several filters (effective severity, triage
 * status, message search, attribute joins) far too low, and then prefers reading every
 * matching row and sorting them: a whole project at 10M logs. With sorting priced out
 * for this one statement it walks the index and stops after `limit` rows, as SQLite does;
 * JIT is off too, since the pricing would otherwise make it compile the plan. So are
 * parallel workers: starting them and merging their streams cost 25–50 ms for a walk that
 * reads a few hundred index rows alone in 4 ms (a two-filter page at 10M logs), and a list
 * of several projects runs one walk per project at once.
 */
export function walkNewestFirst<R>(db: PgDb, q: SqlFragment): Promise<R[]> {
  return db.tx(async (tx) => {
    await tx.run(sql`SELECT set_config('enable_sort', 'off', true), set_config('jit', 'off', true),
        set_config('max_parallel_workers_per_gather', '0', true)`);
    return tx.rows<R>(q);
  });
}
