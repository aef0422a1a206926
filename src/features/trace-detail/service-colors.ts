/** How many service colours the palette holds (`--svc-0` … `--svc-9` in the page's styles). */
export const PALETTE_SIZE = 10;

/** A small stable hash of a service name (FNV-1a). */
function hash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A palette slot per service: each name has its own preferred slot (the same in every trace),
 * and when two services of one trace want the same slot the later name (by name order) takes
 * the next free one, until the palette is used up. The colour always comes with the name as
 * text, so a shared colour never confuses anyone.
 */
export function serviceColors(names: Iterable<string>): Map<string, number> {
  const sorted = [...new Set(names)].sort();
  const taken = new Set<number>();
  const out = new Map<string, number>();
  for (const name of sorted) {
    let slot = hash(name) % PALETTE_SIZE;
    if (taken.size < PALETTE_SIZE) {
      while (taken.has(slot)) slot = (slot + 1) % PALETTE_SIZE;
    }
    taken.add(slot);
    out.set(name, slot);
  }
  return out;
}
