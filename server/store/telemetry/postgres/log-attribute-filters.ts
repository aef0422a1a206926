import { foldCase } from '../../../domain/attribute-index';
import type { AttributeFilter, AttributeType } from '../../../domain/read-rules/attribute-filters';
import type { Sql } from '../../postgres/pg-database';
import { raw, sql, type SqlFragment } from '../../rows/sql';

/**
 * One attribute filter as SQL on a `log_attributes` row `x` of the filter's path (the read
 * side of sqlite/log-attribute-index.ts's `leafCondition`); the row's presence already means
 * "has the path with a value of this type". SQLite keeps every key in one column, numbers
 * ordering before text; here a path's rows all hold their key in the column of its type
 * (`key_num` for numbers and booleans as 1/0, `key_text` for folded strings), so each
 * comparison only ever meets keys of its own type and answers as SQLite's does. Strings
 * compare folded unless `case_sensitive`; text functions count characters on both stores.
 */
export function pgLeafCondition(f: AttributeFilter, x: string): SqlFragment {
  const text = (v: string) => sql`${v}::text`;
  if (f.operator === 'exists') return raw('TRUE');
  switch (f.type) {
    case 'boolean':
      return sql`${raw(`${x}.key_num ${f.operator === 'eq' ? '=' : '<>'}`)} ${f.value ? 1 : 0}::float8`;
    case 'number': {
      const op = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' }[f.operator];
      return sql`${raw(`${x}.key_num ${op}`)} ${f.value}::float8`;
    }
    case 'string': {
      const folded = text(foldCase(f.value));
      const key = raw(`${x}.key_text`);
      if (!f.caseSensitive) {
        switch (f.operator) {
          case 'eq':
            return sql`${key} = ${folded}`;
          case 'ne':
            return sql`${key} <> ${folded}`;
          case 'contains':
            return sql`strpos(${key}, ${folded}) > 0`;
          case 'starts_with':
            return sql`starts_with(${key}, ${folded})`;
        }
      }
      const value = raw(`COALESCE(${x}.raw, ${x}.key_text)`);
      const exact = text(f.value);
      switch (f.operator) {
        case 'eq':
          // The folded key narrows through the value index; the original decides.
          return sql`${key} = ${folded} AND ${value} = ${exact}`;
        case 'ne':
          return sql`${value} <> ${exact}`;
        case 'contains':
          return sql`strpos(${value}, ${exact}) > 0`;
        case 'starts_with':
          return sql`starts_with(${value}, ${exact})`;
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
  tx: Sql,
  projectIds: readonly string[],
  filters: readonly AttributeFilter[],
): Promise<{
  projectNumbers: Map<string, number>;
  pathIds: (number | undefined)[];
}> {
  const [numbers, paths] = await Promise.all([
    tx.rows<{ project_id: string; n: number }>(
      sql`SELECT project_id, n FROM project_numbers WHERE project_id = ANY(${projectIds}::text[])`,
    ),
    tx.rows<{
      id: number;
      path: string;
      type: AttributeType;
    }>(sql`SELECT a.id, a.path, a.type FROM attribute_paths a
       JOIN unnest(${filters.map((f) => f.path)}::text[],
       ${filters.map((f) => f.type)}::text[]) AS u(path,
       type) ON a.path = u.path AND a.type = u.type`),
  ]);
  return {
    projectNumbers: new Map(numbers.map((r) => [r.project_id, r.n])),
    pathIds: filters.map((f) => paths.find((r) => r.path === f.path && r.type === f.type)?.id),
  };
}
