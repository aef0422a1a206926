/**
 * Bytewise order of tuples of strings and numbers, as `COLLATE "C"` orders text. Batched
 * upserts sort their rows with it, so two transactions touching the same rows lock them in
 * the same order and cannot deadlock on each other.
 */
export function byKey<T>(key: (row: T) => readonly (string | number)[]) {
  return (a: T, b: T): number => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) {
      const x = ka[i] ?? '';
      const y = kb[i] ?? '';
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  };
}
