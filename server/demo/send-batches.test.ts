import { describe, expect, it } from 'vitest';
import type { PlannedBatch } from './plan-batches';
import {
  DemoIngestError,
  sendBatches,
  type IngestRequest,
  type IngestResponse,
} from './send-batches';

/** A request's body as text, whether it was sent as a string or as bytes. */
const bodyText = (req: IngestRequest) =>
  typeof req.body === 'string' ? req.body : new TextDecoder().decode(req.body);

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

  it('sends batches still being made as they come, and bodies already encoded as they are', async () => {
    let release = () => {};
    const later = new Promise<void>((resolve) => (release = resolve));
    const encoded = { ...logBatch(2), body: new TextEncoder().encode('{"logs":[]}') };
    async function* arriving() {
      yield logBatch(1);
      await later;
      yield encoded;
    }
    const { sent, transport } = scripted([ok('logs'), ok('logs')]);
    const done = sendBatches(arriving(), { transport, keyOf: () => 'k' });
    await new Promise<void>((resolve) => setImmediate(resolve));
    // The first went out before the second was made.
    expect(sent).toHaveLength(1);
    release();
    const report = await done;
    expect(sent).toHaveLength(2);
    expect(sent[1]?.body).toBe(encoded.body);
    expect(report.accepted.logs).toBe(2);
  });

  describe('several requests of a project in flight', () => {
    /** A transport whose answers the test gives, request by request, in any order. */
    function held() {
      const pending: { req: IngestRequest; answer: (r: IngestResponse) => void }[] = [];
      const sent: IngestRequest[] = [];
      let inFlight = 0;
      let most = 0;
      return {
        pending,
        sent,
        most: () => most,
        transport: (req: IngestRequest) =>
          new Promise<IngestResponse>((resolve) => {
            sent.push(req);
            inFlight += 1;
            most = Math.max(most, inFlight);
            pending.push({
              req,
              answer: (r) => {
                inFlight -= 1;
                resolve(r);
              },
            });
          }),
      };
    }
    const settle = () => new Promise<void>((r) => setImmediate(r));
    const idOf = (req: IngestRequest) =>
      (JSON.parse(bodyText(req)) as { logs?: { id: string }[] }).logs?.[0]?.id;
    /** Answers the oldest pending request with `answer`. */
    async function answerNext(h: ReturnType<typeof held>, answer: IngestResponse) {
      await settle();
      const p = h.pending.shift();
      if (!p) throw new Error('nothing in flight');
      p.answer(answer);
      await settle();
    }

    it('keeps up to inFlight requests of a project in flight, and no more', async () => {
      const h = held();
      const done = sendBatches([1, 2, 3, 4, 5].map(logBatch), {
        transport: h.transport,
        keyOf: () => 'k',
        inFlight: 3,
      });
      await settle();
      expect(h.sent.map(idOf)).toEqual(
        [1, 2, 3].map((n) => `00000000-0000-4000-8000-00000000000${n}`),
      );
      for (let i = 0; i < 5; i++) await answerNext(h, ok('logs'));
      const report = await done;
      expect(h.most()).toBe(3);
      expect(report.accepted.logs).toBe(5);
      expect(report.requests).toBe(5);
    });

    it('re-sends a rate_limited batch with the same body while the others go on', async () => {
      const h = held();
      const waits: number[] = [];
      const done = sendBatches([1, 2, 3].map(logBatch), {
        transport: h.transport,
        keyOf: () => 'k',
        inFlight: 2,
        sleep: async (ms) => {
          waits.push(ms);
        },
      });
      await answerNext(h, { status: 429, body: { code: 'rate_limited', retry_after_seconds: 3 } });
      while (h.pending.length > 0) await answerNext(h, ok('logs'));
      const report = await done;
      expect(waits).toEqual([3000]);
      const first = h.sent.filter((r) => idOf(r) === idOf(h.sent[0] as IngestRequest));
      expect(first).toHaveLength(2);
      expect(first[1]).toEqual(first[0]);
      expect(report.accepted.logs).toBe(3);
      expect(report.rateLimitedRetries).toBe(1);
    });

    it('stops a stream once at usage_limit_exceeded, even when several were refused', async () => {
      const h = held();
      const stoppedCalls: string[] = [];
      const limited: IngestResponse = {
        status: 429,
        body: {
          code: 'usage_limit_exceeded',
          limit: 'log_bytes',
          reset_at: '2026-12-01T00:00:00Z',
        },
      };
      const done = sendBatches([logBatch(1), logBatch(2), logBatch(3), logBatch(4), actionBatch], {
        transport: h.transport,
        keyOf: () => 'k',
        inFlight: 2,
        onStopped: (s) => stoppedCalls.push(s.stream),
      });
      // Both log batches in flight are refused; no other log batch is sent after the first no.
      await answerNext(h, limited);
      await answerNext(h, limited);
      while (h.pending.length > 0) await answerNext(h, ok('actions'));
      const report = await done;
      expect(stoppedCalls).toEqual(['logs']);
      expect(report.stopped).toHaveLength(1);
      expect(
        h.sent.map((r) => JSON.parse(bodyText(r)) as object).filter((b) => 'logs' in b),
      ).toHaveLength(2);
      expect(report.accepted.actions).toBe(1);
    });

    it('starts no batch after one failed, and throws its error', async () => {
      const h = held();
      const done = sendBatches([1, 2, 3, 4, 5].map(logBatch), {
        transport: h.transport,
        keyOf: () => 'k',
        inFlight: 2,
      }).catch((e: unknown) => e);
      await answerNext(h, { status: 422, body: { code: 'validation_failed' } });
      while (h.pending.length > 0) await answerNext(h, ok('logs'));
      expect(await done).toBeInstanceOf(DemoIngestError);
      expect(h.sent).toHaveLength(2);
    });
  });
});
