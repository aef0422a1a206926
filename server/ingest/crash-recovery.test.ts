import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess, type ServiceProcess } from '../test-support/service-process';
import {
  NATIVE,
  SDK,
  actionItem,
  idCounts,
  issueItem,
  logItem,
  metricItem,
  nativeBody,
  sdkBody,
  sdkEvent,
  spanItem,
  storedRows,
  tableCounts,
  type StoredData,
  type TelemetryTable,
} from '../test-support/telemetry';

/**
 * A crash in the middle of ingestion (spec, write rules: a network failure does not prove a
 * write failed; keep the original ids on retry). Four senders stream batches of all five
 * kinds through both ingest routes into the real service in its own process, which is killed
 * with SIGKILL while requests are in flight. After the restart every acknowledged item is
 * there exactly once, no batch is half stored, and re-sending every unacknowledged batch
 * (and some acknowledged ones) converges: each id once, usage counted once per stored item.
 */

const BATCHES = 48;
const SENDERS = 4;
const ACKS_BEFORE_KILL = 16;
const PER_BATCH = { issues: 2, logs: 30, trace_spans: 20, actions: 10, metrics: 10 };

type Route = typeof NATIVE | typeof SDK;
type Counts = {
  issues: number;
  logs: number;
  trace_spans: number;
  actions: number;
  metrics?: number;
  already_accepted: number;
};
type Batch = {
  route: Route;
  body: unknown;
  ids: Record<TelemetryTable, string[]>;
  total: number;
};

/** A batch of every kind its route takes, each item with an id the client chose. */
function makeBatch(index: number): Batch {
  const route: Route = index % 2 === 0 ? NATIVE : SDK;
  const traceId = randomBytes(16).toString('hex');
  const n = (count: number, make: (i: number) => Record<string, unknown> & { id: string }) =>
    Array.from({ length: count }, (_, i) => make(i));
  // An issue group of its own: the state transaction that commits the batch creates it.
  const issues = n(PER_BATCH.issues, (i) =>
    issueItem({ message: `crash ${index}/${i}`, fingerprint: `crash-batch-${index}` }),
  );
  const logs = n(PER_BATCH.logs, (i) =>
    logItem({ message: `batch ${index} log ${i}`, attributes: { batch: index, i } }),
  );
  const spans = n(PER_BATCH.trace_spans, (i) =>
    spanItem({ trace_id: traceId, name: `GET /batch/${index}/${i}` }),
  );
  const actions = n(PER_BATCH.actions, (i) => actionItem({ session_id: `s-${index}-${i}` }));
  const metrics = route === SDK ? n(PER_BATCH.metrics, (i) => metricItem({ value: i })) : [];
  const ids = {
    issue_occurrences: issues.map((x) => x.id),
    logs: logs.map((x) => x.id),
    spans: spans.map((x) => x.id),
    actions: actions.map((x) => x.id),
    metric_samples: metrics.map((x) => x.id),
    issues: [],
  };
  const total = issues.length + logs.length + spans.length + actions.length + metrics.length;
  const body =
    route === NATIVE
      ? nativeBody({ issues, logs, trace_spans: spans, actions })
      : sdkBody(
          [
            ...issues.map((x) => sdkEvent('issue', x)),
            ...logs.map((x) => sdkEvent('log', x)),
            ...spans.map((x) => sdkEvent('trace_span', x)),
            ...actions.map((x) => sdkEvent('action', x)),
            ...metrics.map((x) => sdkEvent('metric', x)),
          ],
          // Counted once per batch that stores a new event, never again on a re-send.
          { dropped_events: [{ reason: 'queue_overflow', events: 1 }] },
        );
  return { route, body, ids, total };
}

/** The answer's counts on a 200; null when the connection died (the outcome is unknown). */
async function send(baseUrl: string, key: string, batch: Batch): Promise<Counts | null> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${batch.route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(batch.body),
    });
  } catch {
    return null;
  }
  let text: string;
  try {
    text = await res.text();
  } catch {
    return null;
  }
  if (res.status !== 200) throw new Error(`unexpected ${res.status}: ${text}`);
  return JSON.parse(text) as Counts;
}

