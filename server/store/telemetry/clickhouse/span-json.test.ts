import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPlanQuotas } from '../../../domain/plans';
import { emptyBatch, type SpanEvent } from '../../../core/batch';
import type { TelemetryConfig } from '../../../core/config';
import type { Store } from '../../../core/store/store';
import type { TraceScope } from '../../../core/store/telemetry/traces';
import { spanView } from '../../../views/telemetry-views';
import { dropTestTelemetry, processEnginePath } from '../../../test-support/test-clickhouse';
import { openClickHouseStore } from '../../clickhouse-store';
import type { ChDb } from './clickhouse-db';
import { spanListJson } from './span-json';

/**
 * The span list's JSON written by ClickHouse (span-json.ts) against the view the other stores
 * answer with (`spanView` of the stored spans): the same values for awkward names, numbers
 * and events, and every span once, in order, whatever the page size.
 */

const NOW = Date.parse('2026-11-23T04:00:00.000Z');
const PROJECT = 'p_span_json';
const TRACE = 'cd'.repeat(16);
const scope: TraceScope = {
  traceId: TRACE,
  projectIds: [PROJECT],
  release: null,
  environment: null,
};

const span = (n: number, o: Partial<SpanEvent> = {}): SpanEvent => ({
  kind: 'trace_span',
  id: randomUUID(),
  release: 'shop@1',
  environment: 'production',
  service_name: 'api',
  sdk: { name: 'test', version: '1' },
  traceId: TRACE,
  spanId: n.toString(16).padStart(16, '0'),
  parentSpanId: n === 0 ? null : '0'.repeat(16),
  name: `step ${String(n)}`,
  operation: null,
  spanKind: null,
  // Several spans share each start, so pages end inside a run of equal starts.
  startedAt: NOW - 60_000 + Math.floor(n / 3),
  durationMs: 5,
  status: null,
  statusMessage: null,
  attributes: {},
  events: [],
  ...o,
});

const SPANS: SpanEvent[] = [
  span(0, { name: 'GET /checkout', operation: 'http.server', spanKind: 'server' }),
  span(1, {
    name: 'quote " back\\slash / slash\nline\ttab \u0001 \u2028 é 😀',
    status: 'error',
    statusMessage: 'Timeout\r\nafter "5 s"',
    durationMs: 0.1 + 0.2,
  }),
  span(2, {
    status: 'ok',
    durationMs: 1e-7,
    attributes: { 'a.b': 1.5, n: null, s: '\ud800 lone' },
  }),
  span(3, { durationMs: 86_400_000, attributes: { nested: { list: [1, 'two', { id: 3 }] } } }),
  span(4, {
    events: [
      { name: 'retry', timestamp: '2026-11-23T03:59:00.123Z' },
      { name: 'ok', timestamp: '2026-11-23T03:59:01.000Z', attributes: { attempt: 2 } },
    ],
  }),
  span(5, { spanId: '0'.repeat(15) + '1', name: 'a span id again' }),
  ...Array.from({ length: 20 }, (_, i) => span(6 + i)),
];

let dir: string;
let telemetry: Extract<TelemetryConfig, { engine: 'clickhouse' }>;
let store: Store & { clickhouse: ChDb };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-span-json-'));
  telemetry = {
    engine: 'clickhouse',
    url: process.env.CLICKHOUSE_URL?.trim() || null,
    database: `lookout_s_${randomBytes(6).toString('hex')}`,
    embeddedPath: processEnginePath(),
  };
  store = await openClickHouseStore({ dataDir: dir, telemetry });
  const accountId = 'a_span_json';
  await store.accounts.create({
    id: accountId,
    email: 'span-json@example.test',
    name: null,
    passwordHash: 'x',
    createdAt: NOW,
    revokedBefore: null,
  });
  await store.accounts.createOrganization({ id: 'o_sj', slug: 'sj', name: 'S', createdAt: NOW });
  await store.accounts.addMember({ organizationId: 'o_sj', accountId, role: 'owner' });
  await store.projects.create({
    id: PROJECT,
    organizationId: 'o_sj',
    slug: 'sj',
    name: 'S',
    createdAt: NOW,
  });
  await store.ingest.accept({ ...emptyBatch(PROJECT), spans: SPANS }, NOW, {
    accountId,
    periodStart: Date.parse('2026-11-23T00:00:00.000Z'),
    quotas: defaultPlanQuotas.pro,
    retentionDays: 30,
  });
});

afterAll(async () => {
  await store.close();
  await dropTestTelemetry(telemetry);
  fs.rmSync(dir, { recursive: true, force: true });
});

async function listOf(pageSize: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of spanListJson(store.clickhouse, scope, pageSize)) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString());
}

describe('the span list written by ClickHouse', () => {
  it('says what the span view says of every span, in the order of the span reads', async () => {
    const views = (await store.traces.spans(scope)).map(spanView);
    expect(views).toHaveLength(SPANS.length);
    // The other reads' order: start, then span id (no two spans here repeat both).
    expect(views.map((v) => v.span_id)).toEqual(
      [...SPANS]
        .sort((a, b) => a.startedAt - b.startedAt || (a.spanId < b.spanId ? -1 : 1))
        .map((s) => s.spanId),
    );
    expect(await listOf(20_000)).toEqual(JSON.parse(JSON.stringify(views)));
  });

  it('gives every span once whatever the page size, several spans sharing each start', async () => {
    const whole = await listOf(20_000);
    const ids = (await store.traces.spans(scope)).map((s) => s.id);
    for (const size of [1, 2, 3, 5, SPANS.length, SPANS.length + 1]) {
      expect(await listOf(size)).toEqual(whole);
      const paged: string[] = [];
      for await (const page of store.traces.spanPages(scope, size))
        paged.push(...page.map((s) => s.id));
      expect(paged).toEqual(ids);
    }
  });

  it('is an empty array for a trace with no span in scope', async () => {
    expect(await listOf(5)).not.toEqual([]);
    expect(
      await (async () => {
        const chunks: Buffer[] = [];
        for await (const c of spanListJson(store.clickhouse, { ...scope, release: 'none' }))
          chunks.push(c);
        return JSON.parse(Buffer.concat(chunks).toString()) as unknown;
      })(),
    ).toEqual([]);
  });
});
