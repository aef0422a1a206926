import type { AttributeType } from './attribute-filters';
import { parseJsonPointer } from './attribute-filters';
import { invalid } from './read-rule-error';

export const CATALOG_SEARCH_MAX_BYTES = 128;
export const CATALOG_CURSOR_FIELDS = [
  'cursor_observed_count',
  'cursor_path',
  'cursor_type',
] as const;
export const CATALOG_CURSOR_INCOMPLETE = `all catalog cursor fields must be sent together: ${CATALOG_CURSOR_FIELDS.join(', ')}`;

const TYPES: readonly AttributeType[] = ['string', 'number', 'boolean'];
/** C0 controls, DEL and C1 controls. */
const CONTROL_CHARS = '\\u0000-\\u001f\\u007f-\\u009f';
const CONTROL = new RegExp(`[${CONTROL_CHARS}]`);
/** What `search` may hold, as a pattern (its byte length is checked apart). */
export const CATALOG_SEARCH_PATTERN = `^[^${CONTROL_CHARS}]+$`;
/** Largest `cursor_observed_count` (a count of logs). */
export const CATALOG_COUNT_MAX = 999_999_999_999_999;

export type CatalogPosition = { observedCount: number; path: string; type: AttributeType };

/** Catalog `type`: one of the three attribute types, or absent. */
export function parseCatalogType(value: string | undefined): AttributeType | null {
  if (value === undefined) return null;
  const type = TYPES.find((t) => t === value);
  if (type === undefined) throw invalid('type must be string, number or boolean');
  return type;
}

/** Catalog `search`: a path substring of 1 to 128 bytes without control characters. */
export function parseCatalogSearch(value: string | undefined): string | null {
  if (value === undefined) return null;
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes < 1 || bytes > CATALOG_SEARCH_MAX_BYTES)
    throw invalid(`search must be 1 to ${CATALOG_SEARCH_MAX_BYTES} bytes`);
  if (CONTROL.test(value)) throw invalid('search must not contain control characters');
  return value;
}

/**
 * The catalog cursor: the three fields of its `next_cursor` (`observed_count`, `path`, `type`),
 * all together or none. The catalog has no `pagination` key: it always answers one page.
 */
export function parseCatalogCursor(q: Partial<Record<string, string>>): CatalogPosition | null {
  const sent = CATALOG_CURSOR_FIELDS.filter((k) => q[k] !== undefined);
  if (sent.length === 0) return null;
  if (sent.length !== CATALOG_CURSOR_FIELDS.length) throw invalid(CATALOG_CURSOR_INCOMPLETE);
  const count = q.cursor_observed_count ?? '';
  if (!/^\d{1,15}$/.test(count))
    throw invalid('cursor_observed_count must be a non-negative integer');
  const path = q.cursor_path ?? '';
  if (parseJsonPointer(path) === null) throw invalid('cursor_path must be a JSON Pointer path');
  const type = TYPES.find((t) => t === q.cursor_type);
  if (type === undefined) throw invalid('cursor_type must be string, number or boolean');
  return { observedCount: Number(count), path, type };
}
