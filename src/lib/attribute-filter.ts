import {
  displayPointer,
  escapeToken,
  lookupPointer,
  parsePointer,
  pointerSearchOf,
} from './json-pointer';

/**
 * Attribute filters on logs (spec "Attribute filters on logs"): the shape the URL and
 * `attribute_filters` carry, the service's rules checked before sending (with a sentence a
 * person can act on), and the same matching the service does, for live rows.
 */

export type AttributeType = 'string' | 'number' | 'boolean';
export type AttributeOperator =
  'eq' | 'ne' | 'contains' | 'starts_with' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists';

export type StringOperator = 'eq' | 'ne' | 'contains' | 'starts_with';
export type NumberOperator = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte';
export type BooleanOperator = 'eq' | 'ne';

/** One filter exactly as the service takes it. `exists` has no `value`. */
export type AttributeFilter =
  | { path: string; type: AttributeType; operator: 'exists' }
  | {
      path: string;
      type: 'string';
      operator: StringOperator;
      value: string;
      case_sensitive?: boolean;
    }
  | { path: string; type: 'number'; operator: NumberOperator; value: number }
  | { path: string; type: 'boolean'; operator: BooleanOperator; value: boolean };

export const MAX_ATTRIBUTE_FILTERS = 4;
export const MAX_ATTRIBUTE_FILTERS_BYTES = 4096;
export const MAX_STRING_VALUE_BYTES = 1024;
export const NUMBER_BOUND = 9007199254740992;

export const ATTRIBUTE_TYPES: readonly AttributeType[] = ['string', 'number', 'boolean'];

export const OPERATORS_BY_TYPE: Record<AttributeType, readonly AttributeOperator[]> = {
  string: ['eq', 'ne', 'contains', 'starts_with', 'exists'],
  number: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'exists'],
  boolean: ['eq', 'ne', 'exists'],
};

const OPERATOR_LABELS: Record<AttributeOperator, string> = {
  eq: 'is',
  ne: 'is not',
  contains: 'contains',
  starts_with: 'starts with',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  exists: 'exists',
};

/** What an operator reads as in a sentence: `is`, `≥`, `starts with` (`=`, `≠` for numbers). */
export function operatorLabel(operator: AttributeOperator, type?: AttributeType): string {
  if (type === 'number' && operator === 'eq') return '=';
  if (type === 'number' && operator === 'ne') return '≠';
  return OPERATOR_LABELS[operator];
}

export function isAttributeType(value: unknown): value is AttributeType {
  return value === 'string' || value === 'number' || value === 'boolean';
}

export function operatorAllowed(type: AttributeType, operator: string): boolean {
  return (OPERATORS_BY_TYPE[type] as readonly string[]).includes(operator);
}

export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

const count = (n: number) => n.toLocaleString('en-US');

export type FilterCheck = { ok: true; filter: AttributeFilter } | { ok: false; problem: string };

function problem(text: string): FilterCheck {
  return { ok: false, problem: text };
}

/** The problem with a string value for an operator, or null when the service will take it. */
export function stringValueProblem(operator: StringOperator, value: string): string | null {
  if ((operator === 'contains' || operator === 'starts_with') && value === '') {
    return `Enter the text to look for: “${operatorLabel(operator)}” needs at least one character.`;
  }
  const bytes = utf8Bytes(value);
  if (bytes > MAX_STRING_VALUE_BYTES) {
    return `The value is ${count(bytes)} bytes long; at most ${count(MAX_STRING_VALUE_BYTES)} bytes (UTF-8) can be searched.`;
  }
  return null;
}

/** The problem with a number value, or null when the service will take it. */
export function numberValueProblem(value: number): string | null {
  if (!Number.isFinite(value)) return 'Enter a finite number, such as 500 or 0.25.';
  if (Math.abs(value) > NUMBER_BOUND) {
    return `Numbers must be between −${count(NUMBER_BOUND)} and ${count(NUMBER_BOUND)}.`;
  }
  return null;
}

/**
 * Checks a filter from anywhere (a URL, a click) with the service's rules. The result is a
 * new object with only the keys the service accepts, `case_sensitive` only when true.
 */
