import { SEVERITY_INPUTS } from '../domain/severity';
import { SPAN_ID, TRACE_ID } from '../domain/trace-ids';
import type { NativeEnvelopeOutput } from './native-envelope-schema';
import { MAX_ATTRIBUTE_DEPTH, nestsDeeperThan, Timestamp } from './item-schemas';

type Envelope = NativeEnvelopeOutput;
type Log = NonNullable<Envelope['logs']>[number];

const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** The timestamp schema's own pattern, so both checks accept exactly the same texts. */
const TIMESTAMP = (Timestamp._zod.def as { pattern?: RegExp }).pattern;
const SEVERITIES: ReadonlySet<string> = new Set(SEVERITY_INPUTS);
const HEAD_KEYS: ReadonlySet<string> = new Set([
  'project_id',
  'sdk',
  'release',
  'environment',
  'service_name',
  'logs',
]);
const LOG_KEYS: ReadonlySet<string> = new Set([
  'id',
  'occurred_at',
  'severity',
  'level',
  'message',
  'source',
  'attributes',
  'trace_id',
  'span_id',
  'release',
  'environment',
  'service_name',
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether `s` fits `max` as the schemas count (code points): a text no longer than `max`
 * UTF-16 units always does; a longer one is left to the schema.
 */
const text = (v: unknown, min: number, max: number): v is string =>
  typeof v === 'string' && v.length >= min && v.length <= max;

/** ContextValue: at most 200 characters, not blank. */
const contextValue = (v: unknown) => text(v, 0, 200) && v.trim().length > 0;
const optional = (v: unknown, check: (v: unknown) => boolean) => v === undefined || check(v);
const nullable = (v: unknown, re: RegExp) =>
  v === undefined || v === null || (typeof v === 'string' && re.test(v));
const severity = (v: unknown) => v === undefined || (typeof v === 'string' && SEVERITIES.has(v));

function quickLog(raw: unknown): Log | null {
  if (!isObject(raw)) return null;
  for (const k in raw) if (!LOG_KEYS.has(k)) return null;
  const { id, occurred_at, message, attributes } = raw;
  if (typeof id !== 'string' || !UUID_RE.test(id)) return null;
  if (typeof occurred_at !== 'string' || !TIMESTAMP?.test(occurred_at)) return null;
  if (!text(message, 0, 1048576)) return null;
  if (!severity(raw.severity) || !severity(raw.level)) return null;
  if (!optional(raw.source, (v) => text(v, 1, 200))) return null;
  // An own `__proto__` key (the JSON body check refuses it anyway) is copied differently by
  // the schema's record: left to the schema.
  if (
    attributes !== undefined &&
    (!isObject(attributes) ||
      Object.hasOwn(attributes, '__proto__') ||
      nestsDeeperThan(attributes, MAX_ATTRIBUTE_DEPTH))
  )
    return null;
  if (!nullable(raw.trace_id, TRACE_ID) || !nullable(raw.span_id, SPAN_ID)) return null;
  if (
    !optional(raw.release, contextValue) ||
    !optional(raw.environment, contextValue) ||
    !optional(raw.service_name, contextValue)
  )
    return null;
  // As the schema outputs it: the id in lower case, only the fields sent.
  return { ...(raw as Log), id: id.toLowerCase() };
}

/**
 * The native envelope of the common case (logs, envelope defaults, nothing unusual) checked
 * by hand: exactly what `NativeEnvelope.safeParse` outputs for it, or null whenever anything
 * is outside that case, and the schema then checks the envelope (and names any problem, as
 * it always does). A generic schema walk cost about as much as the rest of the route's work
 * on a batch of 1,000 logs.
 */
export function quickNativeEnvelope(raw: unknown): Envelope | null {
  if (!isObject(raw)) return null;
  for (const k in raw) if (!HEAD_KEYS.has(k)) return null;
  const { project_id, sdk, logs } = raw;
  if (project_id !== undefined && typeof project_id !== 'string') return null;
  if (
    !optional(raw.release, contextValue) ||
    !optional(raw.environment, contextValue) ||
    !optional(raw.service_name, contextValue)
  )
    return null;
  let sdkOut: Envelope['sdk'];
  if (sdk !== undefined) {
    if (!isObject(sdk) || Object.keys(sdk).length !== 2) return null;
    if (!text(sdk.name, 1, 100) || !text(sdk.version, 1, 50)) return null;
    sdkOut = { name: sdk.name, version: sdk.version };
  }
  if (!Array.isArray(logs)) return null;
  const out: Log[] = new Array<Log>(logs.length);
  for (let i = 0; i < logs.length; i++) {
    const log = quickLog(logs[i]);
    if (log === null) return null;
    out[i] = log;
  }
  return {
    ...(raw as Envelope),
    ...(sdkOut === undefined ? {} : { sdk: sdkOut }),
    logs: out,
  };
}