const TABLES: TelemetryTable[] = [
  'issue_occurrences',
  'logs',
  'spans',
  'actions',
  'metric_samples',
];

/**
 * What the store holds of each batch: all of it (each id once) or none; anything else fails.
 * One read per table for every batch (a store in another process is opened per read).
 */
async function storedStates(
  data: StoredData,
  projectId: string,
  batches: Batch[],
): Promise<('all' | 'none')[]> {
  const counts: number[][] = batches.map(() => []);
  for (const t of TABLES) {
    const ids = batches.flatMap((b) => b.ids[t]);
    if (ids.length === 0) continue;
    const found = await idCounts(data, t, projectId, ids);
    let k = 0;
    batches.forEach((b, i) => {
      for (const _id of b.ids[t]) counts[i]?.push(found[k++] ?? 0);
    });
  }
  return counts.map((c) => {
    if (c.every((n) => n === 1)) return 'all';
    if (c.every((n) => n === 0)) return 'none';
    throw new Error(`batch half stored or duplicated: ${JSON.stringify(c)}`);
  });
}

/** The answer to a batch: new items per stream, or all of it already accepted. */
function expectedAnswer(batch: Batch, storedBefore: boolean): Counts {
  if (storedBefore) {
    return {
      issues: 0,
      logs: 0,
      trace_spans: 0,
      actions: 0,
      ...(batch.route === SDK ? { metrics: 0 } : {}),
      already_accepted: batch.total,
    };
  }
  return {
    issues: batch.ids.issue_occurrences.length,
    logs: batch.ids.logs.length,
    trace_spans: batch.ids.spans.length,
    actions: batch.ids.actions.length,
    ...(batch.route === SDK ? { metrics: batch.ids.metric_samples.length } : {}),
    already_accepted: 0,
  };
}