export function checkAttributeFilter(input: unknown): FilterCheck {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return problem('A filter must be an object.');
  }
  const f = input as Record<string, unknown>;
  const { path, type, operator, value } = f;
  if (typeof path !== 'string' || parsePointer(path) === null) {
    return problem('Pick an attribute from the list (such as http › status).');
  }
  if (!isAttributeType(type))
    return problem('The attribute type must be string, number or boolean.');
  if (typeof operator !== 'string' || !operatorAllowed(type, operator)) {
    return problem(
      `Choose how to compare: ${OPERATORS_BY_TYPE[type].map((op) => operatorLabel(op, type)).join(', ')}.`,
    );
  }
  const caseSensitive = f.case_sensitive;
  if (caseSensitive !== undefined && typeof caseSensitive !== 'boolean') {
    return problem('Case sensitivity must be on or off.');
  }
  if (caseSensitive === true && type !== 'string') {
    return problem('Only text values can be compared case-sensitively.');
  }
  if (operator === 'exists') {
    if (value !== undefined) return problem('“exists” takes no value.');
    return { ok: true, filter: { path, type, operator: 'exists' } };
  }
  switch (type) {
    case 'string': {
      if (typeof value !== 'string') return problem('Enter a text value.');
      const op = operator as StringOperator;
      const p = stringValueProblem(op, value);
      if (p !== null) return problem(p);
      return {
        ok: true,
        filter: {
          path,
          type,
          operator: op,
          value,
          ...(caseSensitive === true ? { case_sensitive: true } : {}),
        },
      };
    }
    case 'number': {
      if (typeof value !== 'number') return problem('Enter a number, such as 500 or 0.25.');
      const p = numberValueProblem(value);
      if (p !== null) return problem(p);
      return { ok: true, filter: { path, type, operator: operator as NumberOperator, value } };
    }
    case 'boolean': {
      if (typeof value !== 'boolean') return problem('Choose true or false.');
      return { ok: true, filter: { path, type, operator: operator as BooleanOperator, value } };
    }
  }
}

/** What the value box holds while a person builds a filter (text, read by the type). */
export type FilterDraft = {
  path: string;
  type: AttributeType;
  operator: AttributeOperator;
  /** The typed text; for booleans `true` or `false`. Ignored for `exists`. */
  valueText: string;
  caseSensitive: boolean;
};

const NUMBER_TEXT = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** Reads a draft into a filter, or says what to fix before it can be sent. */
export function filterFromDraft(draft: FilterDraft): FilterCheck {
  const base = { path: draft.path, type: draft.type, operator: draft.operator };
  if (draft.operator === 'exists') return checkAttributeFilter(base);
  switch (draft.type) {
    case 'string':
      return checkAttributeFilter({
        ...base,
        value: draft.valueText,
        ...(draft.caseSensitive ? { case_sensitive: true } : {}),
      });
    case 'number': {
      const text = draft.valueText.trim();
      if (text === '') return problem('Enter a number, such as 500 or 0.25.');
      if (!NUMBER_TEXT.test(text)) {
        return problem(`“${draft.valueText}” is not a number. Enter digits, such as 500 or 0.25.`);
      }
      return checkAttributeFilter({ ...base, value: Number(text) });
    }
    case 'boolean': {
      if (draft.valueText !== 'true' && draft.valueText !== 'false') {
        return problem('Choose true or false.');
      }
      return checkAttributeFilter({ ...base, value: draft.valueText === 'true' });
    }
  }
}

/** The draft that edits an existing filter. */
export function draftOf(filter: AttributeFilter): FilterDraft {
  return {
    path: filter.path,
    type: filter.type,
    operator: filter.operator,
    valueText: 'value' in filter ? String(filter.value) : filter.type === 'boolean' ? 'true' : '',
    caseSensitive: 'case_sensitive' in filter && filter.case_sensitive === true,
  };
}

/** The `attribute_filters` query value. */
export function serializeAttributeFilters(filters: readonly AttributeFilter[]): string {
  return JSON.stringify(filters);
}

/**
 * Checks a whole set as the service will: 1 to 4 filters, each valid, the JSON at most
 * 4096 bytes. An empty set is fine (no `attribute_filters` is sent).
 */
export function attributeFiltersProblem(filters: readonly AttributeFilter[]): string | null {
  if (filters.length > MAX_ATTRIBUTE_FILTERS) {
    return `At most ${MAX_ATTRIBUTE_FILTERS} attribute filters can be combined.`;
  }
  for (const f of filters) {
    const check = checkAttributeFilter(f);
    if (!check.ok) return check.problem;
  }
  if (filters.length === 0) return null;
  const bytes = utf8Bytes(serializeAttributeFilters(filters));
  if (bytes > MAX_ATTRIBUTE_FILTERS_BYTES) {
    return `These filters take ${count(bytes)} bytes; at most ${count(MAX_ATTRIBUTE_FILTERS_BYTES)} can be sent. Shorten a value or remove a filter.`;
  }
  return null;
}

/** Whether two filters select the same thing (same path, type, operator, value, case). */
export function sameFilter(a: AttributeFilter, b: AttributeFilter): boolean {
  return JSON.stringify(checkOrSelf(a)) === JSON.stringify(checkOrSelf(b));
}

function checkOrSelf(f: AttributeFilter): AttributeFilter {
  const c = checkAttributeFilter(f);
  return c.ok ? c.filter : f;
}

/** `http › status ≥ 500`, `user › plan is "pro"`, `flags › beta exists` (the path as shown). */
export function describeFilter(filter: AttributeFilter): string {
  return `${displayPointer(filter.path)}${describeComparison(filter)}`;
}

/** What follows the path in `describeFilter`: ` ≥ 500`, ` is "pro"`, ` exists`. */
export function describeComparison(filter: AttributeFilter): string {
  const op = operatorLabel(filter.operator, filter.type);
  if (filter.operator === 'exists') return ' exists';
  const value = filter.type === 'string' ? JSON.stringify(filter.value) : String(filter.value);
  const cs = filter.type === 'string' && filter.case_sensitive === true ? ' (match case)' : '';
  return ` ${op} ${value}${cs}`;
}

