import { attributeTypeOf, checkAttributeFilter, type AttributeFilter } from './attribute-filter';
import { pointerOf } from './json-pointer';

/** Attribute values as the console shows them: a tree of keys, values as text. */

/** A value as one line of text: strings as they are, the rest as JSON. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? String(value);
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
