import {
  INDEX_LIMITS,
  foldCase,
  indexAttributes,
  type IndexCoverage,
  type IndexedAttributes,
} from '../../domain/attribute-index';
import type { AttributeFilter, AttributeType } from '../../domain/read-rules/attribute-filters';
import type { Severity } from '../../domain/severity';
import type { Db } from '../database';
import type { AttributeCatalog, AttributeCatalogQuery, CatalogEntry } from '../store';

const HOUR_MS = 3_600_000;

/** path id, project number, time, log row, key, raw: one `log_attributes` row. */
type LeafRow = [number, number, number, number, string | number, string | null];

/** A log ready for the index: its row, time, captured severity and indexed leaves. */
export type LogToIndex = {
  seq: number;
  occurredAt: number;
  severity: Severity;
  indexed: IndexedAttributes;
};

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
      const pathHours = new Map<string, { observed: number; last: number }>();
      const coverageHours = new Map<string, Record<IndexCoverage, number>>();
      const leafRows: LeafRow[] = [];
      for (const log of logs) {
        const hour = Math.floor(log.occurredAt / HOUR_MS);
        for (const leaf of log.indexed.leaves) {
          const id = pathIds.get(pathKey(leaf.path, leaf.type));
          if (id === undefined) throw new Error('ensureIds must run before write');
          leafRows.push([id, n, log.occurredAt, log.seq, leaf.key, leaf.raw]);
          const k = `${hour}|${log.severity}|${id}`;
          const agg = pathHours.get(k);
          if (agg) {
            agg.observed += 1;
            agg.last = Math.max(agg.last, log.occurredAt);
          } else pathHours.set(k, { observed: 1, last: log.occurredAt });
        }
        const ck = `${hour}|${log.severity}`;
        const cov = coverageHours.get(ck) ?? { indexed: 0, partial: 0, unindexed: 0 };
        cov[log.indexed.coverage] += 1;
        coverageHours.set(ck, cov);
      }
      // In key order, so consecutive inserts land on the same index pages.
      leafRows.sort((a, b) => a[0] - b[0] || a[2] - b[2] || a[3] - b[3]);
      let i = 0;
      for (; i + LEAF_CHUNK <= leafRows.length; i += LEAF_CHUNK)
        s.addLeaves.run(leafRows.slice(i, i + LEAF_CHUNK).flat());
      for (; i < leafRows.length; i++) s.addLeaf.run(leafRows[i]);
      for (const [k, agg] of pathHours) {
        const [hour, severity, id] = k.split('|');
        s.addPathHour.run(n, Number(hour), severity, Number(id), agg.observed, agg.last);
      }
      for (const [k, c] of coverageHours) {
        const [hour, severity] = k.split('|');
        s.addCoverageHour.run(n, Number(hour), severity, c.indexed, c.partial, c.unindexed);
      }
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
 * unless `case_sensitive`.
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
            args.push(folded, folded);
            return `substr(${x}.key, 1, length(?)) = ?`;
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
          args.push(f.value, f.value);
          return `substr(${value}, 1, length(?)) = ?`;
      }
    }
  }
}

const inList = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * The catalog over [since, ∞): whole hours from the rollups, and the first, partial hour
 * from the logs themselves (re-indexed in memory with the same rules), so the counts are
 * exact at millisecond precision without scanning the index.
 */
function readCatalog(
  db: Db,
  q: AttributeCatalogQuery,
  projectNumbers: ReadonlyMap<string, number>,
): AttributeCatalog {
  const numbers = q.projectIds
    .map((id) => projectNumbers.get(id))
    .filter((n): n is number => n !== undefined);
  const coverage = { total_logs: 0, indexed_logs: 0, partially_indexed_logs: 0, unindexed_logs: 0 };
  const byPath = new Map<string, CatalogEntry>();
  const count = (path: string, type: AttributeType, observed: number, last: number) => {
    const k = pathKey(path, type);
    const e = byPath.get(k);
    if (e) {
      e.observedCount += observed;
      e.lastSeenAt = Math.max(e.lastSeenAt, last);
    } else byPath.set(k, { path, type, observedCount: observed, lastSeenAt: last });
  };
  const addCoverage = (indexed: number, partial: number, unindexed: number) => {
    coverage.indexed_logs += indexed;
    coverage.partially_indexed_logs += partial;
    coverage.unindexed_logs += unindexed;
  };

  if (numbers.length > 0) {
    const firstWholeHour = Math.ceil(q.since / HOUR_MS);
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
    for (const p of paths) count(p.path, p.type, p.observed, p.last);
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
    addCoverage(cov?.indexed ?? 0, cov?.partial ?? 0, cov?.unindexed ?? 0);

    const partialEnd = firstWholeHour * HOUR_MS;
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
      const tally: Record<IndexCoverage, number> = { indexed: 0, partial: 0, unindexed: 0 };
      for (const r of rows) {
        const indexed = indexAttributes(JSON.parse(r.attributes) as Record<string, unknown>);
        tally[indexed.coverage] += 1;
        for (const leaf of indexed.leaves) count(leaf.path, leaf.type, 1, r.occurred_at);
      }
      addCoverage(tally.indexed, tally.partial, tally.unindexed);
    }
  }
  coverage.total_logs =
    coverage.indexed_logs + coverage.partially_indexed_logs + coverage.unindexed_logs;

  const search = q.search === null ? null : q.search.toLowerCase();
  const after = q.after;
  const entries = [...byPath.values()]
    .filter(
      (e) =>
        (q.type === null || e.type === q.type) &&
        (search === null || e.path.toLowerCase().includes(search)),
    )
    .sort(catalogOrder)
    .filter((e) => after === null || catalogOrder(e, after) > 0);
  return {
    attributes: entries.slice(0, q.limit),
    hasMore: entries.length > q.limit,
    coverage: {
      ...coverage,
      index_limits: {
        max_depth: INDEX_LIMITS.maxDepth,
        max_attributes_per_log: INDEX_LIMITS.maxAttributesPerLog,
        max_string_bytes: INDEX_LIMITS.maxStringBytes,
      },
    },
  };
}

/** Most observed first, then path, then type: the catalog's order and its cursor's. */
function catalogOrder(
  a: Pick<CatalogEntry, 'observedCount' | 'path' | 'type'>,
  b: Pick<CatalogEntry, 'observedCount' | 'path' | 'type'>,
): number {
  if (a.observedCount !== b.observedCount) return b.observedCount - a.observedCount;
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  if (a.type !== b.type) return a.type < b.type ? -1 : 1;
  return 0;
}
