import { describe, expect, it } from 'vitest';
import {
  countUnseen,
  emptyLiveEvents,
  eventSummary,
  eventTime,
  markSeen,
  mergeEvents,
  selectEvents,
} from './live-events';
import type { LiveEvent, LiveEventType } from './live-message';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';

function ev(
  id: string,
  projectId = A,
  type: LiveEventType = 'native_log',
  extra: Record<string, unknown> = {},
): LiveEvent {
  return { type, data: { id, project_id: projectId, ...extra } };
}

const ids = (events: readonly { data: { id: string } }[]) => events.map((e) => e.data.id);

describe('live events', () => {
  it('merges by id: a known id replaces its event and moves it to the newest', () => {
    let s = mergeEvents(emptyLiveEvents, [ev('1'), ev('2'), ev('3')]);
    s = mergeEvents(s, [ev('1', A, 'native_log', { message: 'again' })]);
    expect(s.entries.size).toBe(3);
    expect(ids(selectEvents(s))).toEqual(['1', '3', '2']);
    expect(selectEvents(s)[0]?.data.message).toBe('again');
  });

  it('keeps the same id of two kinds apart', () => {
    const s = mergeEvents(emptyLiveEvents, [ev('1'), ev('1', A, 'native_action')]);
    expect(s.entries.size).toBe(2);
  });

  it('keeps only the newest events', () => {
    const many = Array.from({ length: 12 }, (_, i) => ev(String(i), i % 2 ? A : B));
    const s = mergeEvents(emptyLiveEvents, many, 10);
    expect(s.entries.size).toBe(10);
    expect(ids(selectEvents(s)).slice(-2)).toEqual(['3', '2']);
    // Dropped events no longer count as unseen.
    expect(countUnseen(s, null)).toBe(10);
    expect(countUnseen(s, [A]) + countUnseen(s, [B])).toBe(10);
  });

  it('selects by type and project_id, newest first, with a limit', () => {
    const s = mergeEvents(emptyLiveEvents, [
      ev('1', A),
      ev('2', B),
      ev('3', A, 'native_issue'),
      ev('4', B, 'native_trace_span'),
      ev('5', A),
    ]);
    expect(ids(selectEvents(s, { type: 'native_log' }))).toEqual(['5', '2', '1']);
    expect(ids(selectEvents(s, { projectIds: [A] }))).toEqual(['5', '3', '1']);
    expect(ids(selectEvents(s, { type: 'native_log', projectIds: [B] }))).toEqual(['2']);
    expect(ids(selectEvents(s, { projectIds: null, limit: 2 }))).toEqual(['5', '4']);
    expect(selectEvents(s, { projectIds: [] })).toEqual([]);
  });

  it('counts unseen events per scope and marks a scope seen', () => {
    let s = mergeEvents(emptyLiveEvents, [ev('1', A), ev('2', A), ev('3', B)]);
    expect(countUnseen(s, null)).toBe(3);
    expect(countUnseen(s, [A])).toBe(2);
    expect(countUnseen(s, [B, B])).toBe(1);

    s = markSeen(s, [A]);
    expect(countUnseen(s, [A])).toBe(0);
    expect(countUnseen(s, [B])).toBe(1);
    expect(selectEvents(s, { projectIds: [A] }).every((e) => e.seen)).toBe(true);

    // Seen again when it comes again (a new occurrence of an issue, say).
    s = mergeEvents(s, [ev('1', A)]);
    expect(countUnseen(s, [A])).toBe(1);
    // Replacing an unseen event does not count it twice.
    s = mergeEvents(s, [ev('3', B)]);
    expect(countUnseen(s, [B])).toBe(1);

    s = markSeen(s, null);
    expect(countUnseen(s, null)).toBe(0);
    expect(markSeen(s, null)).toBe(s);
  });

  it('says what a row shows, as plain text from the record', () => {
    expect(eventSummary(ev('1', A, 'native_log', { message: '<b>boom</b>' }))).toBe('<b>boom</b>');
    expect(eventSummary(ev('1', A, 'native_issue', { title: 'TypeError', message: 'x' }))).toBe(
      'TypeError',
    );
    expect(eventSummary(ev('1', A, 'native_trace_span', { name: 'GET /cart' }))).toBe('GET /cart');
    expect(eventSummary(ev('1', A, 'native_action', {}))).toBe('(unnamed action)');
    expect(eventTime(ev('1', A, 'native_issue', { last_seen_at: '2025-01-01T00:00:00Z' }))).toBe(
      '2025-01-01T00:00:00Z',
    );
  });
});
