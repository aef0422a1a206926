/**
 * SQL written once with its values in place, `sql`…``, and sent with the values held apart:
 * a value is never spliced into the text. A fragment nests in another (its values follow it),
 * `raw` marks trusted text (column lists, identifiers, a chosen keyword). Each engine numbers
 * the placeholders its own way when it runs the statement: `$1, $2, …` on PostgreSQL, `?` on
 * SQLite; so a condition built here serves both.
 */
export class SqlFragment {
  constructor(
    /** Text around the values: one more piece than there are values. */
    readonly pieces: readonly string[],
    readonly values: readonly unknown[],
  ) {}
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlFragment {
  const pieces = [strings[0] ?? ''];
  const out: unknown[] = [];
  values.forEach((value, i) => {
    const after = strings[i + 1] ?? '';
    if (value instanceof SqlFragment) {
      // The fragment's first piece joins the text before it, its last the text after it.
      pieces[pieces.length - 1] += value.pieces[0] ?? '';
      for (let j = 0; j < value.values.length; j++) {
        out.push(value.values[j]);
        pieces.push(value.pieces[j + 1] ?? '');
      }
      pieces[pieces.length - 1] += after;
    } else {
      out.push(value);
      pieces.push(after);
    }
  });
  return new SqlFragment(pieces, out);
}

/** Trusted text, taken as it is: never a value that came from a request. */
export const raw = (text: string): SqlFragment => new SqlFragment([text], []);

export const EMPTY = raw('');

/** The fragments with `separator` between them (`EMPTY` for none). */
export function join(parts: readonly SqlFragment[], separator: string): SqlFragment {
  if (parts.length === 0) return EMPTY;
  const glue = raw(separator);
  return parts.slice(1).reduce((acc, part) => sql`${acc}${glue}${part}`, parts[0] ?? EMPTY);
}

/** Every condition (`TRUE` for none). */
export const and = (conditions: readonly SqlFragment[]): SqlFragment =>
  conditions.length === 0 ? raw('TRUE') : join(conditions, ' AND ');

/** `WHERE` and the conditions, or nothing when there are none. */
export const where = (conditions: readonly SqlFragment[]): SqlFragment =>
  conditions.length === 0 ? EMPTY : sql`WHERE ${and(conditions)}`;

/**
 * One way to run statements: PostgreSQL's pool or transaction client (pg-database.ts), or a
 * SQLite database (sqlite/sqlite-sql.ts). What both engines answer alike is written once
 * against it.
 */
export type SqlRunner = {
  /** Every row of the statement. */
  rows<R>(q: SqlFragment): Promise<R[]>;
  /** The first row, or null. */
  one<R>(q: SqlFragment): Promise<R | null>;
  /** Runs a statement; how many rows it touched. */
  run(q: SqlFragment): Promise<number>;
};

/** The few places where the engines' SQL differs, for statements written once. */
export type SqlDialect = {
  /** `column` is one of the text `values` (at least one). */
  anyOf(column: string, values: readonly string[]): SqlFragment;
  /** A value typed for the engine: PostgreSQL cannot always infer a parameter's type. */
  typed(value: unknown, type: 'bigint' | 'text'): SqlFragment;
  /** Integer quotient, truncated toward zero. */
  quotient(dividend: SqlFragment, divisor: SqlFragment): SqlFragment;
};

/** The text with numbered placeholders, for node-postgres. */
export function pgStatement(q: SqlFragment): { text: string; values: unknown[] } {
  let text = q.pieces[0] ?? '';
  for (let i = 1; i < q.pieces.length; i++) text += `$${String(i)}${q.pieces[i] ?? ''}`;
  return { text, values: [...q.values] };
}

/** The text with `?` placeholders, for better-sqlite3. */
export function sqliteStatement(q: SqlFragment): { text: string; values: unknown[] } {
  return { text: q.pieces.join('?'), values: [...q.values] };
}
