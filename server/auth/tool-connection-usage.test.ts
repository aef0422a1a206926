import { describe, expect, it } from 'vitest';
import type { Deps } from '../core/deps';
import type { ToolConnectionUses } from '../core/store/state/tool-connections';
import {
  FLUSH_EVERY_MS,
  flushToolConnectionUses,
  recordToolConnectionUse,
} from './tool-connection-usage';

const DAY = 86_400_000;

/** Deps with a clock and a store that records each write of uses. */
function fakeDeps(start: number) {
  let now = start;
  const writes: ToolConnectionUses[][] = [];
  const deps = {
    now: () => now,
    log: { info: () => undefined, error: () => undefined },
    store: {
      toolConnections: {
        recordUses: (uses: readonly ToolConnectionUses[]) => {
          writes.push([...uses]);
          return Promise.resolve();
        },
      },
    },
  } as unknown as Deps;
  return { deps, writes, advance: (ms: number) => (now += ms) };
}

describe('tool connection uses', () => {
  it('are written once a minute, not once per request', async () => {
    const { deps, writes, advance } = fakeDeps(10 * DAY + 1000);
    for (let i = 0; i < 50; i++) recordToolConnectionUse(deps, 'c1');
    recordToolConnectionUse(deps, 'c2');
    expect(writes).toHaveLength(0);
    advance(FLUSH_EVERY_MS);
    recordToolConnectionUse(deps, 'c1');
    await flushToolConnectionUses(deps); // waits for the write the last use started
    expect(writes).toHaveLength(1);
    expect(writes[0]).toEqual([
      { id: 'c1', day: 10, uses: 51, lastUsedAt: 10 * DAY + 1000 + FLUSH_EVERY_MS },
      { id: 'c2', day: 10, uses: 1, lastUsedAt: 10 * DAY + 1000 },
    ]);
  });

  it('counts each UTC day apart, and a read of the list writes what is pending', async () => {
    const { deps, writes, advance } = fakeDeps(11 * DAY - 1000);
    recordToolConnectionUse(deps, 'c1');
    advance(2000);
    recordToolConnectionUse(deps, 'c1');
    await flushToolConnectionUses(deps);
    expect(writes).toEqual([
      [
        { id: 'c1', day: 10, uses: 1, lastUsedAt: 11 * DAY - 1000 },
        { id: 'c1', day: 11, uses: 1, lastUsedAt: 11 * DAY + 1000 },
      ],
    ]);
    await flushToolConnectionUses(deps);
    expect(writes).toHaveLength(1);
  });
});
