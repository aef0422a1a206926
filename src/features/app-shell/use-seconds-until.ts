import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whole seconds until `at` (epoch ms), re-read a few times a second while `at` is set; null
 * when there is nothing to count down to. Never negative.
 */
export function useSecondsUntil(at: number | null): number | null {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (at === null) return () => undefined;
      const id = window.setInterval(onChange, 250);
      return () => window.clearInterval(id);
    },
    [at],
  );
  return useSyncExternalStore(subscribe, () =>
    at === null ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000)),
  );
}
