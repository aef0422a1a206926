import { describe, expect, it } from 'vitest';
import {
  decodeJson,
  decodeProtobuf,
  decodeResponse,
  decodeStatus,
  encodeRequest,
  encodeResponse,
  encodeStatus,
  OtlpDecodeError,
} from './otlp-codec';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

const attribute = (value: Record<string, unknown>) => ({
  resourceLogs: [{ scopeLogs: [{ logRecords: [{ attributes: [{ key: 'k', value }] }] }] }],
});

describe('decoding both encodings to one form', () => {
  it('a "__proto__" key in OTLP/JSON is an unknown field: nothing under it is read as sent', () => {
    const spans = [{ traceId: TRACE, spanId: SPAN, name: 'hidden' }];
    const text = `{"__proto__": {"resourceSpans": [{"scopeSpans": [{"spans": ${JSON.stringify(spans)}}]}]}, "resourceSpans": [{"scopeSpans": [{"__proto__": {"spans": ${JSON.stringify(spans)}}}]}]}`;
    const request = decodeJson('traces', text);
    expect(request.resourceSpans).toHaveLength(1);
    expect(request.resourceSpans[0]?.scopeSpans[0]?.spans).toEqual([]);
  });

  it('OTLP/JSON hex ids and protobuf bytes decode to the same base64', () => {
    const json = decodeJson(
      'traces',
      JSON.stringify({
        resourceSpans: [
          { scopeSpans: [{ spans: [{ traceId: TRACE, spanId: SPAN.toUpperCase() }] }] },
        ],
      }),
    );
    const proto = decodeProtobuf(
      'traces',
      encodeRequest('traces', {
        resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: b64(TRACE), spanId: b64(SPAN) }] }] }],
      }),
    );
    const ids = (r: typeof json) => {
      const s = r.resourceSpans[0]?.scopeSpans[0]?.spans[0];
      return [s?.traceId, s?.spanId];
    };
    expect(ids(json)).toEqual([b64(TRACE), b64(SPAN)]);
    expect(ids(proto)).toEqual(ids(json));
  });

  it('an int64 beyond 2^53 arrives exactly, as text, in both encodings', () => {
    const big = '9223372036854775807';
    const value = (r: ReturnType<typeof decodeJson<'logs'>>) =>
      r.resourceLogs[0]?.scopeLogs[0]?.logRecords[0]?.attributes[0]?.value?.intValue;
    expect(value(decodeJson('logs', JSON.stringify(attribute({ intValue: big }))))).toBe(big);
    expect(value(decodeProtobuf('logs', encodeRequest('logs', attribute({ intValue: big }))))).toBe(
      big,
    );
  });

  it('bytes values are base64 in OTLP/JSON (only ids are hex) and stay base64', () => {
    const value = (r: ReturnType<typeof decodeJson<'logs'>>) =>
      r.resourceLogs[0]?.scopeLogs[0]?.logRecords[0]?.attributes[0]?.value;
    expect(
      value(decodeJson('logs', JSON.stringify(attribute({ bytesValue: 'AQID' })))),
    ).toMatchObject({
      value: 'bytesValue',
      bytesValue: 'AQID',
    });
  });

  it('unreadable bodies are OtlpDecodeErrors that say where', () => {
    expect(() => decodeJson('traces', '{')).toThrow(OtlpDecodeError);
    expect(() => decodeJson('traces', 'null')).toThrow(/JSON object/);
    expect(() => decodeJson('traces', '{"resourceSpans": 5}')).toThrow(/resourceSpans/);
    expect(() =>
      decodeJson(
        'logs',
        JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ spanId: 'xyz' }] }] }] }),
      ),
    ).toThrow(/resourceLogs\[0\]\.scopeLogs\[0\]\.logRecords\[0\]\.spanId must be hex/);
    expect(() => decodeProtobuf('metrics', Buffer.from([0x0a, 0xff]))).toThrow(OtlpDecodeError);
  });
});

describe('responses', () => {
  it('full success is an empty message; partial success names the signal’s counter', () => {
    expect(encodeResponse('logs', null, 'json')).toEqual({});
    expect(decodeResponse('logs', encodeResponse('logs', null, 'protobuf') as Uint8Array)).toEqual(
      {},
    );
    const partial = { rejected: 2, errorMessage: 'two bad' };
    expect(encodeResponse('metrics', partial, 'json')).toEqual({
      partialSuccess: { rejectedDataPoints: 2, errorMessage: 'two bad' },
    });
    expect(
      decodeResponse('traces', encodeResponse('traces', partial, 'protobuf') as Uint8Array),
    ).toEqual({ partialSuccess: { rejectedSpans: 2, errorMessage: 'two bad' } });
  });

  it('a google.rpc.Status round-trips through protobuf with its ErrorInfo', () => {
    const status = {
      code: 8,
      message: 'over the allowance',
      reason: 'usage_limit_exceeded',
      metadata: { limit: 'trace_spans' },
    };
    expect(decodeStatus(encodeStatus(status, 'protobuf') as Uint8Array)).toEqual(status);
    expect(encodeStatus(status, 'json')).toEqual({
      code: 8,
      message: 'over the allowance',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'usage_limit_exceeded',
          domain: 'lookout',
          metadata: { limit: 'trace_spans' },
        },
      ],
    });
  });
});
