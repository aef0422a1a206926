import { createHash } from 'node:crypto';
import { MAX_ATTRIBUTE_DEPTH } from '../ingest/item-schemas';
import type { OtlpAnyValue, OtlpKeyValue } from './otlp-messages';

/** A record this service cannot take; the request goes on without it (OTLP partial success). */
export class RecordRejection extends Error {}

/**
 * An OTLP value as a JSON value: 64-bit integers become numbers when they fit exactly (else
 * their decimal string), bytes become base64, key-value lists become objects.
 */
export function anyValue(v: OtlpAnyValue | null | undefined, depth = 1): unknown {
  if (!v?.value) return null;
  if (depth > MAX_ATTRIBUTE_DEPTH)
    throw new RecordRejection(`values nest more than ${MAX_ATTRIBUTE_DEPTH} levels deep`);
  switch (v.value) {
    case 'stringValue':
      return v.stringValue ?? '';
    case 'boolValue':
      return v.boolValue ?? false;
    case 'intValue': {
      const n = Number(v.intValue);
      return Number.isSafeInteger(n) ? n : (v.intValue ?? '0');
    }
    case 'doubleValue': {
      const d = v.doubleValue ?? 0;
      // JSON has no NaN or infinity; the text keeps what was sent.
      return Number.isFinite(d) ? d : String(d);
    }
    case 'bytesValue':
      return v.bytesValue ?? '';
    case 'arrayValue':
      return (v.arrayValue?.values ?? []).map((x) => anyValue(x, depth + 1));
    case 'kvlistValue':
      return attributes(v.kvlistValue?.values ?? [], depth + 1);
  }
}

/**
 * Attributes keep OTel's own keys: `http.request.method` stays one key (a log filter's path is
 * `/http.request.method`), not nested objects. A key sent twice keeps its last value.
 */
export function attributes(list: OtlpKeyValue[], depth = 1): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list) {
    // Assigning "__proto__" would change the object's prototype instead of adding a key.
    if (kv.key === '__proto__')
      throw new RecordRejection('the attribute key "__proto__" is not accepted');
    out[kv.key] = anyValue(kv.value, depth);
  }
  return out;
}

/** The first string value of `keys` among the attributes, trimmed; null when none is set. */
export function stringAttribute(list: OtlpKeyValue[], ...keys: string[]): string | null {
  for (const key of keys) {
    const v = list.find((kv) => kv.key === key)?.value;
    if (v?.value === 'stringValue' && v.stringValue?.trim()) return v.stringValue.trim();
  }
  return null;
}

/** base64 (protobufjs's plain form of bytes) to lowercase hex; '' stays ''. */
const hexOf = (base64: string): string => Buffer.from(base64, 'base64').toString('hex');

/** A trace or span id: exactly `bytes` long and not all zeros (W3C calls that invalid), or null. */
export function idHex(base64: string, bytes: 16 | 8, field: string): string | null {
  const hex = hexOf(base64);
  if (hex === '') return null;
  if (hex.length !== bytes * 2)
    throw new RecordRejection(
      `${field} must be ${String(bytes)} bytes, not ${String(hex.length / 2)}`,
    );
  return /^0+$/.test(hex) ? null : hex;
}

const NS_PER_MS = 1_000_000n;

/**
 * A fixed64 time as OTLP means it, unsigned: protobufjs hands a value past 2^63 back as a
 * negative number.
 */
export function nanosOf(unixNano: string): bigint {
  const ns = BigInt(unixNano || '0');
  return ns < 0n ? ns + 2n ** 64n : ns;
}

/** Nanoseconds since the epoch (decimal text) to milliseconds; null for 0 (OTLP: unset). */
export function msOf(unixNano: string): number | null {
  const ns = nanosOf(unixNano);
  if (ns === 0n) return null;
  return Number(ns / NS_PER_MS) + Number(ns % NS_PER_MS) / 1e6;
}

export const isoOf = (ms: number): string => new Date(Math.floor(ms)).toISOString();

/**
 * Lookout items carry ids so a re-sent item is stored once; OTLP records have none. Each id is
 * a hash of what identifies the record (a span by its trace and span ids, a log or point by its
 * content), so an exporter's retry of the same request finds the same ids. Identical records
 * in one request get distinct ids by their order, as they were sent twice.
 */
export class IdMinter {
  private readonly seen = new Map<string, number>();

  mint(...parts: string[]): string {
    const key = parts.join('\u0000');
    const n = this.seen.get(key) ?? 0;
    this.seen.set(key, n + 1);
    const hex = createHash('sha256')
      .update(n === 0 ? key : `${key}\u0000${String(n)}`)
      .digest('hex');
    // Shaped as a UUID (version 8: custom), which the item schemas require.
    const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}
