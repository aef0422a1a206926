import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { decodeResponse, decodeStatus, encodeRequest, type OtlpStatus } from '../otlp/otlp-codec';
import type { OtlpSignal } from '../otlp/otlp-messages';

/**
 * OTLP/HTTP requests as an exporter sends them, for the OTLP contract tests. Requests are
 * built in the OTLP/JSON form (hex ids, camelCase, 64-bit integers as decimal strings, enums
 * as integers) and sent either as that JSON or as protobuf (the same request encoded by the
 * official generated types).
 */

export type OtlpJson = Record<string, unknown>;
export type Encoding = 'protobuf' | 'json';

export const PROTOBUF = 'application/x-protobuf';
export const otlpPath = (signal: OtlpSignal) => `/otlp/v1/${signal}`;

export const hexId = (bytes: 16 | 8) => randomBytes(bytes).toString('hex');

/** Nanoseconds since the epoch, as OTLP's decimal text; `ns` adds sub-millisecond time. */
export const nanos = (iso: string, ns = 0): string =>
  String(BigInt(Date.parse(iso)) * 1_000_000n + BigInt(ns));

export type AttrValue = string | number | boolean;

/** An OTLP KeyValue list; integers become intValue (text), other numbers doubleValue. */
export function kv(attrs: Record<string, AttrValue>): OtlpJson[] {
  return Object.entries(attrs).map(([key, v]) => ({
    key,
    value:
      typeof v === 'string'
        ? { stringValue: v }
        : typeof v === 'boolean'
          ? { boolValue: v }
          : Number.isInteger(v)
            ? { intValue: String(v) }
            : { doubleValue: v },
  }));
}

export const RESOURCE = {
  'service.name': 'checkout-api',
  'service.version': 'shop@2.0.0',
  'deployment.environment.name': 'production',
  'telemetry.sdk.name': 'opentelemetry',
  'telemetry.sdk.language': 'nodejs',
  'telemetry.sdk.version': '2.0.1',
};

export const resource = (attrs: Record<string, AttrValue> = RESOURCE) => ({
  attributes: kv(attrs),
});

export const scope = (name = 'checkout') => ({ name, version: '1.0.0' });

export function traces(spans: OtlpJson[], res: Record<string, AttrValue> = RESOURCE): OtlpJson {
  return { resourceSpans: [{ resource: resource(res), scopeSpans: [{ scope: scope(), spans }] }] };
}

export function logs(records: OtlpJson[], res: Record<string, AttrValue> = RESOURCE): OtlpJson {
  return {
    resourceLogs: [
      { resource: resource(res), scopeLogs: [{ scope: scope(), logRecords: records }] },
    ],
  };
}

export function metrics(list: OtlpJson[], res: Record<string, AttrValue> = RESOURCE): OtlpJson {
  return {
    resourceMetrics: [
      { resource: resource(res), scopeMetrics: [{ scope: scope(), metrics: list }] },
    ],
  };
}

export const span = (o: OtlpJson = {}): OtlpJson => ({
  traceId: hexId(16),
  spanId: hexId(8),
  name: 'GET /cart',
  kind: 2,
  startTimeUnixNano: nanos('2025-03-03T08:00:00.000Z'),
  endTimeUnixNano: nanos('2025-03-03T08:00:00.012Z', 512),
  attributes: kv({ 'http.request.method': 'GET' }),
  status: { code: 1 },
  ...o,
});

export const logRecord = (o: OtlpJson = {}): OtlpJson => ({
  timeUnixNano: nanos('2025-03-03T08:00:00.000Z'),
  severityNumber: 9,
  severityText: 'INFO',
  body: { stringValue: 'cart loaded' },
  attributes: kv({ 'http.request.method': 'GET' }),
  ...o,
});

export const gauge = (name: string, value: number, o: OtlpJson = {}): OtlpJson => ({
  name,
  unit: 'ms',
  gauge: {
    dataPoints: [
      { timeUnixNano: nanos('2025-03-03T08:00:00.000Z'), asDouble: value, attributes: [], ...o },
    ],
  },
});

const HEX_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

