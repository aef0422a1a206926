import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OtlpSignal } from '../../otlp/otlp-messages';
import { call } from '../../test-support/api-client';
import { newTicket, openFeed } from '../../test-support/live-feed';
import { storedRows, tableCounts, type Tenant } from '../../test-support/telemetry';
import {
  gauge,
  hexId,
  kv,
  logRecord,
  logs,
  metrics,
  nanos,
  sendOtlp,
  span,
  traces,
  type Encoding,
  type OtlpJson,
} from '../../test-support/otlp';
import {
  expectOtlpStatus,
  expectOtlpSuccess,
  otlpContractService,
  otlpReader,
  type OtlpReader,
} from '../../test-support/otlp-contract';

/**
 * OTLP/HTTP as an exporter uses it: both encodings, gzip, refused bodies, retries, large
 * requests and the live feed. Limits and accounting: otlp-limits.test.ts; mapping rules:
 * otlp-mapping*.test.ts.
 */

const { svc } = otlpContractService();

async function read<T>(token: string, path: string): Promise<T> {
  const res = await call(svc().baseUrl, 'GET', path, { token });
  expect(res.status, res.text).toBe(200);
  return res.body as T;
}

/** The stored records of a request in a form that does not depend on the project. */
const portable = (rows: Record<string, unknown>[]) =>
  rows.map(({ project_id: _p, next_action: _n, ...rest }) => rest);

/** 64-bit integer fields sent as JSON numbers instead of strings (OTLP/JSON allows both). */
function int64AsNumbers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(int64AsNumbers);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[k] =
      /UnixNano$|^intValue$|^asInt$|^count$/.test(k) && typeof v === 'string'
        ? Number(v)
        : int64AsNumbers(v);
  return out;
}

const signals: OtlpSignal[] = ['traces', 'logs', 'metrics'];

/** Every row count of the project, to show a refused request stored nothing. */
const counts = (t: Tenant) => tableCounts(svc(), t.projectId);
const reader = otlpReader;
const expectSuccess = expectOtlpSuccess;
const expectStatus = expectOtlpStatus;

