import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceScope } from '../../../core/store/telemetry/traces';
import { summarizeTrace } from '../../../domain/trace-summary';
import { clickhouseTestTelemetry, dropTestTelemetry } from '../../../test-support/test-clickhouse';
import { openClickHouse, type ChDb } from './clickhouse-db';
import { migrateClickHouse } from './clickhouse-migrations';
import { clickhouseTraceSummary } from './trace-summary';
import { clickhouseTraces } from './traces';

/**
 * The summary computed in SQL must be the summary `summarizeTrace` gives from every span:
 * traces with ties in duration and start, several roots, no root (a detached span stands in),
 * only a cycle of parents (no root at all), span ids repeated across two projects, and scopes
 * narrowed by project, release and environment.
 */
const telemetry = clickhouseTestTelemetry();
let db: ChDb;
const START = Date.UTC(2026, 10, 20, 12);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type Shape = 'tree' | 'no-root' | 'cycle';

/** A trace's spans in one project: a random tree of `count` spans with the given shape. */
function spansOf(traceId: string, project: string, count: number, shape: Shape, seed: number) {
  const r = rng(seed);
  const id = (i: number) => `s${String(i).padStart(4, '0')}`;
  return Array.from({ length: count }, (_, i) => {
    let parent: string | null = i === 0 ? null : id(Math.floor(r() * i));
    if (shape === 'tree' && i > 0 && r() < 0.05) parent = null; // another root
    if (shape !== 'cycle' && i > 0 && r() < 0.05) parent = `missing-${String(i % 3)}`;
    if (shape === 'no-root' && i === 0) parent = 'missing-root';
    if (shape === 'cycle') parent = id((i + 1) % count);
    return {
      project_id: project,
      trace_id: traceId,
      // Few distinct starts and durations, so ties decide.
      started_at: START + Math.floor(r() * 4) * 10,
      id: `${project}-${traceId}-${String(i)}`,
      span_id: id(i),
      parent_span_id: parent,
      name: `op ${String(i % 5)}`,
      operation: i % 3 === 0 ? null : 'db.query',
      kind: i % 2 === 0 ? 'server' : null,
      environment: i % 4 === 0 ? 'staging' : 'production',
      release: `shop@${String(1 + (i % 3))}.0.0`,
      service_name: ['api', 'db', 'cache', 'web'][i % 4] ?? 'api',
      duration_ms: [1, 2.5, 2.5, 0.1 + 0.2, 7][Math.floor(r() * 5)] ?? 1,
      status: r() < 0.15 ? 'error' : r() < 0.5 ? 'ok' : null,
      status_message: r() < 0.3 ? 'timeout' : null,
      attributes: '{}',
      events: '[]',
      sdk_name: 'test',
      sdk_version: '1',
      received_at: START + (i % 7),
      batch_id: '00000000-0000-4000-8000-000000000001',
      retention_days: 30,
    };
  });
}

const TRACES: { traceId: string; parts: [string, number, Shape][] }[] = [
  {
    traceId: 'big',
    parts: [
      ['p-a', 400, 'tree'],
      ['p-b', 120, 'tree'],
    ],
  },
  { traceId: 'orphaned', parts: [['p-a', 60, 'no-root']] },
  { traceId: 'looped', parts: [['p-a', 7, 'cycle']] },
  { traceId: 'single', parts: [['p-b', 1, 'tree']] },
];

beforeAll(async () => {
  db = await openClickHouse(telemetry);
  await migrateClickHouse(db);
  let seed = 1;
  for (const t of TRACES)
    for (const [project, count, shape] of t.parts)
      await db.insertRows(
        'spans',
        spansOf(t.traceId, project, count, shape, seed++),
        `t${String(seed)}`,
      );
});

afterAll(async () => {
  await db.close();
  await dropTestTelemetry(telemetry);
});

const scope = (traceId: string, o: Partial<TraceScope> = {}): TraceScope => ({
  traceId,
  projectIds: ['p-a', 'p-b'],
  release: null,
  environment: null,
  ...o,
});

const fromEverySpan = async (s: TraceScope) =>
  summarizeTrace(s.traceId, await clickhouseTraces(db).summarySpans(s));

describe('the trace summary in ClickHouse', () => {
  const scopes: [string, TraceScope][] = [
    ...TRACES.map((t): [string, TraceScope] => [t.traceId, scope(t.traceId)]),
    ['big in one project', scope('big', { projectIds: ['p-b'] })],
    ['big in one release', scope('big', { release: 'shop@2.0.0' })],
    ['big in staging', scope('big', { environment: 'staging' })],
  ];

  it.each(scopes)('equals the summary of every span: %s', async (_, s) => {
    const expected = await fromEverySpan(s);
    expect(expected).not.toBeNull();
    expect(await clickhouseTraceSummary(db, s)).toEqual(expected);
  });

  it('finds the cases it is meant to cover', async () => {
    const big = await fromEverySpan(scope('big'));
    expect(big?.project_ids).toEqual(['p-a', 'p-b']);
    expect(big?.orphan_span_count).toBeGreaterThan(0);
    expect(big?.slowest_path.length).toBeGreaterThan(2);
    expect(big?.error_span_count).toBeGreaterThan(0);
    const orphaned = await fromEverySpan(scope('orphaned'));
    expect(orphaned?.root_span_missing).toBe(true);
    expect(orphaned?.root_span).not.toBeNull();
    const looped = await fromEverySpan(scope('looped'));
    expect(looped?.root_span).toBeNull();
    expect(looped?.slowest_path).toEqual([]);
  });

  it('is null for a trace with no span in scope', async () => {
    expect(await clickhouseTraceSummary(db, scope('nothing'))).toBeNull();
    expect(await clickhouseTraceSummary(db, scope('looped', { projectIds: ['p-b'] }))).toBeNull();
    expect(await clickhouseTraceSummary(db, scope('big', { projectIds: [] }))).toBeNull();
  });
});
