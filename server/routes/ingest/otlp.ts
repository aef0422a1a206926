import { gunzipSync } from 'node:zlib';
import { z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { authenticateIngestKey } from '../../http/ingest-auth';
import { rateLimited } from '../../http/rate-limit';
import { acceptBatch } from '../../ingest/accept-batch';
import { MAX_ITEMS } from '../../ingest/batch-schemas';
import { mapLogs } from '../../otlp/map-logs';
import { mapMetrics } from '../../otlp/map-metrics';
import { mapTraces } from '../../otlp/map-traces';
import { OtlpAdmission } from '../../otlp/otlp-admission';
import {
  decodeJson,
  decodeProtobuf,
  encodeResponse,
  encodeStatus,
  OtlpDecodeError,
} from '../../otlp/otlp-codec';
import { otlpFailure, storeUnavailable } from '../../otlp/otlp-error';
import { OTLP_SIGNALS, type OtlpRequestOf, type OtlpSignal } from '../../otlp/otlp-messages';

/** As sent (compressed or not), as the other ingest routes. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** After gzip: OTLP/JSON is verbose, but a small body inflating past this is a bomb. */
const MAX_INFLATED_BYTES = 32 * 1024 * 1024;

type Encoding = 'protobuf' | 'json';
const PROTOBUF = 'application/x-protobuf';

const bad = (status: 400 | 413 | 415, code: string, error: string, next: string) =>
  new ApiError({
    status,
    code,
    error,
    next,
    nextAction: { code: 'fix_request', target: 'request' },
  });

function encodingOf(contentType: string | undefined): Encoding {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === PROTOBUF || type === 'application/protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  throw bad(
    415,
    'unsupported_media_type',
    `an OTLP body must be ${PROTOBUF} or application/json, not ${type || 'unnamed'}`,
    'Send OTLP/HTTP with Content-Type application/x-protobuf or application/json.',
  );
}

function inflate(body: Buffer, contentEncoding: string | undefined): Buffer {
  const coding = (contentEncoding ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return body;
  if (coding !== 'gzip')
    throw bad(
      415,
      'unsupported_media_type',
      `Content-Encoding ${coding} is not supported`,
      'Send the body uncompressed or with Content-Encoding: gzip.',
    );
  try {
    return gunzipSync(body, { maxOutputLength: MAX_INFLATED_BYTES });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw bad(
        413,
        'body_too_large',
        `the body inflates to more than ${MAX_INFLATED_BYTES} bytes`,
        'Send smaller batches (lower the exporter batch size).',
      );
    throw bad(
      400,
      'invalid_otlp_body',
      'the body is not valid gzip',
      'Compress the body with gzip or drop Content-Encoding.',
    );
  }
}

function decode<S extends OtlpSignal>(signal: S, body: Buffer, as: Encoding): OtlpRequestOf[S] {
  try {
    return as === 'protobuf'
      ? decodeProtobuf(signal, body)
      : decodeJson(signal, body.toString('utf8'));
  } catch (e) {
    if (e instanceof OtlpDecodeError)
      throw bad(
        400,
        'invalid_otlp_body',
        e.message,
        'Send an OTLP export request; nothing was stored.',
      );
    // protobufjs recursing through a deeply nested value can run out of stack.
    if (e instanceof RangeError)
      throw bad(
        400,
        'invalid_otlp_body',
        'the body nests values too deeply',
        'Send flatter values.',
      );
    throw e;
  }
}

function mapRequest(signal: OtlpSignal, request: unknown, admission: OtlpAdmission, now: number) {
  if (signal === 'traces') mapTraces(request as OtlpRequestOf['traces'], admission);
  else if (signal === 'logs') mapLogs(request as OtlpRequestOf['logs'], admission, now);
  else mapMetrics(request as OtlpRequestOf['metrics'], admission);
}

function send(
  c: Context<AppEnv>,
  status: number,
  body: Uint8Array | Record<string, unknown>,
  as: Encoding,
) {
  if (as === 'json') return c.json(body, status as 200);
  return c.body(body as Uint8Array<ArrayBuffer>, status as 200, { 'Content-Type': PROTOBUF });
}

/**
 * OTLP/HTTP ingest (issue 13): `/otlp/v1/traces`, `/otlp/v1/logs`, `/otlp/v1/metrics`, so an
 * OpenTelemetry SDK sends here with `OTEL_EXPORTER_OTLP_ENDPOINT=<base>/otlp` and an ingest key
 * as `Authorization: Bearer`. Records are mapped to Lookout's items and stored through the same
 * accept path as the other ingest routes (usage, limits, live feed); answers follow OTLP.
 */
export function registerOtlpRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw bad(
        413,
        'body_too_large',
        `the body is larger than ${MAX_BODY_BYTES} bytes`,
        'Send smaller batches.',
      );
    },
  });

  for (const signal of OTLP_SIGNALS) {
    registerDocument(app, signal);
    app.post(`/otlp/v1/${signal}`, async (c) => {
      // Errors before the content type is known are answered as JSON (readable by anyone).
      let as: Encoding = 'json';
      let leave: (() => void) | undefined;
      try {
        as = encodingOf(c.req.header('content-type'));
        const key = await authenticateIngestKey(deps, c, 'native');
        const taken = await deps.ingestLimiter.take(key.keyId);
        if (!taken.ok) throw rateLimited(taken.retryAfterSeconds);
        // A group being written meanwhile may wait for this request's batch.
        leave = deps.store.ingest.arriving?.(key.projectId);
        let raw: Buffer | null = null;
        await limit(c, async () => {
          raw = Buffer.from(await c.req.arrayBuffer());
        });
        if (raw === null) throw new Error('body not read');
        const body = inflate(raw, c.req.header('content-encoding'));
        const request = decode(signal, body, as);
        const admission = new OtlpAdmission(key.projectId);
        mapRequest(signal, request, admission, deps.now());
        const chunks = admission.chunks(MAX_ITEMS);
        for (const [n, chunk] of chunks.entries()) {
          try {
            await acceptBatch(deps, chunk.batch);
          } catch (e) {
            // Part of the request is stored already: a 429 would make the exporter resend
            // what was stored and say nothing of what was not. OTLP's partial success says it,
            // and the exporter does not resend over an allowance that lasts until the reset.
            if (n > 0 && e instanceof ApiError && e.code === 'usage_limit_exceeded') {
              const left = chunks.slice(n).reduce((sum, c) => sum + c.records, 0);
              admission.notStored(left, `${e.message}; ${e.next}`);
              break;
            }
            if (e instanceof ApiError) throw e;
            deps.log.error('otlp ingest could not store a batch', { name: (e as Error).name });
            throw storeUnavailable();
          }
        }
        return send(c, 200, encodeResponse(signal, admission.partialSuccess(), as), as);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        const failure = otlpFailure(e, deps.now());
        c.set('errorCode', e.code);
        for (const [k, v] of Object.entries(failure.headers)) c.header(k, v);
        return send(c, failure.status, encodeStatus(failure.body, as), as);
      } finally {
        leave?.();
      }
    });
  }
}

