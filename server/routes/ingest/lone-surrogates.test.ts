import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test-support/api-client';
import { kv, logRecord, logs as otlpLogs, sendOtlp } from '../../test-support/otlp';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  NATIVE,
  SDK,
  actionItem,
  issueItem,
  ingest,
  logItem,
  metricItem,
  nativeBody,
  sdkBody,
  sdkEvent,
  spanItem,
  T0,
} from '../../test-support/telemetry';

type Rec = Record<string, unknown>;

/**
 * Text that is not valid Unicode: JSON can carry a lone surrogate (`"\ud800"`), UTF-8 cannot.
 * One rule for every string of a batch, whatever column or JSON document stores it: each
 * lone surrogate reads back as U+FFFD (text and attributes, keys and values, at any depth).
 */
const LONE = '\uD800';
const LONE_LOW = '\uDC00';
const R = '\uFFFD';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Attributes with lone surrogates in keys and values, nested in objects and arrays. */
const sent = {
  [`key${LONE}`]: `value${LONE_LOW}`,
  nested: { [`deep${LONE_LOW}`]: { list: [`item${LONE}`, 7, { [`k${LONE}`]: `v${LONE}` }] } },
  pair: 'kept 😀',
};
const expected = {
  [`key${R}`]: `value${R}`,
  nested: { [`deep${R}`]: { list: [`item${R}`, 7, { [`k${R}`]: `v${R}` }] } },
  pair: 'kept 😀',
};

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) strings(v, out.concat(k));
  return out;
}

describe('lone surrogates read back as U+FFFD everywhere', () => {
  let svc: RunningService<true>;
  let token = '';
  let project = '';
  const get = async <T>(path: string): Promise<T> => {
    const res = await call(svc.baseUrl, 'GET', path, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.text).not.toMatch(/\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])/i);
    expect(strings(res.body).some((s) => LONE_SURROGATE.test(s))).toBe(false);
    return res.body as T;
  };
  const log = logItem({ message: `log ${LONE} message`, attributes: sent });
  const issue = issueItem({
    title: `title ${LONE_LOW}`,
    message: `issue ${LONE} message`,
    fingerprint: 'lone-surrogate-issue',
    attributes: sent,
  });
  const span = spanItem({ name: `span ${LONE}`, trace_id: 'e'.repeat(32), attributes: sent });
  const action = actionItem({ name: `action_${LONE}`, properties: sent });
  const metric = metricItem({ name: `metric.${LONE}`, attributes: sent });

  beforeAll(async () => {
    svc = await startService({ demo: true });
    token = svc.creds.account_token;
    const p = svc.creds.projects[0];
    project = p?.id ?? '';
    const native = await ingest(
      svc,
      NATIVE,
      p?.ingest_key ?? '',
      nativeBody({ logs: [log], issues: [issue], trace_spans: [span], actions: [action] }),
    );
    expect(native.status, native.text).toBe(200);
    const sdk = await ingest(
      svc,
      SDK,
      p?.ingest_key ?? '',
      sdkBody([
        sdkEvent('metric', metric),
        sdkEvent('log', logItem({ id: randomUUID(), message: `sdk ${LONE}` })),
      ]),
    );
    expect(sdk.status, sdk.text).toBe(200);
    // OTLP/JSON carries the escapes too.
    const otlp = await sendOtlp(
      svc.baseUrl,
      'logs',
      otlpLogs([
        logRecord({
          timeUnixNano: `${String(Date.parse(T0))}000000`,
          body: { stringValue: `otlp ${LONE} body` },
          attributes: kv({ [`otlp.key${LONE_LOW}`]: `otlp value${LONE}` }),
        }),
      ]),
      { as: 'json', token: p?.ingest_key ?? '' },
    );
    expect(otlp.status).toBe(200);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('in a log: message, attribute keys and values, nested values', async () => {
    const read = await get<Rec>(`/api/logs/${String(log.id)}`);
    expect(read.message).toBe(`log ${R} message`);
    expect(read.attributes).toEqual(expected);
  });

  it('in a log sent as OTLP/JSON: body, attribute key and value', async () => {
    const list = await get<Rec[]>(`/api/logs?project_id=${project}&since=${T0}&search=otlp`);
    const read = list.find((l) => typeof l.message === 'string' && l.message.startsWith('otlp'));
    expect(read?.message).toBe(`otlp ${R} body`);
    expect(read?.attributes).toMatchObject({ [`otlp.key${R}`]: `otlp value${R}` });
  });

  it('in an issue and its occurrence', async () => {
    const list = await get<Rec[]>(`/api/telemetry/issues?project_id=${project}&since=30d`);
    const found = list.find((i) => i.fingerprint === 'lone-surrogate-issue');
    expect(found).toMatchObject({ title: `title ${R}`, message: `issue ${R} message` });
    const detail = await get<Rec>(`/api/telemetry/issues/${String(found?.id)}`);
    expect(detail.attributes).toEqual(expected);
  });

  it('in a span, an action and a metric sample', async () => {
    const spans = await get<Rec[]>(`/api/telemetry/traces/${'e'.repeat(32)}?project_id=${project}`);
    expect(spans[0]).toMatchObject({ name: `span ${R}`, attributes: expected });
    const actions = await get<Rec[]>(`/api/telemetry/actions?project_id=${project}&since=30d`);
    expect(actions.find((a) => a.id === action.id)).toMatchObject({
      name: `action_${R}`,
      properties: expected,
    });
    const metrics = await get<Rec[]>(`/api/telemetry/metrics?project_id=${project}&since=30d`);
    expect(metrics.find((m) => m.event_id === metric.id)).toMatchObject({
      name: `metric.${R}`,
      attributes: expected,
    });
  });
});
