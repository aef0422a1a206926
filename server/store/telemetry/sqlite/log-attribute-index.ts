import { foldCase, type IndexedAttributes } from '../../../domain/attribute-index';
import type { AttributeFilter, AttributeType } from '../../../domain/read-rules/attribute-filters';
import type { Db } from '../../sqlite/database';
import { logIndexRows, type LogToIndex } from '../../rows/log-index-rows';
import { catalogHours, catalogTally } from '../../rows/attribute-catalog';
import type { AttributeCatalog, AttributeCatalogQuery } from '../../../core/store/telemetry/logs';

export type { LogToIndex } from '../../rows/log-index-rows';

const pathKey = (path: string, type: AttributeType) => `${type}\u0000${path}`;

const INSERT_LEAVES =
  'INSERT OR IGNORE INTO log_attributes (path_id, project_n, occurred_at, log_seq, key, raw) VALUES';
/** Leaves per multi-row insert: one statement per 64 rows instead of one per row. */
const LEAF_CHUNK = 64;

/**
 * The log attribute index: one row per indexed scalar leaf, hourly rollups for the catalog
 * and coverage. Writes happen inside the ingest transaction; ids of new projects and paths
 * are created beforehand in their own transaction (`ensureIds`), so a rolled-back batch never
 * leaves the in-memory id caches pointing at rows that do not exist.
 */
