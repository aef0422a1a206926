import { raw, sql, type SqlDialect } from '../rows/sql';

/** PostgreSQL's side of the statements both engines share. */
export const pgDialect: SqlDialect = {
  // One text-array parameter, however many values.
  anyOf: (column, values) => sql`${raw(column)} = ANY(${values}::text[])`,
  typed: (value, type) => sql`${value}::${raw(type)}`,
  // BIGINT division truncates toward zero, as SQLite's CAST does.
  quotient: (dividend, divisor) => sql`(${dividend}) / (${divisor})::bigint`,
};
