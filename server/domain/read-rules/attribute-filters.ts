import { invalid } from './read-rule-error';

export const ATTRIBUTE_FILTERS_MAX = 4;
export const ATTRIBUTE_FILTERS_MAX_BYTES = 4096;
export const ATTRIBUTE_STRING_MAX_BYTES = 1024;
export const ATTRIBUTE_NUMBER_BOUND = 9007199254740992;

export type AttributeType = 'string' | 'number' | 'boolean';
export type AttributeOperator =
  'eq' | 'ne' | 'contains' | 'starts_with' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists';

/**
 * Operators each type allows. `exists` takes no `value`: it matches logs having the path with
 * a value of that JSON type. Order comparisons are for numbers, text matching for strings.
 */
export const OPERATORS_BY_TYPE: Record<AttributeType, readonly AttributeOperator[]> = {
  string: ['eq', 'ne', 'contains', 'starts_with', 'exists'],
  number: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'exists'],
  boolean: ['eq', 'ne', 'exists'],
};

/** One validated filter. `segments` are the decoded JSON Pointer reference tokens. */
export type AttributeFilter =
  | { path: string; segments: string[]; type: AttributeType; operator: 'exists' }
  | {
      path: string;
      segments: string[];
      type: 'string';
      operator: 'eq' | 'ne' | 'contains' | 'starts_with';
      value: string;
      caseSensitive: boolean;
    }
  | {
      path: string;
      segments: string[];
      type: 'number';
      operator: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte';
      value: number;
    }
  | { path: string; segments: string[]; type: 'boolean'; operator: 'eq' | 'ne'; value: boolean };

const FILTER_KEYS = new Set(['path', 'type', 'operator', 'value', 'case_sensitive']);
const isType = (v: unknown): v is AttributeType =>
  v === 'string' || v === 'number' || v === 'boolean';

/** A JSON Pointer path as the filters and the catalog take it: at least one reference token. */
export const JSON_POINTER = /^(\/([^/~]|~[01])*)+$/;