describe('a crash during ingestion', () => {
  let svc: ServiceProcess;
  beforeAll(async () => {
    svc = await startServiceProcess();
  }, 120_000);
  afterAll(async () => {
    await svc.dispose();
  });

  it('keeps every acknowledged item once, stores no half batch, and converges on retry', async () => {
    const creds = svc.credentials();
    const project = creds.projects[0];
    if (!project) throw new Error('no demo project');
    const key = project.ingest_key;
    const batches = Array.from({ length: BATCHES }, (_, i) => makeBatch(i));

    // Senders stream batches until the service dies under them.
    const acked = new Map<number, Counts>();
    let next = 0;
    let reachedAcks: () => void = () => undefined;
    const enoughAcks = new Promise<void>((resolve) => (reachedAcks = resolve));
    const sender = async () => {
      while (next < BATCHES) {
        const index = next++;
        const batch = batches[index];
        if (!batch) return;
        const counts = await send(svc.baseUrl, key, batch);
        if (counts === null) return;
        acked.set(index, counts);
        if (acked.size >= ACKS_BEFORE_KILL) reachedAcks();
      }
    };
    const senders = Array.from({ length: SENDERS }, () => sender());

    // Once enough are acknowledged, one more batch whose answer is treated as lost (a client
    // timeout): the kill waits until it is committed, so "stored, but no 200" is always
    // taken, while the other senders have their requests in flight.
    await enoughAcks;
    const lost = next++;
    const lostBatch = batches[lost];
    if (!lostBatch) throw new Error('no batch left to lose');
    const lostAnswer = send(svc.baseUrl, key, lostBatch);
    // Its issue group is created in the state transaction that commits it (the telemetry is
    // in ClickHouse, written before that commit, and the engine's files are the service's
    // meanwhile).
    const committed = async () =>
      (
        await storedRows<{ n: number }>(
          svc,
          'SELECT COUNT(*) AS n FROM issues WHERE project_id = ? AND fingerprint = ?',
          [project.id, `crash-batch-${lost}`],
        )
      )[0]?.n === 1;
    while (!(await committed())) await new Promise((r) => setImmediate(r));
    const ackedBeforeKill = acked.size;
    await svc.kill();
    await Promise.all(senders);
    await lostAnswer;
    acked.delete(lost);
    expect(ackedBeforeKill).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);
    expect(acked.size).toBeLessThan(BATCHES - 1);

    // What the kill left, once the service has started on it again (with logs on ClickHouse,
    // the start removes what unacknowledged batches wrote there) and stopped (the embedded
    // engine's files are read only while no service holds them): every acknowledged batch
    // whole, each id once; no batch half stored.
    await svc.start();
    await svc.stop();
    const storedAtKill = await storedStates(svc, project.id, batches);
    for (const index of acked.keys()) expect(storedAtKill[index], `batch ${index}`).toBe('all');
    expect(storedAtKill[lost]).toBe('all');
    for (const [index, counts] of acked) {
      const batch = batches[index];
      if (batch) expect(counts, `batch ${index}`).toMatchObject(expectedAnswer(batch, false));
    }

    // Start again on the same data; every batch without a 200 is sent again with its ids, and
    // so are a few that had one: each answer says exactly what the crash left.
    await svc.start();
    const resend = batches
      .map((_, index) => index)
      .filter((index) => !acked.has(index))
      .concat([...acked.keys()].slice(0, 3));
    const queue = [...resend];
    const answers = new Map<number, Counts | null>();
    await Promise.all(
      Array.from({ length: SENDERS }, async () => {
        for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
          const batch = batches[index];
          if (batch) answers.set(index, await send(svc.baseUrl, key, batch));
        }
      }),
    );
    for (const index of resend) {
      const batch = batches[index];
      if (!batch) continue;
      expect(answers.get(index), `batch ${index}`).toMatchObject(
        expectedAnswer(batch, storedAtKill[index] === 'all'),
      );
    }
    // A second re-send of everything is all already accepted.
    const again = batches[lost];
    if (again)
      expect(await send(svc.baseUrl, key, again)).toMatchObject(expectedAnswer(again, true));

    // Read back through the service: the lost batch's items are served.
    const lostLog = lostBatch.ids.logs[0] ?? '';
    const logRead = await fetch(`${svc.baseUrl}/api/logs/${lostLog}`, {
      headers: { authorization: `Bearer ${creds.account_token}` },
    });
    expect(logRead.status).toBe(200);

    // Usage counted each stored item once, across the crash and the re-sends.
    const usageRes = await fetch(`${svc.baseUrl}/api/account/usage?response_version=2`, {
      headers: { authorization: `Bearer ${creds.account_token}` },
    });
    expect(usageRes.status).toBe(200);
    const usage = (await usageRes.json()) as {
      by_project: { project_id: string; events: number }[];
      by_stream: { kind: string; events: number }[];
      sdk_dropped_events: { project_id: string; reason: string; events: number }[];
    };
    const sum = (pick: (b: Batch) => number) => batches.reduce((n, b) => n + pick(b), 0);
    const sdkBatches = batches.filter((b) => b.route === SDK).length;
    expect(usage.by_project.find((p) => p.project_id === project.id)?.events).toBe(
      sum((b) => b.total),
    );
    const byStream = Object.fromEntries(usage.by_stream.map((s) => [s.kind, s.events]));
    expect(byStream).toEqual({
      issues: sum((b) => b.ids.issue_occurrences.length),
      logs: sum((b) => b.ids.logs.length),
      traces: sum((b) => b.ids.spans.length),
      actions: sum((b) => b.ids.actions.length),
      metrics: sum((b) => b.ids.metric_samples.length),
    });
    expect(usage.sdk_dropped_events).toEqual([
      { project_id: project.id, reason: 'queue_overflow', events: sdkBatches },
    ]);

    // After an orderly stop, the store holds each id exactly once and nothing else.
    await svc.stop();
    expect(await storedStates(svc, project.id, batches)).toEqual(batches.map(() => 'all'));
    const counts = await tableCounts(svc, project.id);
    const rows = Object.fromEntries(TABLES.map((t) => [t, counts[t] ?? -1]));
    expect(rows).toEqual({
      issue_occurrences: sum((b) => b.ids.issue_occurrences.length),
      logs: sum((b) => b.ids.logs.length),
      spans: sum((b) => b.ids.spans.length),
      actions: sum((b) => b.ids.actions.length),
      metric_samples: sum((b) => b.ids.metric_samples.length),
    });
  }, 180_000);
});
