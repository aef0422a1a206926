/** Spec: an Idempotency-Key is 1 to 128 visible ASCII characters (0x21 to 0x7E). */
export function isValidIdempotencyKey(value: string): boolean {
  return /^[\x21-\x7e]{1,128}$/.test(value);
}