/** The OTLP/JSON form as protobufjs's plain form: ids as base64 bytes instead of hex. */
export function toPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlain);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      HEX_FIELDS.has(k) && typeof v === 'string'
        ? Buffer.from(v, 'hex').toString('base64')
        : toPlain(v);
  }
  return out;
}

/** The request as sent on the wire in one encoding. */
export function encode(signal: OtlpSignal, request: OtlpJson, as: Encoding): Buffer {
  return as === 'json'
    ? Buffer.from(JSON.stringify(request))
    : Buffer.from(encodeRequest(signal, toPlain(request)));
}

export type OtlpAnswer = {
  status: number;
  headers: Headers;
  contentType: string;
  /** The decoded response: an export response on 200, a google.rpc.Status otherwise. */
  body: Record<string, unknown>;
  /** The failure as a Status, whichever encoding it came in (null on 200). */
  failure: OtlpStatus | null;
};

export type SendOptions = {
  as?: Encoding;
  gzip?: boolean;
  /** Sent instead of the encoded request. */
  raw?: Buffer;
  contentType?: string;
  contentEncoding?: string;
  /** Authorization header as sent; undefined sends none. */
  token?: string;
  /** A connection of its own, closed after (for a request refused before its body is read). */
  ownConnection?: boolean;
};

function decodeAnswer(
  signal: OtlpSignal,
  status: number,
  headers: Headers,
  bytes: Buffer,
): OtlpAnswer {
  const contentType = headers.get('content-type') ?? '';
  const json = contentType.startsWith('application/json');
  if (!json && !contentType.startsWith(PROTOBUF))
    throw new Error(`unexpected content type ${contentType}: ${bytes.toString('utf8')}`);
  let body: Record<string, unknown>;
  let failure: OtlpStatus | null = null;
  if (json) {
    body = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    if (status !== 200) {
      const detail = (body.details as Record<string, unknown>[] | undefined)?.[0] ?? {};
      failure = {
        code: body.code as number,
        message: body.message as string,
        reason: detail.reason as string,
        metadata: detail.metadata as Record<string, string>,
      };
    }
  } else if (status === 200) body = decodeResponse(signal, bytes);
  else {
    failure = decodeStatus(bytes);
    body = failure;
  }
  return { status, headers, contentType, body, failure };
}

/** Sends an OTLP export request the way an exporter does and decodes the answer. */
export async function sendOtlp(
  baseUrl: string,
  signal: OtlpSignal,
  request: OtlpJson | null,
  opts: SendOptions = {},
): Promise<OtlpAnswer> {
  const as = opts.as ?? 'protobuf';
  let payload = opts.raw ?? encode(signal, request ?? {}, as);
  if (opts.gzip) payload = gzipSync(payload);
  const headers: Record<string, string> = {
    'content-type': opts.contentType ?? (as === 'json' ? 'application/json' : PROTOBUF),
  };
  const encoding = opts.contentEncoding ?? (opts.gzip ? 'gzip' : undefined);
  if (encoding) headers['content-encoding'] = encoding;
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  if (opts.ownConnection)
    return onOwnConnection(`${baseUrl}${otlpPath(signal)}`, signal, headers, payload);
  const res = await fetch(`${baseUrl}${otlpPath(signal)}`, {
    method: 'POST',
    headers,
    body: new Uint8Array(payload),
  });
  return decodeAnswer(signal, res.status, res.headers, Buffer.from(await res.arrayBuffer()));
}

function onOwnConnection(
  url: string,
  signal: OtlpSignal,
  headers: Record<string, string>,
  payload: Buffer,
): Promise<OtlpAnswer> {
  const all = { ...headers, 'content-length': String(payload.length), connection: 'close' };
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(url, { method: 'POST', headers: all, agent: false }, (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        req.destroy();
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers))
          for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) h.append(k, one);
        try {
          resolve(decodeAnswer(signal, res.statusCode ?? 0, h, Buffer.concat(parts)));
        } catch (e) {
          reject(e as Error);
        }
      });
    });
    // Writing the rest of a body the service refused may fail once it has answered.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    req.end(payload);
  });
}
