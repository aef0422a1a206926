import { describe, expect, it } from 'vitest';
import type { BatchWrite } from '../core/store/telemetry/telemetry-writes';
import { emptyBatch, type LogEvent } from '../core/batch';
import { coalescedWrites } from './coalesced-writes';

/** A batch of `n` logs (only their count matters here). */
const batch = (id: string, n: number): BatchWrite => ({
  batchId: id,
  projectId: `p_${id}`,
  receivedAt: 0,
  retentionDays: 30,
  items: {
    ...emptyBatch(`p_${id}`),
    issues: [],
    issueGroups: [],
    logs: Array.from({ length: n }, () => ({}) as LogEvent),
    metrics: [],
  },
});

describe('coalesced telemetry writes', () => {
  it('writes at once when idle, then everything that waited in one write, up to the cap', async () => {
    const writes: string[][] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const write = coalescedWrites(async (batches) => {
      writes.push(batches.map((b) => b.batchId));
      if (writes.length === 1) await held;
    }, 25);
    const done = [
      write([batch('a', 10)]),
      write([batch('b', 10)]),
      write([batch('c', 10), batch('d', 5)]),
      // Over the cap with b, c and d: the write after.
      write([batch('e', 1)]),
    ];
    expect(writes).toEqual([['a']]);
    release();
    await Promise.all(done);
    expect(writes).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
  });

  it("answers every caller of a failed write with its error, and the next write's callers as usual", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let n = 0;
    const write = coalescedWrites(async () => {
      n += 1;
      if (n === 1) await held;
      if (n === 2) throw new Error('insert failed');
    });
    const first = write([batch('a', 1)]);
    const joint = [write([batch('b', 1)]), write([batch('c', 1)])].map((p) =>
      p.then(
        () => 'ok',
        (e: unknown) => String(e),
      ),
    );
    release();
    await first;
    expect(await Promise.all(joint)).toEqual(['Error: insert failed', 'Error: insert failed']);
    await expect(write([batch('d', 1)])).resolves.toBeUndefined();
  });
});