describe('OTLP: both encodings', () => {
  /** One request of each signal, all fields an exporter fills. */
  function requests() {
    const traceId = hexId(16);
    const rootId = hexId(8);
    return {
      traceId,
      traces: traces([
        span({ traceId, spanId: rootId, name: 'GET /cart', kind: 2 }),
        span({
          traceId,
          spanId: hexId(8),
          parentSpanId: rootId,
          name: 'SELECT carts',
          kind: 3,
          attributes: kv({ 'db.system.name': 'postgresql', 'db.rows': 3 }),
          status: { code: 2, message: 'deadlock' },
          events: [
            {
              timeUnixNano: nanos('2025-03-03T08:00:00.004Z'),
              name: 'retry',
              attributes: kv({ attempt: 2 }),
            },
          ],
        }),
      ]),
      logs: logs([
        logRecord({ traceId, spanId: rootId, severityNumber: 17, severityText: 'ERROR' }),
        logRecord({
          body: { kvlistValue: { values: kv({ cart: 'c-1', items: 3 }) } },
          attributes: kv({ 'http.request.method': 'POST', 'http.response.status_code': 503 }),
        }),
      ]),
      metrics: metrics([
        gauge('process.memory.usage', 1.5e6, { attributes: kv({ 'host.name': 'web-1' }) }),
        {
          name: 'http.server.requests',
          unit: '{request}',
          sum: {
            aggregationTemporality: 2,
            isMonotonic: true,
            dataPoints: [
              {
                startTimeUnixNano: nanos('2025-03-03T07:00:00.000Z'),
                timeUnixNano: nanos('2025-03-03T08:00:00.000Z'),
                asInt: '42',
                attributes: [],
              },
            ],
          },
        },
      ]),
    };
  }

  async function storedOf(t: OtlpReader, traceId: string) {
    const p = `project_id=${t.projectId}`;
    const spans = await read<Record<string, unknown>[]>(
      t.token,
      `/api/telemetry/traces/${traceId}?${p}`,
    );
    const logRows = await read<Record<string, unknown>[]>(t.token, `/api/logs?${p}`);
    const samples = await read<Record<string, unknown>[]>(t.token, `/api/telemetry/metrics?${p}`);
    return {
      spans: portable(spans),
      logs: portable(logRows).sort((a, b) => String(a.message).localeCompare(String(b.message))),
      // A sample's own id is the store's; its event_id is the one minted from the point.
      metrics: portable(samples.map(({ id: _id, ...rest }) => rest)).sort((a, b) =>
        String(a.name).localeCompare(String(b.name)),
      ),
    };
  }

  it('the same request as protobuf, as OTLP/JSON with int64 strings and with int64 numbers stores the same records, each answered in its encoding', async () => {
    const req = requests();
    const variants: [Encoding, (r: OtlpJson) => OtlpJson][] = [
      ['protobuf', (r) => r],
      ['json', (r) => r],
      ['json', (r) => int64AsNumbers(r) as OtlpJson],
    ];
    const stored = [];
    for (const [as, form] of variants) {
      const t = await reader(svc());
      for (const signal of signals)
        expectSuccess(
          await sendOtlp(svc().baseUrl, signal, form(req[signal]), { as, token: t.ingestKey }),
          as,
        );
      stored.push(await storedOf(t, req.traceId));
    }
    const [proto, json, numbers] = stored;
    expect(proto?.spans).toHaveLength(2);
    expect(proto?.logs).toHaveLength(2);
    expect(proto?.metrics).toHaveLength(2);
    expect(json).toEqual(proto);
    expect(numbers).toEqual(proto);
  });

  it('enums may be sent by name in OTLP/JSON as well as by number', async () => {
    const t = await reader(svc());
    const traceId = hexId(16);
    const res = await sendOtlp(
      svc().baseUrl,
      'traces',
      traces([span({ traceId, kind: 'SPAN_KIND_CLIENT', status: { code: 'STATUS_CODE_ERROR' } })]),
      { as: 'json', token: t.ingestKey },
    );
    expectSuccess(res, 'json');
    const [stored] = await read<Record<string, unknown>[]>(
      t.token,
      `/api/telemetry/traces/${traceId}?project_id=${t.projectId}`,
    );
    expect(stored).toMatchObject({ kind: 'client', status: 'error' });
  });

  it('gzip is read in both encodings', async () => {
    for (const as of ['protobuf', 'json'] as const) {
      const t = await reader(svc());
      const traceId = hexId(16);
      const res = await sendOtlp(svc().baseUrl, 'traces', traces([span({ traceId })]), {
        as,
        gzip: true,
        token: t.ingestKey,
      });
      expectSuccess(res, as);
      const spans = await read<unknown[]>(
        t.token,
        `/api/telemetry/traces/${traceId}?project_id=${t.projectId}`,
      );
      expect(spans).toHaveLength(1);
    }
  });
});

