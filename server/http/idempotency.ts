import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { isValidIdempotencyKey } from '../domain/idempotency-key';
import { fail } from './api-error';
import type { AppEnv, Deps } from './app-env';

const inFlight = new Map<string, Promise<unknown>>();

/**
 * How long a key is remembered. A replay must return the same result, which for an ingest
 * key includes its secret value, so stored replays are kept only for a day.
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Runs a create with the spec's optional `Idempotency-Key`: the same key and body replays
 * the stored result; the same key with another body is `409 idempotency_conflict`.
 * Retries of one key are serialized so two concurrent sends cannot both create. After the
 * window a key may be used for new work.
 */
export async function withIdempotency<T>(
  deps: Deps,
  c: Context<AppEnv>,
  route: string,
  body: unknown,
  create: () => Promise<T>,
): Promise<T> {
  const key = c.req.header('idempotency-key');
  if (key === undefined) return create();
  if (!isValidIdempotencyKey(key)) {
    throw fail.validation(
      'Idempotency-Key must be 1 to 128 visible ASCII characters',
      'Send a key of 1 to 128 visible ASCII characters, or omit the header.',
    );
  }
  const scope = `${c.get('principal').accountId}:${route}`;
  const requestHash = createHash('sha256')
    .update(`${route}\n${JSON.stringify(body)}`)
    .digest('hex');
  const lockKey = `${scope}\n${key}`;
  while (inFlight.has(lockKey)) await inFlight.get(lockKey)?.catch(() => undefined);
  const work = (async () => {
    const stored = await deps.store.idempotency.get(scope, key, deps.now() - IDEMPOTENCY_WINDOW_MS);
    if (stored) {
      if (stored.requestHash !== requestHash) throw fail.idempotencyConflict();
      return JSON.parse(stored.response) as T;
    }
    const result = await create();
    await deps.store.idempotency.put(
      scope,
      key,
      { requestHash, status: 201, response: JSON.stringify(result) },
      deps.now(),
    );
    return result;
  })();
  inFlight.set(lockKey, work);
  try {
    return await work;
  } finally {
    inFlight.delete(lockKey);
  }
}
