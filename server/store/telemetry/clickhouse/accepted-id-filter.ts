import type { ItemKind } from '../../../core/store/telemetry/telemetry-writes';

/**
 * Every (project, kind, id) of the id ledger (`accepted_ids`) as a split-block Bloom filter:
 * "certainly not accepted" for almost every id of a fresh batch without a query, "maybe" for
 * the rest (and for a few per hundred thousand new ids: a false positive costs one lookup).
 * Never a false negative for a key added, so it stays exact only while every ledger row's key
 * is in it: built from the ledger when opened, added to before each write (see
 * telemetry-writes.ts). Keys of removed rows stay (a lookup, never a wrong answer).
 *
 * Each key is hashed twice with MurmurHash3 (x86, 32 bits, seed 0) over its UTF-8 bytes
 * (`keyOf`): the same function as ClickHouse's `murmurHash3_32`, so the ledger's keys are
 * hashed where they are stored and only 8 bytes per key come to this process. The first hash
 * picks a block of 512 bits (16 words, one cache line pair), the second sets one bit in each
 * of the block's words. The filter grows by segments of twice the previous capacity, so its
 * false-positive rate stays near the first's without rehashing the keys.
 */
export class AcceptedIdFilter {
  private readonly segments: Segment[] = [];
  private encoded = new Uint8Array(256);
  /** `encoded` from its second byte: where the key goes. */
  private key = this.encoded.subarray(1);
  private readonly encoder = new TextEncoder();

  constructor(capacity: number) {
    this.segments.push(segment(Math.max(MIN_CAPACITY, capacity)));
  }

  /** Keys added (with repeats). */
  get size(): number {
    return this.segments.reduce((n, s) => n + s.keys, 0);
  }

  /** The filter's memory. */
  get bytes(): number {
    return this.segments.reduce((n, s) => n + s.words.byteLength, 0);
  }

  add(projectId: string, kind: ItemKind, id: string): void {
    const len = this.encode(projectId, kind, id);
    this.addHashes(murmur3(this.encoded, 1, len), murmur3(this.encoded, 0, len + 1));
  }

  /** False only when the key was certainly never added. */
  mayHold(projectId: string, kind: ItemKind, id: string): boolean {
    const len = this.encode(projectId, kind, id);
    return this.mayHoldHashes(murmur3(this.encoded, 1, len), murmur3(this.encoded, 0, len + 1));
  }

  mayHoldHashes(h1: number, h2: number): boolean {
    for (const s of this.segments) if (holds(s, h1, h2)) return true;
    return false;
  }

  /** A key by its two hashes (as `LEDGER_HASHES` computes them in ClickHouse). */
  addHashes(h1: number, h2: number): void {
    let s = this.segments[this.segments.length - 1] as Segment;
    if (s.keys >= s.capacity) {
      s = segment(s.capacity * 2);
      this.segments.push(s);
    }
    s.keys += 1;
    const base = blockOf(s, h1);
    for (let i = 0; i < WORDS; i++) {
      const w = s.words;
      const at = base + i;
      w[at] = (w[at] as number) | bitOf(h2, i);
    }
  }

  /**
   * Writes 0x01 then the key's bytes (`projectId \0 kind \0 id`) into the reusable buffer:
   * the first hash is of the key, the second of the key after 0x01 (a prefix, so the two
   * differ from the first block on; a suffix would leave one a function of the other); the
   * key's length.
   */
  private encode(projectId: string, kind: ItemKind, id: string): number {
    const key = keyOf(projectId, kind, id);
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.encoded.length < key.length * 3 + 1) {
      this.encoded = new Uint8Array(key.length * 3 + 1);
      this.key = this.encoded.subarray(1);
    }
    this.encoded[0] = 1;
    return this.encoder.encodeInto(key, this.key).written;
  }
}

/** A key as hashed here and in ClickHouse (`LEDGER_HASHES`). */
export const keyOf = (projectId: string, kind: ItemKind, id: string): string =>
  `${projectId}\0${kind}\0${id}`;

/**
 * The two hashes of every ledger row's key, 8 bytes a row (`RowBinary`: two little-endian
 * UInt32), computed by ClickHouse as `AcceptedIdFilter` computes them.
 */
export const LEDGER_HASHES = `SELECT murmurHash3_32(k) AS h1, murmurHash3_32(concat('\\x01', k)) AS h2
  FROM (SELECT concat(project_id, '\\0', toString(kind), '\\0', id) AS k FROM accepted_ids)
  FORMAT RowBinary`;

/** Adds the keys of `LEDGER_HASHES` output to `filter`. */
export function addLedgerHashes(filter: AcceptedIdFilter, rows: Buffer): void {
  const n = rows.length >>> 3;
  if (LITTLE_ENDIAN && rows.byteOffset % 4 === 0) {
    // The rows as they are: no call per value.
    const words = new Uint32Array(rows.buffer, rows.byteOffset, n * 2);
    for (let i = 0; i < n * 2; i += 2) filter.addHashes(words[i] as number, words[i + 1] as number);
    return;
  }
  for (let at = 0; at < n * 8; at += 8)
    filter.addHashes(rows.readUInt32LE(at), rows.readUInt32LE(at + 4));
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

type Segment = { words: Uint32Array; blocks: number; capacity: number; keys: number };

/**
 * Bits per key at capacity: about 1 false positive in 100,000 lookups then (24 bits: 7 in
 * 100,000; 1M random keys, 1M others).
 */
const BITS_PER_KEY = 32;
const WORDS = 16;
const MIN_CAPACITY = 1 << 16;

function segment(capacity: number): Segment {
  const blocks = Math.ceil((capacity * BITS_PER_KEY) / (WORDS * 32));
  return { words: new Uint32Array(blocks * WORDS), blocks, capacity, keys: 0 };
}

/** The first word of the key's block: the hash's high bits scaled to the block count. */
const blockOf = (s: Segment, h1: number): number =>
  Math.floor(((h1 >>> 0) / 0x1_0000_0000) * s.blocks) * WORDS;

/** The bit the key sets in word `i` of its block (odd multipliers spread the hash). */
const bitOf = (h2: number, i: number): number => 1 << (Math.imul(h2, SALTS[i] as number) >>> 27);

function holds(s: Segment, h1: number, h2: number): boolean {
  const base = blockOf(s, h1);
  for (let i = 0; i < WORDS; i++) {
    const bit = bitOf(h2, i);
    if (((s.words[base + i] as number) & bit) === 0) return false;
  }
  return true;
}

// Odd constants of Parquet's split-block Bloom filter, and eight more of the same kind.
const SALTS = [
  0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31,
  0x9e3779b1, 0x85ebca6b, 0xc2b2ae35, 0x27d4eb2f, 0x165667b1, 0xd3a2646d, 0xfd7046c5, 0xb55a4f09,
];

/** MurmurHash3 x86 32-bit, seed 0, of `len` bytes from `from` (ClickHouse's `murmurHash3_32`). */
export function murmur3(bytes: Uint8Array, from: number, len: number): number {
  let h = 0;
  const blocks = from + (len & ~3);
  for (let i = from; i < blocks; i += 4) {
    let k =
      (bytes[i] as number) |
      ((bytes[i + 1] as number) << 8) |
      ((bytes[i + 2] as number) << 16) |
      ((bytes[i + 3] as number) << 24);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const tail = len & 3;
  if (tail > 0) {
    let k = bytes[blocks] as number;
    if (tail > 1) k |= (bytes[blocks + 1] as number) << 8;
    if (tail > 2) k |= (bytes[blocks + 2] as number) << 16;
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
  }
  h ^= len;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