describe('OTLP: refused bodies answer a google.rpc.Status and store nothing', () => {
  let t: OtlpReader;
  beforeAll(async () => {
    t = await reader(svc());
  });

  const cases: {
    name: string;
    signal: OtlpSignal;
    as: Encoding;
    raw: Buffer;
    contentEncoding?: string;
    status: number;
    reason: string;
    grpc: number;
    says: RegExp;
  }[] = [
    {
      name: 'not protobuf',
      signal: 'traces',
      as: 'protobuf',
      raw: Buffer.from('this is not a protobuf message, just text'),
      status: 400,
      reason: 'invalid_otlp_body',
      grpc: 3,
      says: /protobuf ExportTraceServiceRequest/,
    },
    {
      name: 'not JSON',
      signal: 'logs',
      as: 'json',
      raw: Buffer.from('{"resourceLogs": ['),
      status: 400,
      reason: 'invalid_otlp_body',
      grpc: 3,
      says: /not JSON/,
    },
    {
      name: 'JSON of the wrong shape',
      signal: 'traces',
      as: 'json',
      raw: Buffer.from('{"resourceSpans": 5}'),
      status: 400,
      reason: 'invalid_otlp_body',
      grpc: 3,
      says: /resourceSpans/,
    },
    {
      name: 'a JSON array',
      signal: 'metrics',
      as: 'json',
      raw: Buffer.from('[]'),
      status: 400,
      reason: 'invalid_otlp_body',
      grpc: 3,
      says: /JSON object/,
    },
    {
      name: 'a non-hex id in JSON',
      signal: 'traces',
      as: 'json',
      raw: Buffer.from(JSON.stringify(traces([span({ traceId: 'zz'.repeat(16) }), span()]))),
      status: 400,
      reason: 'invalid_otlp_body',
      grpc: 3,
      says: /resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.traceId must be hex/,
    },
    {
      name: 'gzip announced, not gzip sent (protobuf)',
      signal: 'logs',
      as: 'protobuf',
      raw: Buffer.from('plain bytes'),
      contentEncoding: 'gzip',
      status: 400,
      reason: 'invalid_otlp_body',
      grpc: 3,
      says: /gzip/,
    },
    {
      name: 'an unknown Content-Encoding',
      signal: 'logs',
      as: 'json',
      raw: gzipSync(Buffer.from(JSON.stringify(logs([logRecord()])))),
      contentEncoding: 'br',
      status: 415,
      reason: 'unsupported_media_type',
      grpc: 3,
      says: /Content-Encoding br/,
    },
    {
      name: 'a gzip bomb inflating past 32 MiB',
      signal: 'metrics',
      as: 'protobuf',
      raw: gzipSync(Buffer.alloc(33 * 1024 * 1024)),
      contentEncoding: 'gzip',
      status: 413,
      reason: 'body_too_large',
      grpc: 3,
      says: /inflates/,
    },
  ];

  for (const c of cases)
    it(`${c.name}: ${String(c.status)} ${c.reason}`, async () => {
      const before = await counts(t);
      const res = await sendOtlp(svc().baseUrl, c.signal, null, {
        as: c.as,
        raw: c.raw,
        contentEncoding: c.contentEncoding,
        token: t.ingestKey,
      });
      expectStatus(res, c.status, c.reason, c.as, c.grpc);
      expect(res.failure?.message).toMatch(c.says);
      expect(await counts(t)).toEqual(before);
    });

  it('a body over 10 MiB as sent: 413 body_too_large, nothing stored', async () => {
    const before = await counts(t);
    const res = await sendOtlp(svc().baseUrl, 'logs', null, {
      as: 'protobuf',
      raw: randomBytes(10 * 1024 * 1024 + 1),
      token: t.ingestKey,
      ownConnection: true,
    });
    expectStatus(res, 413, 'body_too_large', 'protobuf', 3);
    expect(await counts(t)).toEqual(before);
  });

  it('Content-Type text/plain: 415 unsupported_media_type as JSON', async () => {
    const before = await counts(t);
    const res = await sendOtlp(svc().baseUrl, 'traces', traces([span()]), {
      as: 'json',
      contentType: 'text/plain',
      token: t.ingestKey,
    });
    expectStatus(res, 415, 'unsupported_media_type', 'json', 3);
    expect(res.failure?.message).toMatch(/text\/plain/);
    expect(await counts(t)).toEqual(before);
  });

  it('Content-Type with parameters (application/json; charset=utf-8) is JSON', async () => {
    const res = await sendOtlp(svc().baseUrl, 'logs', logs([logRecord()]), {
      as: 'json',
      contentType: 'application/json; charset=utf-8',
      token: t.ingestKey,
    });
    expectSuccess(res, 'json');
  });
});

