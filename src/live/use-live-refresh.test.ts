import { describe, expect, it } from 'vitest';
import { mergeEvents, markSeen, emptyLiveEvents } from './live-events';
import { arrivals } from './use-live-refresh';

const ev = (id: string) => ({ type: 'native_log' as const, data: { id, project_id: 'p' } });

describe('arrivals', () => {
  it('finds the events a merge added, and nothing when events are only marked seen', () => {
    const one = mergeEvents(emptyLiveEvents, [ev('a')]);
    const two = mergeEvents(one, [ev('b')]);
    expect(arrivals(one.entries, two.entries).map((e) => e.data.id)).toEqual(['b']);
    expect(arrivals(two.entries, markSeen(two, null).entries)).toEqual([]);
    // The same id again is a new arrival (an issue comes again with each occurrence).
    const again = mergeEvents(markSeen(two, null), [ev('a')]);
    expect(arrivals(markSeen(two, null).entries, again.entries).map((e) => e.data.id)).toEqual([
      'a',
    ]);
  });
});
