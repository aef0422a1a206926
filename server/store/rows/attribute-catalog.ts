import { INDEX_LIMITS, indexAttributes, type IndexCoverage } from '../../domain/attribute-index';
import type { AttributeType } from '../../domain/read-rules/attribute-filters';
import type {
  AttributeCatalog,
  AttributeCatalogQuery,
  CatalogEntry,
} from '../../core/store/telemetry/logs';

export const HOUR_MS = 3_600_000;

/**
 * The catalog over [since, ∞) is read in two parts: whole hours from the rollups (from
 * `firstWholeHour` on), and the first, partial hour [since, partialEnd) from the logs
 * themselves, re-indexed in memory with the same rules, so the counts are exact at
 * millisecond precision without scanning the index.
 */
export function catalogHours(since: number): { firstWholeHour: number; partialEnd: number } {
  const firstWholeHour = Math.ceil(since / HOUR_MS);
  return { firstWholeHour, partialEnd: firstWholeHour * HOUR_MS };
}

const pathKey = (path: string, type: AttributeType) => `${type}\u0000${path}`;

/** Adds up the parts of a catalog read, then answers the query (`finish`). */
export function catalogTally() {
  const coverage = { indexed_logs: 0, partially_indexed_logs: 0, unindexed_logs: 0 };
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

  return {
    /** A path's rollup over the whole hours. */
    count,
    /** Coverage rollup over the whole hours. */
    addCoverage,
    /** One log of the partial hour (its stored attributes JSON). */
    addLog(attributes: string, occurredAt: number): void {
      const indexed = indexAttributes(JSON.parse(attributes) as Record<string, unknown>);
      const c: IndexCoverage = indexed.coverage;
      addCoverage(c === 'indexed' ? 1 : 0, c === 'partial' ? 1 : 0, c === 'unindexed' ? 1 : 0);
      for (const leaf of indexed.leaves) count(leaf.path, leaf.type, 1, occurredAt);
    },
    finish(q: AttributeCatalogQuery): AttributeCatalog {
      const total =
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
          total_logs: total,
          ...coverage,
          index_limits: {
            max_depth: INDEX_LIMITS.maxDepth,
            max_attributes_per_log: INDEX_LIMITS.maxAttributesPerLog,
            max_string_bytes: INDEX_LIMITS.maxStringBytes,
          },
        },
      };
    },
  };
}

/** Most observed first, then path, then type: the catalog's order and its cursor's. */
export function catalogOrder(
  a: Pick<CatalogEntry, 'observedCount' | 'path' | 'type'>,
  b: Pick<CatalogEntry, 'observedCount' | 'path' | 'type'>,
): number {
  if (a.observedCount !== b.observedCount) return b.observedCount - a.observedCount;
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  if (a.type !== b.type) return a.type < b.type ? -1 : 1;
  return 0;
}
