import { beforeAll, describe, expect, it } from 'vitest';
import { deriveFingerprint } from '../domain/fingerprint';
import type {
  ActionItemInput,
  IssueItemInput,
  LogItemInput,
  SpanItemInput,
} from '../ingest/item-schemas';
import { parseNativeEnvelope, parseSdkBatch } from '../ingest/parse-batch';
import { FUNNEL } from './generate-actions';
import { generateDemoWorld, type DemoWorld } from './generate-world';
import { ISSUE_CATALOG } from './issue-catalog';
import { NATIVE_PATH, type PlannedBatch } from './plan-batches';
import { DAY_MS } from './world-model';

const NOW = Date.parse('2026-11-20T15:04:05.678Z');
const SCALE = 0.05;
const PROJECT = '7d0c2b1e-5a4f-4e3b-9c8d-1f2e3d4c5b6a';

function itemsOf<T>(world: DemoWorld, stream: PlannedBatch['stream']): T[] {
  return world.batches
    .filter((b) => b.stream === stream)
    .flatMap((b) =>
      b.path === NATIVE_PATH
        ? ((b.body as Record<string, unknown>)[stream] as T[])
        : (b.body.events as unknown as T[]),
    );
}

describe('the demo world generator', () => {
  let world: DemoWorld;
  let spans: SpanItemInput[];
  beforeAll(() => {
    world = generateDemoWorld({ seed: 42, now: NOW, scale: SCALE });
    spans = itemsOf<SpanItemInput>(world, 'trace_spans');
  });

  it('is deterministic: the same seed and now give identical batches, another seed others', () => {
    const again = generateDemoWorld({ seed: 42, now: NOW, scale: SCALE });
    expect(JSON.stringify(again.batches)).toBe(JSON.stringify(world.batches));
    expect(again.deployments).toEqual(world.deployments);
    const other = generateDemoWorld({ seed: 43, now: NOW, scale: SCALE });
    expect(JSON.stringify(other.batches)).not.toBe(JSON.stringify(world.batches));
  });

  it('produces every kind of data even at a small scale', () => {
    for (const n of Object.values(world.counts)) expect(n).toBeGreaterThan(100);
    expect(world.deployments.some((d) => d.status === 'failed')).toBe(true);
  });

  it('sends batches of at most 1,000 items that the real ingest parsers accept', () => {
    for (const batch of world.batches) {
      expect(batch.items).toBeGreaterThan(0);
      expect(batch.items).toBeLessThanOrEqual(1000);
      const raw: unknown = JSON.parse(JSON.stringify(batch.body));
      const parsed =
        batch.path === NATIVE_PATH
          ? parseNativeEnvelope(raw, PROJECT)
          : parseSdkBatch(raw, PROJECT);
      const n =
        parsed.issues.length +
        parsed.logs.length +
        parsed.spans.length +
        parsed.actions.length +
        parsed.metrics.length;
      expect(n).toBe(batch.items);
    }
  });

  it('dates everything within the two weeks before now, as RFC3339 UTC with milliseconds', () => {
    const times = [
      ...itemsOf<IssueItemInput>(world, 'issues').map((i) => i.occurred_at),
      ...itemsOf<LogItemInput>(world, 'logs').map((i) => i.occurred_at),
      ...itemsOf<ActionItemInput>(world, 'actions').map((i) => i.occurred_at),
      ...itemsOf<{ occurred_at: string }>(world, 'metrics').map((i) => i.occurred_at),
      ...spans.map((s) => s.started_at),
    ];
    for (const t of times) {
      expect(t).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const ms = Date.parse(t);
      expect(ms).toBeLessThanOrEqual(NOW);
      expect(ms).toBeGreaterThan(NOW - 15 * DAY_MS);
    }
    for (const s of spans)
      expect(Date.parse(s.started_at) + s.duration_ms).toBeLessThanOrEqual(NOW);
  });

  it('builds traces whose spans have their parent in the trace and start and end within it', () => {
    const byTrace = new Map<string, Map<string, SpanItemInput>>();
    for (const s of spans) {
      const trace = byTrace.get(s.trace_id) ?? new Map<string, SpanItemInput>();
      expect(trace.has(s.span_id)).toBe(false);
      trace.set(s.span_id, s);
      byTrace.set(s.trace_id, trace);
    }
    const sizes: number[] = [];
    for (const trace of byTrace.values()) {
      sizes.push(trace.size);
      const roots = [...trace.values()].filter((s) => !s.parent_span_id);
      expect(roots).toHaveLength(1);
      for (const s of trace.values()) {
        if (!s.parent_span_id) continue;
        const parent = trace.get(s.parent_span_id);
        expect(parent, `parent of ${s.name}`).toBeDefined();
        if (!parent) continue;
        const start = Date.parse(s.started_at);
        const parentStart = Date.parse(parent.started_at);
        expect(start).toBeGreaterThanOrEqual(parentStart);
        expect(start + s.duration_ms).toBeLessThanOrEqual(parentStart + parent.duration_ms + 1e-6);
      }
    }
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(100);
    // Failing spans say why and carry the exception; generic names give naming quality work.
    const failed = spans.filter((s) => s.status === 'error');
    expect(failed.length).toBeGreaterThan(0);
    for (const s of failed) expect(s.status_message).toBeTruthy();
    expect(spans.some((s) => s.events?.some((e) => e.name === 'exception'))).toBe(true);
    const rootNames = new Set(spans.filter((s) => !s.parent_span_id).map((s) => s.name));
    expect(rootNames).toContain('Place order');
    expect([...rootNames].some((n) => n === 'GET' || n === 'handler')).toBe(true);
  });

  it('links issues, logs and actions only to spans of traces it sent', () => {
    const spanIds = new Map<string, Set<string>>();
    for (const s of spans) {
      const set = spanIds.get(s.trace_id) ?? new Set<string>();
      set.add(s.span_id);
      spanIds.set(s.trace_id, set);
    }
    const linked = [
      ...itemsOf<IssueItemInput>(world, 'issues'),
      ...itemsOf<LogItemInput>(world, 'logs'),
      ...itemsOf<ActionItemInput>(world, 'actions'),
    ].filter((i) => i.trace_id);
    expect(linked.length).toBeGreaterThan(50);
    for (const i of linked) expect(spanIds.get(i.trace_id ?? '')?.has(i.span_id ?? '')).toBe(true);
  });

  it('groups its errors into the catalog: every group a few times, a few groups noisy', () => {
    const issues = itemsOf<IssueItemInput>(world, 'issues');
    const groups = new Map<string, number>();
    for (const i of issues) {
      const fp = deriveFingerprint({
        fingerprint: i.fingerprint,
        exceptionType: i.exception?.type,
        stackTrace: i.stack_trace,
        message: i.message,
      });
      const key = `${i.service_name}|${fp}`;
      groups.set(key, (groups.get(key) ?? 0) + 1);
    }
    expect(groups.size).toBe(ISSUE_CATALOG.length);
    const counts = [...groups.values()].sort((a, b) => b - a);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(3);
    expect(counts[0]).toBeGreaterThan(10 * (counts[counts.length - 1] ?? 1));
    expect(issues.some((i) => i.breadcrumbs_truncated === true)).toBe(true);
    expect(issues.some((i) => i.severity === 'warn' || i.level === 'warn')).toBe(true);
    expect(issues.some((i) => i.level === 'fatal' || i.severity === 'fatal')).toBe(true);
  });

  it('shows the bad checkout release as an error spike that the next release ends', () => {
    const api = itemsOf<IssueItemInput>(world, 'issues').filter(
      (i) => i.service_name === 'checkout-api' && i.environment === 'production',
    );
    const hourly = (release: string) => {
      const times = api.filter((i) => i.release === release).map((i) => Date.parse(i.occurred_at));
      const deploys = world.deployments.filter(
        (d) =>
          d.service_name === 'checkout-api' &&
          d.environment === 'production' &&
          d.status === 'succeeded',
      );
      const from = Date.parse(deploys.find((d) => d.release === release)?.finished_at ?? '');
      const next = deploys.find((d) => Date.parse(d.finished_at) > from);
      const to = next ? Date.parse(next.finished_at) : NOW;
      return times.length / ((to - Math.max(from, NOW - 14 * DAY_MS)) / 3_600_000);
    };
    expect(hourly('checkout-api@2.14.0')).toBeGreaterThan(10 * hourly('checkout-api@2.14.1'));
    expect(hourly('checkout-api@2.14.0')).toBeGreaterThan(10 * hourly('checkout-api@2.13.0'));
  });

  it('writes logs of every severity, with aliases, nested attributes and keys JSON Pointer escapes', () => {
    const logs = itemsOf<LogItemInput>(world, 'logs');
    const spelled = new Set(logs.map((l) => l.severity ?? l.level));
    for (const s of ['info', 'debug', 'warn', 'warning', 'error']) expect(spelled).toContain(s);
    expect(new Set(logs.map((l) => l.source)).size).toBeGreaterThanOrEqual(6);
    const keys = (o: unknown, out: string[] = []): string[] => {
      if (o && typeof o === 'object') {
        for (const [k, v] of Object.entries(o)) {
          out.push(k);
          keys(v, out);
        }
      }
      return out;
    };
    const all = logs.flatMap((l) => keys(l.attributes));
    expect(all.some((k) => k.includes('/'))).toBe(true);
    expect(all.some((k) => k.includes('~'))).toBe(true);
    expect(logs.some((l) => typeof l.attributes?.http === 'object')).toBe(true);
  });

  it('walks sessions down a funnel whose step counts only decrease', () => {
    const actions = itemsOf<ActionItemInput>(world, 'actions');
    const reached = FUNNEL.map(
      (step) => new Set(actions.filter((a) => a.name === step.name).map((a) => a.session_id)).size,
    );
    for (let i = 1; i < reached.length; i++) {
      expect(reached[i]).toBeLessThan(reached[i - 1] ?? 0);
    }
    expect(reached[reached.length - 1]).toBeGreaterThan(0);
    expect(actions.some((a) => a.distinct_id.startsWith('anon_'))).toBe(true);
    expect(actions.some((a) => typeof a.properties?.cart_value === 'number')).toBe(true);
  });
});
