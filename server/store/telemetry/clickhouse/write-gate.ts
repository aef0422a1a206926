/**
 * Lets many writes run side by side, or one exclusive step with none under way: a backup's
 * snapshot of every telemetry table (ALTER TABLE … FREEZE, hard links, milliseconds) runs
 * exclusive, so no batch is half in it (its logs frozen, its ids or rollup counts not yet).
 */
export type WriteGate = {
  shared<T>(fn: () => Promise<T>): Promise<T>;
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
};

export function writeGate(): WriteGate {
  let writers = 0;
  let closed: Promise<void> | null = null;
  let drained: (() => void) | null = null;
  return {
    async shared(fn) {
      while (closed) await closed;
      writers += 1;
      try {
        return await fn();
      } finally {
        writers -= 1;
        if (writers === 0) drained?.();
      }
    },
    async exclusive(fn) {
      while (closed) await closed;
      let open: () => void = () => undefined;
      closed = new Promise<void>((resolve) => (open = resolve));
      try {
        if (writers > 0) await new Promise<void>((resolve) => (drained = resolve));
        drained = null;
        return await fn();
      } finally {
        closed = null;
        open();
      }
    },
  };
}
