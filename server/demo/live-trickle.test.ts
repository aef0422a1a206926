import { describe, expect, it } from 'vitest';
import { parseNativeEnvelope, parseSdkBatch } from '../ingest/parse-batch';
import { runLiveTrickle } from './live-trickle';
import type { IngestRequest } from './send-batches';
import { PROJECT_NAMES } from './world-model';

const credentials = {
  email: 'demo@lookout.dev',
  password: 'x',
  account_token: 'lk_pat_x',
  projects: Object.values(PROJECT_NAMES).map((name, i) => ({
    id: `5b0e7a3c-4a51-4c7e-9a3e-2b8b1f0e8a1${i}`,
    name,
    ingest_key: `lk_ik_${i}`,
  })),
};

describe('the live trickle', () => {
  it('sends about `rate` events per second, dated now, that the ingest parsers accept', async () => {
    let clock = Date.parse('2026-11-20T15:00:00.000Z');
    const start = clock;
    const controller = new AbortController();
    const times: number[] = [];
    const lines: string[] = [];
    let ticks = 0;
    const transport = async (req: IngestRequest) => {
      const raw: unknown = JSON.parse(
        typeof req.body === 'string' ? req.body : new TextDecoder().decode(req.body),
      );
      const batch =
        req.path === '/v1/events'
          ? parseSdkBatch(raw, credentials.projects[0]?.id ?? '')
          : parseNativeEnvelope(raw, credentials.projects[0]?.id ?? '');
      for (const i of [...batch.issues, ...batch.logs, ...batch.actions]) times.push(i.occurredAt);
      for (const s of batch.spans) times.push(s.startedAt);
      return {
        status: 200,
        body: {
          issues: batch.issues.length,
          logs: batch.logs.length,
          trace_spans: batch.spans.length,
          actions: batch.actions.length,
          already_accepted: 0,
        },
      };
    };
    const total = await runLiveTrickle({
      baseUrl: 'http://localhost:8080',
      credentials,
      rate: 30,
      seed: 1,
      signal: controller.signal,
      print: (line) => lines.push(line),
      transport,
      now: () => clock,
      sleep: async (ms) => {
        clock += Math.max(ms, 1);
        if (++ticks >= 20) controller.abort();
      },
      reportEveryMs: 10_000,
    });
    const sent = Object.values(total).reduce((a, b) => a + b, 0);
    expect(sent).toBeGreaterThan(20 * 30 * 0.5);
    expect(sent).toBeLessThan(20 * 30 * 2);
    expect(total.logs).toBeGreaterThan(total.actions);
    for (const t of times) {
      expect(t).toBeLessThanOrEqual(clock);
      expect(t).toBeGreaterThan(start - 15 * 60_000);
    }
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines[0]).toMatch(/sent \d+ events in the last minute/);
  });
});
