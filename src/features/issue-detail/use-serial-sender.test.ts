import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useSerialSender } from './use-serial-sender';

type Change = { status?: string; priority?: string };
type Call = { value: Change; onSuccess: () => void; onError: () => void };

function setup() {
  const calls: Call[] = [];
  const hook = renderHook(() =>
    useSerialSender<Change>(
      (value, settled) => calls.push({ value, ...settled }),
      (kept, next) => ({ ...kept, ...next }),
    ),
  );
  return { calls, hook };
}

describe('useSerialSender', () => {
  it('sends a change asked for while another saves once that one succeeds, merged with any other kept', () => {
    const { calls, hook } = setup();
    act(() => hook.result.current.request({ status: 'resolved' }));
    act(() => hook.result.current.request({ priority: 'low' }));
    act(() => hook.result.current.request({ status: 'archived' }));
    expect(calls.map((c) => c.value)).toEqual([{ status: 'resolved' }]);
    expect(hook.result.current.waiting).toEqual({ priority: 'low', status: 'archived' });

    act(() => calls[0]?.onSuccess());
    expect(calls.map((c) => c.value)).toEqual([
      { status: 'resolved' },
      { priority: 'low', status: 'archived' },
    ]);
    expect(hook.result.current.waiting).toBeNull();

    act(() => calls[1]?.onSuccess());
    act(() => hook.result.current.request({ priority: 'high' }));
    expect(calls).toHaveLength(3);
  });

  it('drops the kept change after a failure, so nothing is sent before the issue is read again', () => {
    const { calls, hook } = setup();
    act(() => hook.result.current.request({ status: 'resolved' }));
    act(() => hook.result.current.request({ priority: 'low' }));
    act(() => calls[0]?.onError());
    expect(calls).toHaveLength(1);
    expect(hook.result.current.waiting).toBeNull();

    act(() => hook.result.current.request({ priority: 'medium' }));
    expect(calls.map((c) => c.value)).toEqual([{ status: 'resolved' }, { priority: 'medium' }]);
  });
});