/** The JSON type of an attribute value as filters name it, or null (null, objects, arrays). */
export function attributeTypeOf(value: unknown): AttributeType | null {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number' && Number.isFinite(value)) return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return null;
}

/** The service's attribute index limits (the catalog's `coverage.index_limits`). */
export type IndexLimits = {
  max_depth: number;
  max_attributes_per_log: number;
  max_string_bytes: number;
};

/**
 * The limits the service documents, used until the catalog has said them. Paths longer than
 * 256 bytes are not indexed either (not part of `index_limits`).
 */
export const DEFAULT_INDEX_LIMITS: IndexLimits = {
  max_depth: 8,
  max_attributes_per_log: 64,
  max_string_bytes: 1024,
};
const MAX_INDEXED_PATH_BYTES = 256;

/**
 * The paths of a log's attributes that the service's index can search, as it builds them:
 * text, number and boolean values (not `null`, not inside arrays), in document order, at
 * most `max_depth` keys deep, the first `max_attributes_per_log`, text of at most
 * `max_string_bytes`. A filter never matches a value left out here.
 */
export function indexedPaths(attributes: unknown, limits: IndexLimits): Set<string> {
  const paths = new Set<string>();
  const visit = (value: unknown, path: string, depth: number) => {
    if (value === null || value === undefined || Array.isArray(value)) return;
    if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        visit(v, `${path}/${escapeToken(k)}`, depth + 1);
      }
      return;
    }
    const type = attributeTypeOf(value);
    if (type === null) return;
    if (type === 'string' && utf8Bytes(value as string) > limits.max_string_bytes) return;
    if (depth > limits.max_depth || paths.size >= limits.max_attributes_per_log) return;
    if (utf8Bytes(path) > MAX_INDEXED_PATH_BYTES) return;
    paths.add(path);
  };
  if (typeof attributes === 'object' && attributes !== null && !Array.isArray(attributes)) {
    for (const [k, v] of Object.entries(attributes)) visit(v, `/${escapeToken(k)}`, 1);
  }
  return paths;
}

/**
 * Whether a log's attributes match one filter, as the service decides: the path must hold a
 * value of the filter's type (so `ne` never matches a log without the path); text compares
 * ignore case unless `case_sensitive`. Give `indexed` (from `indexedPaths`) to leave out
 * what the service's index cannot search.
 */
export function matchesAttributeFilter(
  attributes: unknown,
  filter: AttributeFilter,
  indexed?: ReadonlySet<string>,
): boolean {
  if (indexed !== undefined && !indexed.has(filter.path)) return false;
  const found = lookupPointer(attributes, filter.path);
  if (!found.found) return false;
  const value = found.value;
  if (attributeTypeOf(value) !== filter.type) return false;
  if (filter.operator === 'exists') return true;
  switch (filter.type) {
    case 'boolean':
      return filter.operator === 'eq' ? value === filter.value : value !== filter.value;
    case 'number': {
      const v = value as number;
      switch (filter.operator) {
        case 'eq':
          return v === filter.value;
        case 'ne':
          return v !== filter.value;
        case 'gt':
          return v > filter.value;
        case 'gte':
          return v >= filter.value;
        case 'lt':
          return v < filter.value;
        case 'lte':
          return v <= filter.value;
      }
      return false;
    }
    case 'string': {
      const fold = (s: string) => (filter.case_sensitive === true ? s : s.toLowerCase());
      const v = fold(value as string);
      const want = fold(filter.value);
      switch (filter.operator) {
        case 'eq':
          return v === want;
        case 'ne':
          return v !== want;
        case 'contains':
          return v.includes(want);
        case 'starts_with':
          return v.startsWith(want);
      }
      return false;
    }
  }
  return false;
}

/**
 * Every filter must match (an empty set matches everything), among the values the index
 * keeps under `limits`.
 */
export function matchesAttributeFilters(
  attributes: unknown,
  filters: readonly AttributeFilter[],
  limits: IndexLimits = DEFAULT_INDEX_LIMITS,
): boolean {
  if (filters.length === 0) return true;
  const indexed = indexedPaths(attributes, limits);
  return filters.every((f) => matchesAttributeFilter(attributes, f, indexed));
}

/** The catalog's `search`: a path substring of 1 to 128 bytes without control characters. */
export const MAX_CATALOG_SEARCH_BYTES = 128;

/**
 * What a typed path search sends to the catalog: trimmed, control characters removed, written
 * the way paths are shown (`app.kubernetes.io/name`, `http › status`) and sent as the pointer
 * substring it means, or `undefined` for none. Past 128 bytes it says so instead (the service
 * would refuse it).
 */
export function catalogSearchOf(
  text: string,
): { ok: true; search: string | undefined } | { ok: false; problem: string } {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (clean === '') return { ok: true, search: undefined };
  const search = pointerSearchOf(clean);
  if (utf8Bytes(search) > MAX_CATALOG_SEARCH_BYTES) {
    return {
      ok: false,
      problem: `Search with at most ${MAX_CATALOG_SEARCH_BYTES} bytes of a path.`,
    };
  }
  return { ok: true, search };
}
