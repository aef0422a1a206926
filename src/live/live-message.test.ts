import { describe, expect, it } from 'vitest';
import { parseLiveMessage } from './live-message';

const P = '5d0e5f3a-2b8c-4c61-9c1e-0a4b7e2d9f10';

describe('parseLiveMessage', () => {
  it('keeps the four known types with their data', () => {
    for (const type of ['native_log', 'native_issue', 'native_trace_span', 'native_action']) {
      const data = { id: 'e1', project_id: P, message: 'hello' };
      expect(parseLiveMessage(JSON.stringify({ type, data }))).toEqual({ type, data });
    }
  });

  it('skips unknown types without reading their data', () => {
    expect(
      parseLiveMessage(JSON.stringify({ type: 'native_metric', data: { id: 'm', project_id: P } })),
    ).toBeNull();
    expect(parseLiveMessage(JSON.stringify({ type: 'release', data: 'not even an object' }))).toBe(
      null,
    );
    expect(parseLiveMessage(JSON.stringify({ data: { id: 'x', project_id: P } }))).toBeNull();
  });

  it('skips malformed messages and never throws', () => {
    for (const raw of [
      '',
      '{',
      'null',
      '42',
      '"native_log"',
      '[]',
      JSON.stringify({ type: 'native_log' }),
      JSON.stringify({ type: 'native_log', data: null }),
      JSON.stringify({ type: 'native_log', data: [1, 2] }),
      new ArrayBuffer(4),
      undefined,
    ]) {
      expect(() => parseLiveMessage(raw)).not.toThrow();
      expect(parseLiveMessage(raw)).toBeNull();
    }
  });

  it('skips data without a string id or project_id', () => {
    const bad = [
      { project_id: P },
      { id: 'e1' },
      { id: 7, project_id: P },
      { id: 'e1', project_id: null },
      { id: '', project_id: P },
      { id: 'e1', project_id: '' },
    ];
    for (const data of bad) {
      expect(parseLiveMessage(JSON.stringify({ type: 'native_log', data }))).toBeNull();
    }
  });
});