const Status = z
  .object({
    code: z.number().int().openapi({ description: 'google.rpc.Code' }),
    message: z.string(),
    details: z.array(
      z.object({
        '@type': z.literal('type.googleapis.com/google.rpc.ErrorInfo'),
        reason: z.string().openapi({ description: "Lookout's error code." }),
        domain: z.literal('lookout'),
        metadata: z.record(z.string(), z.string()).openapi({
          description: '`error`, `next` and `next_action` (JSON) of the Lookout error envelope.',
        }),
      }),
    ),
  })
  .openapi('OtlpStatus', {
    description:
      'google.rpc.Status, as OTLP/HTTP answers failures (protobuf-encoded when the request was protobuf).',
  });

const PARTIAL_FIELD: Record<OtlpSignal, string> = {
  traces: 'rejectedSpans',
  logs: 'rejectedLogRecords',
  metrics: 'rejectedDataPoints',
};

function registerDocument(app: OpenAPIHono<AppEnv>, signal: OtlpSignal): void {
  const name = signal.charAt(0).toUpperCase() + signal.slice(1);
  const response = z
    .object({
      partialSuccess: z
        .object({
          [PARTIAL_FIELD[signal]]: z.number().int(),
          errorMessage: z.string(),
        })
        .optional(),
    })
    .openapi(`Otlp${name}Response`);
  const failure = (description: string) => ({
    description,
    content: {
      'application/json': { schema: Status },
      [PROTOBUF]: { schema: { type: 'string' as const, format: 'binary' } },
    },
  });
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: `/otlp/v1/${signal}`,
    tags: ['ingestion'],
    summary: `OTLP/HTTP ${signal}`,
    description: `An OpenTelemetry export request (${signal}) as protobuf or OTLP/JSON, optionally gzip-compressed (at most ${MAX_BODY_BYTES} bytes as sent). Ingest bearer only. Records Lookout cannot take are counted in \`partialSuccess\`; the rest are stored. Failures answer a google.rpc.Status; \`429\` and \`503\` carry \`Retry-After\`.`,
    security: [{ ingestBearer: [] }],
    request: {
      body: {
        required: true,
        content: {
          [PROTOBUF]: { schema: { type: 'string', format: 'binary' } },
          'application/json': {
            schema: z.record(z.string(), z.unknown()).openapi(`Otlp${name}Request`, {
              description: `An OTLP/JSON Export${name === 'Traces' ? 'Trace' : name}ServiceRequest.`,
            }),
          },
        },
      },
    },
    responses: {
      200: {
        description: 'Stored, except the records counted in partialSuccess.',
        content: {
          'application/json': { schema: response },
          [PROTOBUF]: { schema: { type: 'string', format: 'binary' } },
        },
      },
      400: failure('The body is not an export request of this signal; nothing was stored.'),
      401: failure('No ingest key, or one that is revoked or expired.'),
      413: failure('The body is too large, as sent or inflated.'),
      415: failure('Not protobuf or JSON, or an unsupported Content-Encoding.'),
      429: failure('Rate limited or over the plan allowance; retry after Retry-After.'),
      503: failure('The store could not take the request; retry after Retry-After.'),
    },
  });
}
