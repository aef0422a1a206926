import { useRef, useState } from 'react';

type Settled = { onSuccess: () => void; onError: () => void };

/**
 * Sends one change at a time without ever losing one the person asked for. A change asked for
 * while another is on its way is kept (merged with any change already kept) and sent when the
 * answer arrives. After a failure the kept change is dropped: a failed change may still have
 * happened, so the issue is read again before anything else is sent (spec, Issue changes
 * rule 4), and the failure is shown beside the controls. `waiting` is what is kept, so the
 * controls show it while it waits.
 */
export function useSerialSender<T>(
  send: (value: T, settled: Settled) => void,
  merge: (kept: T, next: T) => T,
) {
  const inFlight = useRef(false);
  const kept = useRef<T | null>(null);
  const [waiting, setWaiting] = useState<T | null>(null);

  const start = (value: T) => {
    inFlight.current = true;
    send(value, {
      onSuccess: () => {
        inFlight.current = false;
        const next = kept.current;
        kept.current = null;
        setWaiting(null);
        if (next !== null) start(next);
      },
      onError: () => {
        inFlight.current = false;
        kept.current = null;
        setWaiting(null);
      },
    });
  };

  const request = (value: T) => {
    if (!inFlight.current) {
      start(value);
      return;
    }
    kept.current = kept.current === null ? value : merge(kept.current, value);
    setWaiting(kept.current);
  };

  return { request, waiting };
}
