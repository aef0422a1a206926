import type { AttributeType } from './read-rules/attribute-filters';

/**
 * What the log attribute index keeps of one log's attributes, and why some of it is left out.
 * The index holds scalar leaves (strings, numbers, booleans) by JSON Pointer path; a filter
 * can only find what is here, and the catalog's coverage says how much of each log that is.
 */
export const INDEX_LIMITS = {
  /** Reference tokens in a path: `/a/b` has depth 2. Deeper leaves are not indexed. */
  maxDepth: 8,
  /** Leaves indexed per log, in document order; the rest are not. */
  maxAttributesPerLog: 64,
  /** UTF-8 bytes of a string value; a longer value is not indexed (no filter value can be longer). */
  maxStringBytes: 1024,
  /** UTF-8 bytes of a path. */
  maxPathBytes: 256,
} as const;

/** `indexed`: every scalar is searchable; `partial`: some are not; `unindexed`: none is. */
export type IndexCoverage = 'indexed' | 'partial' | 'unindexed';

export type IndexedLeaf = {
  path: string;
  type: AttributeType;
  /** Strings: case-folded value; numbers: the number; booleans: 1 or 0. */
  key: string | number;
  /** Strings whose folded form differs: the original, for case-sensitive filters; else null. */
  raw: string | null;
};

export type IndexedAttributes = { leaves: IndexedLeaf[]; coverage: IndexCoverage };

/** RFC 6901 reference token: `~` becomes `~0`, `/` becomes `~1`. */
export const encodePointerToken = (token: string): string =>
  token.includes('~') || token.includes('/')
    ? token.replace(/~/g, '~0').replace(/\//g, '~1')
    : token;

/** UTF-8 bytes of `s` over `max`? A UTF-16 unit is at most 3 bytes, so short strings skip counting. */
const overBytes = (s: string, max: number) =>
  s.length * 3 > max && Buffer.byteLength(s, 'utf8') > max;

/** Case folding shared by the index and the filters (string values compare folded by default). */
export const foldCase = (s: string): string => s.toLowerCase();

/**
 * The leaves of one log's attributes the index keeps. Arrays are not indexed (their elements
 * have no stable path), nor are leaves past the depth, count, path or value limits; `null`
 * has no attribute type and is neither indexed nor counted as missing.
 */
export function indexAttributes(attributes: Record<string, unknown>): IndexedAttributes {
  const leaves: IndexedLeaf[] = [];
  let skipped = 0;

  const visit = (value: unknown, path: string, depth: number): void => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      skipped += 1;
      return;
    }
    if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>))
        visit(v, `${path}/${encodePointerToken(k)}`, depth + 1);
      return;
    }
    const leaf = toLeaf(path, value);
    if (
      leaf === null ||
      depth > INDEX_LIMITS.maxDepth ||
      leaves.length >= INDEX_LIMITS.maxAttributesPerLog ||
      overBytes(path, INDEX_LIMITS.maxPathBytes)
    ) {
      skipped += 1;
      return;
    }
    leaves.push(leaf);
  };
  for (const [k, v] of Object.entries(attributes)) visit(v, `/${encodePointerToken(k)}`, 1);

  const coverage: IndexCoverage =
    skipped === 0 ? 'indexed' : leaves.length === 0 ? 'unindexed' : 'partial';
  return { leaves, coverage };
}

function toLeaf(path: string, value: unknown): IndexedLeaf | null {
  switch (typeof value) {
    case 'string': {
      if (overBytes(value, INDEX_LIMITS.maxStringBytes)) return null;
      const key = foldCase(value);
      return { path, type: 'string', key, raw: key === value ? null : value };
    }
    case 'number':
      return Number.isFinite(value) ? { path, type: 'number', key: value, raw: null } : null;
    case 'boolean':
      return { path, type: 'boolean', key: value ? 1 : 0, raw: null };
    default:
      return null;
  }
}
