import type { PlannedBatch } from './plan-batches';

/**
 * A planned batch whose body is already its JSON as UTF-8 bytes: what the world worker hands
 * the sender, so neither the serializing nor the re-encoding of a string body (the request
 * would encode it again) runs on the service's main thread, and the bytes move between
 * threads without a copy.
 */
export type EncodedBatch = Omit<PlannedBatch, 'body'> & { body: Uint8Array<ArrayBuffer> };

/** A batch to send: planned (serialized when sent) or already encoded. */
export type SendableBatch = PlannedBatch | EncodedBatch;

const encoder = new TextEncoder();

/** The same bytes `JSON.stringify(batch.body)` sends, each body in its own buffer. */
export function encodeBatch(batch: PlannedBatch): EncodedBatch {
  return { ...batch, body: encoder.encode(JSON.stringify(batch.body)) };
}