export function logAttributeIndex(db: Db) {
  const projectNumbers = new Map<string, number>();
  const pathIds = new Map<string, number>();
  const allProjects = db.prepare<[], { n: number; project_id: string }>(
    'SELECT n, project_id FROM project_numbers',
  );
  const allPaths = db.prepare<[], { id: number; path: string; type: AttributeType }>(
    'SELECT id, path, type FROM attribute_paths',
  );
  const reload = () => {
    projectNumbers.clear();
    pathIds.clear();
    for (const r of allProjects.all()) projectNumbers.set(r.project_id, r.n);
    for (const r of allPaths.all()) pathIds.set(pathKey(r.path, r.type), r.id);
  };
  reload();

  const s = {
    addProject: db.prepare<[string], { n: number }>(
      'INSERT INTO project_numbers (project_id) VALUES (?) RETURNING n',
    ),
    addPath: db.prepare<[string, string], { id: number }>(
      'INSERT INTO attribute_paths (path, type) VALUES (?, ?) RETURNING id',
    ),
    addLeaf: db.prepare(`${INSERT_LEAVES} (?, ?, ?, ?, ?, ?)`),
    addLeaves: db.prepare(
      `${INSERT_LEAVES} ${Array.from({ length: LEAF_CHUNK }, () => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
    ),
    addPathHour: db.prepare(`INSERT INTO log_attribute_hours
      (project_n, hour, severity, path_id, observed, last_seen_at) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (project_n, hour, severity, path_id) DO UPDATE SET
        observed = observed + excluded.observed,
        last_seen_at = MAX(last_seen_at, excluded.last_seen_at)`),
    addCoverageHour: db.prepare(`INSERT INTO log_index_hours
      (project_n, hour, severity, indexed, partial, unindexed) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (project_n, hour, severity) DO UPDATE SET
        indexed = indexed + excluded.indexed,
        partial = partial + excluded.partial,
        unindexed = unindexed + excluded.unindexed`),
  };

  const ensureIdsTx = db.transaction((projectId: string, logs: IndexedAttributes[]) => {
    if (!projectNumbers.has(projectId))
      projectNumbers.set(projectId, s.addProject.get(projectId)?.n ?? 0);
    for (const l of logs)
      for (const leaf of l.leaves) {
        const k = pathKey(leaf.path, leaf.type);
        if (!pathIds.has(k)) pathIds.set(k, s.addPath.get(leaf.path, leaf.type)?.id ?? 0);
      }
  });

  const needsIds = (projectId: string, logs: IndexedAttributes[]) =>
    !projectNumbers.has(projectId) ||
    logs.some((l) => l.leaves.some((leaf) => !pathIds.has(pathKey(leaf.path, leaf.type))));

  return {
    /** Creates the numbers of a project and of any new paths (outside the ingest transaction). */
    ensureIds(projectId: string, logs: IndexedAttributes[]): void {
      if (!needsIds(projectId, logs)) return;
      try {
        ensureIdsTx(projectId, logs);
      } catch (e) {
        // The caches may hold ids of the rolled-back insert: reload them from the database.
        reload();
        throw e;
      }
    },

    /** Writes the leaves and rollups of stored logs; call inside the transaction that stored them. */
    write(projectId: string, logs: readonly LogToIndex[]): void {
      const n = projectNumbers.get(projectId);
      if (n === undefined) throw new Error('ensureIds must run before write');
      const rows = logIndexRows(logs, (path, type) => pathIds.get(pathKey(path, type)));
      const leafRows = rows.leaves.map((l) => [l.pathId, n, l.occurredAt, l.seq, l.key, l.raw]);
      let i = 0;
      for (; i + LEAF_CHUNK <= leafRows.length; i += LEAF_CHUNK)
        s.addLeaves.run(leafRows.slice(i, i + LEAF_CHUNK).flat());
      for (; i < leafRows.length; i++) s.addLeaf.run(leafRows[i]);
      for (const h of rows.pathHours)
        s.addPathHour.run(n, h.hour, h.severity, h.pathId, h.observed, h.last);
      for (const c of rows.coverageHours)
        s.addCoverageHour.run(n, c.hour, c.severity, c.indexed, c.partial, c.unindexed);
    },

    projectNumber: (projectId: string): number | undefined => projectNumbers.get(projectId),
    pathId: (path: string, type: AttributeType): number | undefined =>
      pathIds.get(pathKey(path, type)),

    catalog: (q: AttributeCatalogQuery): AttributeCatalog => readCatalog(db, q, projectNumbers),
  };
}

export type LogAttributeIndex = ReturnType<typeof logAttributeIndex>;

/**
 * One attribute filter as SQL on a `log_attributes` row `x` of the filter's path: the row's
 * presence already means "has the path with a value of this type". Strings compare folded
 * unless `case_sensitive`. A prefix is an occurrence at 1: SQLite's length() and substr() stop
 * at the first U+0000, so they compared a prefix holding one short.
 */
export function leafCondition(f: AttributeFilter, x: string, args: unknown[]): string {
  if (f.operator === 'exists') return '1';
  switch (f.type) {
    case 'boolean':
      args.push(f.value ? 1 : 0);
      return `${x}.key ${f.operator === 'eq' ? '=' : '<>'} ?`;
    case 'number': {
      const op = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' }[f.operator];
      args.push(f.value);
      return `${x}.key ${op} ?`;
    }
    case 'string': {
      const folded = foldCase(f.value);
      if (!f.caseSensitive) {
        switch (f.operator) {
          case 'eq':
            args.push(folded);
            return `${x}.key = ?`;
          case 'ne':
            args.push(folded);
            return `${x}.key <> ?`;
          case 'contains':
            args.push(folded);
            return `instr(${x}.key, ?) > 0`;
          case 'starts_with':
            args.push(folded);
            return `instr(${x}.key, ?) = 1`;
        }
      }
      const value = `COALESCE(${x}.raw, ${x}.key)`;
      switch (f.operator) {
        case 'eq':
          // The folded key narrows through the value index; the original decides.
          args.push(folded, f.value);
          return `${x}.key = ? AND ${value} = ?`;
        case 'ne':
          args.push(f.value);
          return `${value} <> ?`;
        case 'contains':
          args.push(f.value);
          return `instr(${value}, ?) > 0`;
        case 'starts_with':
          args.push(f.value);
          return `instr(${value}, ?) = 1`;
      }
    }
  }
}

const inList = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** The catalog over [since, ∞) (see `catalogHours`). */
function readCatalog(
  db: Db,
  q: AttributeCatalogQuery,
  projectNumbers: ReadonlyMap<string, number>,
): AttributeCatalog {
  const numbers = q.projectIds
    .map((id) => projectNumbers.get(id))
    .filter((n): n is number => n !== undefined);
  const tally = catalogTally();
  if (numbers.length > 0) {
    const { firstWholeHour, partialEnd } = catalogHours(q.since);
    const severity = q.severity === null ? '' : 'AND h.severity = ?';
    const args: unknown[] = [...numbers, firstWholeHour];
    if (q.severity !== null) args.push(q.severity);
    const paths = db
      .prepare<unknown[], { path: string; type: AttributeType; observed: number; last: number }>(
        `SELECT p.path, p.type, SUM(h.observed) AS observed, MAX(h.last_seen_at) AS last
         FROM log_attribute_hours h JOIN attribute_paths p ON p.id = h.path_id
         WHERE h.project_n IN (${inList(numbers.length)}) AND h.hour >= ? ${severity}
         GROUP BY h.path_id`,
      )
      .all(...args);
    for (const p of paths) tally.count(p.path, p.type, p.observed, p.last);
    const cov = db
      .prepare<
        unknown[],
        { indexed: number | null; partial: number | null; unindexed: number | null }
      >(
        `SELECT SUM(indexed) AS indexed, SUM(partial) AS partial, SUM(unindexed) AS unindexed
         FROM log_index_hours h
         WHERE h.project_n IN (${inList(numbers.length)}) AND h.hour >= ? ${severity}`,
      )
      .get(...args);
    tally.addCoverage(cov?.indexed ?? 0, cov?.partial ?? 0, cov?.unindexed ?? 0);

    if (q.since < partialEnd) {
      const rowArgs: unknown[] = [...q.projectIds, q.since, partialEnd];
      if (q.severity !== null) rowArgs.push(q.severity);
      const rows = db
        .prepare<unknown[], { occurred_at: number; attributes: string }>(
          `SELECT occurred_at, attributes FROM logs
           WHERE project_id IN (${inList(q.projectIds.length)})
             AND occurred_at >= ? AND occurred_at < ? ${q.severity === null ? '' : 'AND severity = ?'}`,
        )
        .iterate(...rowArgs);
      for (const r of rows) tally.addLog(r.attributes, r.occurred_at);
    }
  }
  return tally.finish(q);
}
