import { raw, sql, type SqlFragment } from '../../rows/sql';
import { typed } from './ch-sql';

/** A DateTime64 column as epoch milliseconds (what the ports speak). */
export const msColumn = (column: string): SqlFragment => raw(`toUnixTimestamp64Milli(${column})`);

/** Epoch milliseconds as a DateTime64 value, to compare with a time column. */
export const time = (ms: number): SqlFragment =>
  sql`fromUnixTimestamp64Milli(${typed(ms, 'Int64')}, 'UTC')`;
