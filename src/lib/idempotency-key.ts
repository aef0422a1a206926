/**
 * One `Idempotency-Key` per submission: re-sending the same body (a retry) reuses the key,
 * so the service returns the first result instead of creating a second record; a changed
 * body is new work and gets a new key (reusing one would be `409 idempotency_conflict`).
 */
export type IdempotentSubmission = { key: string; body: string };

export function nextSubmission(
  previous: IdempotentSubmission | null,
  body: unknown,
  newKey: () => string = () => crypto.randomUUID(),
): IdempotentSubmission {
  const serialized = JSON.stringify(body);
  if (previous && previous.body === serialized) return previous;
  return { key: newKey(), body: serialized };
}
