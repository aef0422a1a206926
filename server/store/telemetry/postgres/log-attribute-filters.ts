import { foldCase } from '../../../domain/attribute-index';
import type { AttributeFilter, AttributeType } from '../../../domain/read-rules/attribute-filters';
import type { Sql } from '../../postgres/pg-database';

/**
 * One attribute filter as SQL on a `log_attributes` row `x` of the filter's path (the read
 * side of sqlite/log-attribute-index.ts's `leafCondition`); the row's presence already means
 * "has the path with a value of this type". SQLite keeps every key in one column, numbers
 * ordering before text; here a path's rows all hold their key in the column of its type
 * (`key_num` for numbers and booleans as 1/0, `key_text` for folded strings), so each
 * comparison only ever meets keys of its own type and answers as SQLite's does. Strings
 * compare folded unless `case_sensitive`; text functions count characters on both stores.
 * Values are appended to `params` and referenced as `$n`.
 */
export function pgLeafCondition(f: AttributeFilter, x: string, params: unknown[]): string {
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.operator === 'exists') return 'TRUE';
  switch (f.type) {
    case 'boolean':
      return `${x}.key_num ${f.operator === 'eq' ? '=' : '<>'} ${p(f.value ? 1 : 0)}::float8`;
    case 'number': {
      const op = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' }[f.operator];
      return `${x}.key_num ${op} ${p(f.value)}::float8`;
    }
    case 'string': {
      const folded = foldCase(f.value);
      const key = `${x}.key_text`;
      if (!f.caseSensitive) {
        switch (f.operator) {
          case 'eq':
            return `${key} = ${p(folded)}::text`;
          case 'ne':
            return `${key} <> ${p(folded)}::text`;
          case 'contains':
            return `strpos(${key}, ${p(folded)}::text) > 0`;
          case 'starts_with':
            return `starts_with(${key}, ${p(folded)}::text)`;
        }
      }
      const value = `COALESCE(${x}.raw, ${key})`;
      switch (f.operator) {
        case 'eq':
          // The folded key narrows through the value index; the original decides.
          return `${key} = ${p(folded)}::text AND ${value} = ${p(f.value)}::text`;
        case 'ne':
          return `${value} <> ${p(f.value)}::text`;
        case 'contains':
          return `strpos(${value}, ${p(f.value)}::text) > 0`;
        case 'starts_with':
          return `starts_with(${value}, ${p(f.value)}::text)`;
      }
    }
  }
}

/**
 * What a filtered list needs to walk the index: the project's number and each filter's path
 * id. Null when the project has never had an indexed log or a path was never indexed: such
 * a filter matches nothing, whatever the operator.
 */
export async function filterIds(
  sql: Sql,
  projectIds: readonly string[],
  filters: readonly AttributeFilter[],
): Promise<{
  projectNumbers: Map<string, number>;
  pathIds: (number | undefined)[];
}> {
  const [numbers, paths] = await Promise.all([
    sql.rows<{ project_id: string; n: number }>(
      'SELECT project_id, n FROM project_numbers WHERE project_id = ANY($1::text[])',
      [projectIds],
    ),
    sql.rows<{ id: number; path: string; type: AttributeType }>(
      `SELECT a.id, a.path, a.type FROM attribute_paths a
       JOIN unnest($1::text[], $2::text[]) AS u(path, type) ON a.path = u.path AND a.type = u.type`,
      [filters.map((f) => f.path), filters.map((f) => f.type)],
    ),
  ]);
  return {
    projectNumbers: new Map(numbers.map((r) => [r.project_id, r.n])),
    pathIds: filters.map((f) => paths.find((r) => r.path === f.path && r.type === f.type)?.id),
  };
}
