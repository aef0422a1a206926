import { useEffect, useState } from 'react';

/**
 * The current time, moving every `everyMs`: for what depends on "now" (relative ranges, ages)
 * without re-rendering on every frame.
 */
export function useTickingNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
