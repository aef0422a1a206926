import { describe, expect, it } from 'vitest';
import type { SendableBatch } from './encoded-batch';
import { generateDemoWorld } from './generate-world';
import { startDemoWorld } from './start-demo-world';

const OPTS = { seed: 7, now: Date.parse('2026-11-20T15:04:05.678Z'), scale: 0.02 };

const bodyText = (b: SendableBatch) =>
  b.body instanceof Uint8Array ? new TextDecoder().decode(b.body) : JSON.stringify(b.body);

async function collect(worker: boolean) {
  const source = startDemoWorld(OPTS, { worker });
  const batches: SendableBatch[] = [];
  for await (const b of source.batches) batches.push(b);
  return { batches, summary: await source.summary, thread: source.thread() };
}

describe('starting the demo world', () => {
  const world = generateDemoWorld(OPTS);
  const expected = world.batches.map((b) => ({
    project: b.project,
    stream: b.stream,
    items: b.items,
    path: b.path,
    body: JSON.stringify(b.body),
  }));

  it.each([true, false])(
    'hands over the same requests as generating it whole (worker: %s)',
    async (worker) => {
      const got = await collect(worker);
      expect(got.thread).toBe(worker ? 'worker' : 'main');
      expect(
        got.batches.map((b) => ({
          project: b.project,
          stream: b.stream,
          items: b.items,
          path: b.path,
          body: bodyText(b),
        })),
      ).toEqual(expected);
      expect(got.summary.counts).toEqual(world.counts);
      expect(got.summary.deployments).toEqual(world.deployments);
      expect(got.summary.traceCount).toBe(world.traceCount);
    },
    30_000,
  );
});