/** RFC 6901 reference tokens of a pointer such as `/http/status` (`~1` is `/`, `~0` is `~`). */
export function parseJsonPointer(path: string): string[] | null {
  if (!JSON_POINTER.test(path)) return null;
  return path
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Spec "Attribute filters on logs": a JSON array of 1 to 4 filters, at most 4096 bytes; each
 * value's JSON type must match `type`. Every rejection is a 422, never a dropped filter.
 */
export function parseAttributeFilters(raw: string): AttributeFilter[] {
  if (Buffer.byteLength(raw, 'utf8') > ATTRIBUTE_FILTERS_MAX_BYTES)
    throw invalid(`attribute_filters must be at most ${ATTRIBUTE_FILTERS_MAX_BYTES} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalid('attribute_filters must be a JSON array');
  }
  if (!Array.isArray(parsed)) throw invalid('attribute_filters must be a JSON array');
  if (parsed.length < 1 || parsed.length > ATTRIBUTE_FILTERS_MAX)
    throw invalid(`attribute_filters must hold 1 to ${ATTRIBUTE_FILTERS_MAX} filters`);
  return parsed.map((f: unknown, i) => parseFilter(f, `attribute_filters[${i}]`));
}

function parseFilter(f: unknown, at: string): AttributeFilter {
  if (typeof f !== 'object' || f === null || Array.isArray(f))
    throw invalid(`${at} must be an object`);
  const o = f as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => !FILTER_KEYS.has(k));
  if (extra.length > 0) throw invalid(`${at} has unknown keys ${extra.join(', ')}`);
  const { path, type, operator, value } = o;
  if (typeof path !== 'string') throw invalid(`${at}.path must be a string`);
  const segments = parseJsonPointer(path);
  if (segments === null)
    throw invalid(`${at}.path must be a JSON Pointer such as /http/status (~0 and ~1 escapes)`);
  if (!isType(type)) throw invalid(`${at}.type must be string, number or boolean`);
  const allowed = OPERATORS_BY_TYPE[type];
  if (typeof operator !== 'string' || !allowed.includes(operator as AttributeOperator))
    throw invalid(`${at}.operator for ${type} must be one of ${allowed.join(', ')}`);
  const op = operator as AttributeOperator;
  if (o.case_sensitive !== undefined && typeof o.case_sensitive !== 'boolean')
    throw invalid(`${at}.case_sensitive must be a boolean`);
  if (o.case_sensitive === true && type !== 'string')
    throw invalid(`${at}.case_sensitive is only for string filters`);
  const caseSensitive = o.case_sensitive === true;

  if (op === 'exists') {
    if (value !== undefined) throw invalid(`${at}.value is not used with exists; omit it`);
    return { path, segments, type, operator: op };
  }
  switch (type) {
    case 'string': {
      if (typeof value !== 'string') throw invalid(`${at}.value must be a JSON string`);
      if (Buffer.byteLength(value, 'utf8') > ATTRIBUTE_STRING_MAX_BYTES)
        throw invalid(`${at}.value must be at most ${ATTRIBUTE_STRING_MAX_BYTES} bytes`);
      if ((op === 'contains' || op === 'starts_with') && value === '')
        throw invalid(`${at}.value must not be empty for ${op}`);
      return {
        path,
        segments,
        type,
        operator: op as 'eq' | 'ne' | 'contains' | 'starts_with',
        value,
        caseSensitive,
      };
    }
    case 'number': {
      if (typeof value !== 'number') throw invalid(`${at}.value must be a JSON number`);
      if (!Number.isFinite(value) || Math.abs(value) > ATTRIBUTE_NUMBER_BOUND)
        throw invalid(`${at}.value must be within ±${ATTRIBUTE_NUMBER_BOUND}`);
      return {
        path,
        segments,
        type,
        operator: op as 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte',
        value,
      };
    }
    case 'boolean': {
      if (typeof value !== 'boolean') throw invalid(`${at}.value must be a JSON boolean`);
      return { path, segments, type, operator: op as 'eq' | 'ne', value };
    }
  }
}

/**
 * The filters' JSON as a JSON Schema (the `contentSchema` of `attribute_filters` in the
 * OpenAPI document), built from the same operators, pattern and bounds `parseFilter` checks:
 * one shape per type and operator group. `x-max-bytes` counts UTF-8 bytes.
 */
export function attributeFiltersJsonSchema(): Record<string, unknown> {
  const path = { type: 'string', pattern: JSON_POINTER.source };
  const shape = (
    type: AttributeType,
    operators: readonly AttributeOperator[],
    value: Record<string, unknown> | null,
    caseSensitive: Record<string, unknown>,
  ) => ({
    type: 'object',
    additionalProperties: false,
    required: value === null ? ['path', 'type', 'operator'] : ['path', 'type', 'operator', 'value'],
    properties: {
      path,
      type: { const: type },
      operator: { enum: [...operators] },
      ...(value === null ? {} : { value }),
      case_sensitive: caseSensitive,
    },
  });
  const text = { type: 'string', 'x-max-bytes': ATTRIBUTE_STRING_MAX_BYTES };
  const number = {
    type: 'number',
    minimum: -ATTRIBUTE_NUMBER_BOUND,
    maximum: ATTRIBUTE_NUMBER_BOUND,
  };
  const onlyFalse = { const: false };
  return {
    type: 'array',
    minItems: 1,
    maxItems: ATTRIBUTE_FILTERS_MAX,
    items: {
      oneOf: [
        shape('string', ['exists'], null, { type: 'boolean' }),
        shape('string', ['eq', 'ne'], text, { type: 'boolean' }),
        shape(
          'string',
          ['contains', 'starts_with'],
          { ...text, minLength: 1 },
          { type: 'boolean' },
        ),
        shape('number', ['exists'], null, onlyFalse),
        shape('number', ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'], number, onlyFalse),
        shape('boolean', ['exists'], null, onlyFalse),
        shape('boolean', ['eq', 'ne'], { type: 'boolean' }, onlyFalse),
      ],
    },
  };
}
