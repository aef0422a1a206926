/**
 * The create's replay record could not be written because the key already has one: a
 * concurrent create with the same Idempotency-Key (on another instance) stored its result
 * first. Nothing of this create was written; the caller replays the stored result instead.
 */
export class ReplayTakenError extends Error {
  constructor() {
    super('an Idempotency-Key replay record was stored concurrently');
    this.name = 'ReplayTakenError';
  }
}
