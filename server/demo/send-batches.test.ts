import { describe, expect, it } from 'vitest';
import type { PlannedBatch } from './plan-batches';
import {
  DemoIngestError,
  sendBatches,
  type IngestRequest,
  type IngestResponse,
} from './send-batches';

const sdk = { name: 'lookout.javascript', version: '2.3.0' };
const logBatch = (n: number): PlannedBatch => ({
  project: 'web',
  stream: 'logs',
  items: 1,
  path: '/api/telemetry/ingest',
  body: {
    sdk,
    logs: [
      {
        id: `00000000-0000-4000-8000-00000000000${n}`,
        occurred_at: '2026-11-20T10:00:00.000Z',
        message: `m${n}`,
      },
    ],
  },
});
const actionBatch: PlannedBatch = {
  project: 'web',
  stream: 'actions',
  items: 1,
  path: '/api/telemetry/ingest',
  body: {
    sdk,
    actions: [
      {
        id: '00000000-0000-4000-8000-0000000000aa',
        occurred_at: '2026-11-20T10:00:00.000Z',
        name: 'Home',
        kind: 'page_view',
        distinct_id: 'u1',
      },
    ],
  },
};

const ok = (stream: string, n = 1): IngestResponse => ({
  status: 200,
  body: { issues: 0, logs: 0, trace_spans: 0, actions: 0, [stream]: n, already_accepted: 0 },
});

function scripted(answers: IngestResponse[]) {
  const sent: IngestRequest[] = [];
  return {
    sent,
    transport: async (req: IngestRequest) => {
      sent.push(req);
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next;
    },
  };
}

describe('sendBatches', () => {
  it('waits retry_after_seconds on rate_limited and re-sends the same body, same ids', async () => {
    const { sent, transport } = scripted([
      { status: 429, body: { code: 'rate_limited', retry_after_seconds: 2 } },
      ok('logs'),
    ]);
    const waits: number[] = [];
    const report = await sendBatches([logBatch(1)], {
      transport,
      keyOf: () => 'lk_ik_test',
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(waits).toEqual([2000]);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(sent[0]?.key).toBe('lk_ik_test');
    expect(report.accepted.logs).toBe(1);
    expect(report.rateLimitedRetries).toBe(1);
  });

  it('stops a stream at usage_limit_exceeded and keeps sending the others', async () => {
    const { sent, transport } = scripted([
      {
        status: 429,
        body: {
          code: 'usage_limit_exceeded',
          limit: 'log_bytes',
          reset_at: '2026-12-01T00:00:00.000Z',
        },
      },
      ok('actions'),
    ]);
    const report = await sendBatches([logBatch(1), logBatch(2), actionBatch], {
      transport,
      keyOf: () => 'k',
    });
    expect(sent).toHaveLength(2);
    expect(report.stopped).toEqual([
      { stream: 'logs', limit: 'log_bytes', reset_at: '2026-12-01T00:00:00.000Z' },
    ]);
    expect(report.accepted.actions).toBe(1);
  });

  it('throws on any other answer, with its status and body', async () => {
    const { transport } = scripted([
      { status: 422, body: { code: 'validation_failed', error: 'invalid telemetry' } },
    ]);
    const error = await sendBatches([logBatch(1)], { transport, keyOf: () => 'k' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DemoIngestError);
    expect((error as DemoIngestError).status).toBe(422);
    expect((error as DemoIngestError).message).toContain('validation_failed');
  });

  it('gives up on a batch the service keeps rate limiting', async () => {
    const limited = { status: 429, body: { code: 'rate_limited', retry_after_seconds: 1 } };
    const { transport } = scripted(Array.from({ length: 4 }, () => limited));
    await expect(
      sendBatches([logBatch(1)], {
        transport,
        keyOf: () => 'k',
        sleep: async () => {},
        maxRateLimitedRetries: 3,
      }),
    ).rejects.toBeInstanceOf(DemoIngestError);
  });
});