describe('OTLP: an exporter retry stores nothing twice', () => {
  let t: OtlpReader;
  beforeAll(async () => {
    t = await reader(svc());
  });

  it('each signal sent twice stores each record once', async () => {
    const requests: Record<OtlpSignal, OtlpJson> = {
      traces: traces([span(), span()]),
      logs: logs([logRecord({ body: { stringValue: 'first' } }), logRecord()]),
      metrics: metrics([gauge('queue.depth', 7), gauge('queue.age', 3)]),
    };
    for (const signal of signals)
      expectSuccess(
        await sendOtlp(svc().baseUrl, signal, requests[signal], { token: t.ingestKey }),
        'protobuf',
      );
    const once = await counts(t);
    expect([once.spans, once.logs, once.metric_samples]).toEqual([2, 2, 2]);
    // The retry may come in the other encoding: the records are the same.
    for (const signal of signals)
      expectSuccess(
        await sendOtlp(svc().baseUrl, signal, requests[signal], { as: 'json', token: t.ingestKey }),
        'json',
      );
    expect(await counts(t)).toEqual(once);
  });

  it('two identical log records in one request are two logs', async () => {
    const before = (await counts(t)).logs ?? 0;
    const record = logRecord({ body: { stringValue: `twice ${hexId(8)}` } });
    const request = logs([record, record]);
    expectSuccess(
      await sendOtlp(svc().baseUrl, 'logs', request, { token: t.ingestKey }),
      'protobuf',
    );
    expect((await counts(t)).logs).toBe(before + 2);
    // …and their retry still adds none.
    expectSuccess(
      await sendOtlp(svc().baseUrl, 'logs', request, { token: t.ingestKey }),
      'protobuf',
    );
    expect((await counts(t)).logs).toBe(before + 2);
  });

  it('a span sent again with another end is the span first stored', async () => {
    const first = span();
    expectSuccess(
      await sendOtlp(svc().baseUrl, 'traces', traces([first]), { token: t.ingestKey }),
      'protobuf',
    );
    const again = { ...first, endTimeUnixNano: nanos('2025-03-03T08:00:01.000Z') };
    expectSuccess(
      await sendOtlp(svc().baseUrl, 'traces', traces([again]), { token: t.ingestKey }),
      'protobuf',
    );
    const rows = await storedRows(
      svc(),
      'SELECT id FROM spans WHERE project_id = ? AND span_id = ?',
      [t.projectId, first.spanId],
    );
    expect(rows).toHaveLength(1);
  });
});

describe('OTLP: a request over 5,000 records', () => {
  let t: OtlpReader;
  beforeAll(async () => {
    t = await reader(svc());
  });

  it('is stored whole', async () => {
    const records = Array.from({ length: 5_003 }, (_, i) =>
      logRecord({ body: { stringValue: `line ${String(i)}` }, attributes: [] }),
    );
    // One also carries an exception: its issue occurrence shares the chunks with the logs.
    records[0] = logRecord({
      body: { stringValue: 'line 0' },
      attributes: kv({ 'exception.type': 'TimeoutError', 'exception.message': 'upstream' }),
    });
    const res = await sendOtlp(svc().baseUrl, 'logs', logs(records), { token: t.ingestKey });
    expectSuccess(res, 'protobuf');
    const stored = await counts(t);
    expect(stored.logs).toBe(5_003);
    expect(stored.issue_occurrences).toBe(1);
  });
});

describe('OTLP: live feed', () => {
  it('an OTLP span and log reach a live-feed client of the project', async () => {
    const t = await reader(svc());
    const feed = await openFeed(svc().baseUrl, await newTicket(svc().baseUrl, t.token));
    try {
      const traceId = hexId(16);
      const message = `live ${hexId(8)}`;
      expectSuccess(
        await sendOtlp(svc().baseUrl, 'traces', traces([span({ traceId })]), {
          token: t.ingestKey,
        }),
        'protobuf',
      );
      expectSuccess(
        await sendOtlp(
          svc().baseUrl,
          'logs',
          logs([logRecord({ traceId, body: { stringValue: message } })]),
          { as: 'json', token: t.ingestKey },
        ),
        'json',
      );
      const spanMessage = await feed.until(
        (m) => m.data.trace_id === traceId && m.type !== 'native_log',
      );
      expect(spanMessage.type).toBe('native_trace_span');
      const logMessage = await feed.until((m) => m.data.message === message);
      expect(logMessage.type).toBe('native_log');
      expect(logMessage.data.trace_id).toBe(traceId);
    } finally {
      feed.close();
    }
  });
});
