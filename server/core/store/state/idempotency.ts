export interface IdempotencyStore {
  /** The record stored for the key after `notBefore` (epoch ms); older ones are forgotten. */
  get(scope: string, key: string, notBefore: number): Promise<IdempotencyRecord | null>;
}

/**
 * The replay record of an `Idempotency-Key` create, handed to the store's create so both are
 * one write: a create whose result is not remembered must not have happened, or a retry
 * with the same key would create again.
 */
export type IdempotencyReceipt = {
  scope: string;
  key: string;
  record: IdempotencyRecord;
  at: number;
};

export type IdempotencyRecord = {
  requestHash: string;
  status: number;
  response: string;
};
