import {
  attributeTypeOf,
  checkAttributeFilter,
  type AttributeFilter,
} from '../../lib/attribute-filter';
import { lookupPointer, pointerOf } from '../../lib/json-pointer';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `11-22 14:05:09.123` (UTC): a list's time column, dense and sortable by eye. */
export function formatLogTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
}

/** A value as one line of text: strings as they are, the rest as JSON. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? String(value);
}

/** What an attribute column shows for a log: the value at the path, or null when absent. */
export function attributeCell(attributes: unknown, path: string): string | null {
  const found = lookupPointer(attributes, path);
  return found.found ? valueText(found.value) : null;
}

export type AttributeNode =
  | { kind: 'object'; key: string; pointer: string; children: AttributeNode[] }
  | { kind: 'value'; key: string; pointer: string; value: unknown; inArray: false }
  | { kind: 'array'; key: string; pointer: string; value: unknown[] };

/** The attributes as a tree of keys (insertion order), each with its JSON Pointer. */
export function attributeTree(
  attributes: Record<string, unknown>,
  keys: string[] = [],
): AttributeNode[] {
  return Object.entries(attributes).map(([key, value]): AttributeNode => {
    const path = [...keys, key];
    const pointer = pointerOf(path);
    if (Array.isArray(value)) return { kind: 'array', key, pointer, value };
    if (typeof value === 'object' && value !== null) {
      return {
        kind: 'object',
        key,
        pointer,
        children: attributeTree(value as Record<string, unknown>, path),
      };
    }
    return { kind: 'value', key, pointer, value, inArray: false };
  });
}

/**
 * The filter that keeps (`eq`) or leaves out (`ne`) logs with this value at this path, or why
 * there is none: only text, numbers and booleans outside arrays can be searched.
 */
export function filterForValue(
  pointer: string,
  value: unknown,
  operator: 'eq' | 'ne',
): { ok: true; filter: AttributeFilter } | { ok: false; problem: string } {
  const type = attributeTypeOf(value);
  if (type === null) {
    return { ok: false, problem: 'Only text, numbers and true/false values can be filtered.' };
  }
  return checkAttributeFilter({ path: pointer, type, operator, value });
}
