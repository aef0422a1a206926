import { createRequire } from 'node:module';
import type { Root } from 'protobufjs';
import type { OtlpRequestOf, OtlpSignal } from './otlp-messages';
import { wellFormedValue } from '../ingest/well-formed';

/**
 * The official OTLP message types, compiled from opentelemetry-proto by protobufjs and shipped
 * in `@opentelemetry/otlp-transformer` (0.214, the last release that ships the generated
 * decoders; later releases only serialize). Decoding is theirs; this file only picks the
 * request and response types of each signal.
 */
type GeneratedType = {
  decode(bytes: Uint8Array): object;
  fromObject(object: unknown): object;
  toObject(message: object, options: Record<string, unknown>): unknown;
  encode(message: object): { finish(): Uint8Array };
};
type CollectorPackage = Record<string, GeneratedType>;
type GeneratedRoot = {
  opentelemetry: {
    proto: { collector: Record<'trace' | 'logs' | 'metrics', { v1: CollectorPackage }> };
  };
};

const require = createRequire(import.meta.url);
// CommonJS without TypeScript types (its .d.ts says only `Root`): typed here, at the boundary.
const generated =
  require('@opentelemetry/otlp-transformer/build/src/generated/root.js') as GeneratedRoot;
const protobuf = require('protobufjs') as { Root: { fromJSON(json: unknown): Root } };

const NAMES: Record<OtlpSignal, { request: string; response: string; partial: string }> = {
  traces: {
    request: 'ExportTraceServiceRequest',
    response: 'ExportTraceServiceResponse',
    partial: 'rejectedSpans',
  },
  logs: {
    request: 'ExportLogsServiceRequest',
    response: 'ExportLogsServiceResponse',
    partial: 'rejectedLogRecords',
  },
  metrics: {
    request: 'ExportMetricsServiceRequest',
    response: 'ExportMetricsServiceResponse',
    partial: 'rejectedDataPoints',
  },
};

function typeOf(signal: OtlpSignal, name: string): GeneratedType {
  const pkg = signal === 'traces' ? 'trace' : signal;
  const type = generated.opentelemetry.proto.collector[pkg].v1[name];
  if (!type) throw new Error(`opentelemetry-proto has no ${name}`);
  return type;
}

/** One plain form for both encodings: 64-bit integers as strings, bytes as base64. */
const PLAIN = {
  longs: String,
  enums: Number,
  bytes: String,
  defaults: true,
  arrays: true,
  oneofs: true,
};

/** Raised when a body is not the signal's export request; the message says where it broke. */
export class OtlpDecodeError extends Error {}

export function decodeProtobuf<S extends OtlpSignal>(
  signal: S,
  body: Uint8Array,
): OtlpRequestOf[S] {
  const type = typeOf(signal, NAMES[signal].request);
  let message: object;
  try {
    message = type.decode(body);
  } catch (e) {
    throw new OtlpDecodeError(
      `the body is not a protobuf ${NAMES[signal].request}: ${(e as Error).message}`,
    );
  }
  return wellFormedValue(type.toObject(message, PLAIN)) as OtlpRequestOf[S];
}

/** Fields OTLP/JSON sends as hex (protobuf JSON would use base64), by the message holding them. */
const HEX_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

/**
 * OTLP/JSON differs from protobuf's JSON mapping in one way that matters: trace and span ids
 * are hex, not base64. They are turned into bytes before protobufjs reads the object; an id
 * that is not hex makes the body unreadable, and the error names where it is.
 */
function hexIdsToBytes(value: unknown, path: string, depth = 0): unknown {
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value))
    return value.map((v, i) => hexIdsToBytes(v, `${path}[${i}]`, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // No OTLP field has this name (unknown fields are ignored), and assigning it would give
    // `out` a prototype whose fields protobufjs would then read as if they had been sent.
    if (k === '__proto__') continue;
    const at = path ? `${path}.${k}` : k;
    if (HEX_FIELDS.has(k) && typeof v === 'string') {
      if (!/^(?:[0-9a-fA-F]{2})*$/.test(v))
        throw new OtlpDecodeError(
          `${at} must be hex (OTLP/JSON sends ids as hex), not "${v.slice(0, 40)}"`,
        );
      out[k] = Buffer.from(v, 'hex');
    } else out[k] = hexIdsToBytes(v, at, depth + 1);
  }
  return out;
}

export function decodeJson<S extends OtlpSignal>(signal: S, text: string): OtlpRequestOf[S] {
  const name = NAMES[signal].request;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new OtlpDecodeError(`the body is not JSON (an OTLP/JSON ${name} was expected)`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new OtlpDecodeError(`the body must be a JSON object (an OTLP/JSON ${name})`);
  const type = typeOf(signal, name);
  const withBytes = hexIdsToBytes(parsed, '');
  let message: object;
  try {
    message = type.fromObject(withBytes);
  } catch (e) {
    // protobufjs names the field: ".opentelemetry.proto…ExportTraceServiceRequest.resourceSpans: array expected".
    const why = (e as Error).message.replace(/^\.opentelemetry\.proto\.(?:[a-z0-9]+\.)+/, '');
    throw new OtlpDecodeError(`the body is not an OTLP/JSON ${name}: ${why}`);
  }
  // OTLP/JSON can carry lone surrogates (`\ud800`): U+FFFD, as for every ingested string.
  return wellFormedValue(type.toObject(message, PLAIN)) as OtlpRequestOf[S];
}

export type PartialSuccess = { rejected: number; errorMessage: string } | null;

/** The export response: empty on full success, `partial_success` when records were rejected. */
export function encodeResponse(
  signal: OtlpSignal,
  partial: PartialSuccess,
  as: 'protobuf' | 'json',
): Uint8Array | Record<string, unknown> {
  const names = NAMES[signal];
  const body = partial
    ? { partialSuccess: { [names.partial]: partial.rejected, errorMessage: partial.errorMessage } }
    : {};
  if (as === 'json') return body;
  const type = typeOf(signal, names.response);
  return type.encode(type.fromObject(body)).finish();
}

/**
 * `google.rpc.Status`, the body OTLP/HTTP gives every failure, with one `google.rpc.ErrorInfo`
 * detail carrying Lookout's own error code and what to do next. opentelemetry-proto does not
 * ship these types; they are declared here and encoded by protobufjs.
 */
const rpc = protobuf.Root.fromJSON({
  nested: {
    google: {
      nested: {
        protobuf: {
          nested: {
            Any: {
              fields: { type_url: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } },
            },
          },
        },
        rpc: {
          nested: {
            Status: {
              fields: {
                code: { type: 'int32', id: 1 },
                message: { type: 'string', id: 2 },
                details: { rule: 'repeated', type: 'google.protobuf.Any', id: 3 },
              },
            },
            ErrorInfo: {
              fields: {
                reason: { type: 'string', id: 1 },
                domain: { type: 'string', id: 2 },
                metadata: { keyType: 'string', type: 'string', id: 3 },
              },
            },
          },
        },
      },
    },
  },
});
const StatusType = rpc.lookupType('google.rpc.Status');
const ErrorInfoType = rpc.lookupType('google.rpc.ErrorInfo');
const ERROR_INFO_URL = 'type.googleapis.com/google.rpc.ErrorInfo';

export type OtlpStatus = {
  /** google.rpc.Code: 3 invalid argument, 8 resource exhausted, 14 unavailable, … */
  code: number;
  message: string;
  reason: string;
  metadata: Record<string, string>;
};

export function encodeStatus(
  status: OtlpStatus,
  as: 'protobuf' | 'json',
): Uint8Array | Record<string, unknown> {
  const info = { reason: status.reason, domain: 'lookout', metadata: status.metadata };
  if (as === 'json')
    return {
      code: status.code,
      message: status.message,
      details: [{ '@type': ERROR_INFO_URL, ...info }],
    };
  const detail = ErrorInfoType.encode(ErrorInfoType.fromObject(info)).finish();
  return StatusType.encode(
    StatusType.fromObject({
      code: status.code,
      message: status.message,
      details: [{ type_url: ERROR_INFO_URL, value: detail }],
    }),
  ).finish();
}

/** For tests and tools: decodes a protobuf `google.rpc.Status` with its ErrorInfo detail. */
export function decodeStatus(bytes: Uint8Array): OtlpStatus {
  const s = StatusType.toObject(StatusType.decode(bytes), { defaults: true }) as {
    code: number;
    message: string;
    details: { type_url: string; value: Uint8Array }[];
  };
  const detail = s.details.find((d) => d.type_url === ERROR_INFO_URL);
  const info = detail
    ? (ErrorInfoType.toObject(ErrorInfoType.decode(detail.value), { defaults: true }) as {
        reason: string;
        metadata: Record<string, string>;
      })
    : { reason: '', metadata: {} };
  return { code: s.code, message: s.message, reason: info.reason, metadata: info.metadata };
}

/** For tests and tools: encodes a request given in the plain (JSON-like, base64 bytes) form. */
export function encodeRequest(signal: OtlpSignal, plain: unknown): Uint8Array {
  const type = typeOf(signal, NAMES[signal].request);
  return type.encode(type.fromObject(plain)).finish();
}

/** For tests: decodes a protobuf export response into the plain form. */
export function decodeResponse(signal: OtlpSignal, bytes: Uint8Array): Record<string, unknown> {
  const type = typeOf(signal, NAMES[signal].response);
  return type.toObject(type.decode(bytes), { longs: Number, defaults: false }) as Record<
    string,
    unknown
  >;
}
