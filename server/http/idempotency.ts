import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { isValidIdempotencyKey } from '../domain/idempotency-key';
import { fail } from '../core/api-error';
import { ReplayTakenError } from '../core/store/state/replay-taken';
import type { IdempotencyReceipt } from '../core/store/state/idempotency';
import type { AppEnv } from './app-env';
import type { Deps } from '../core/deps';

const inFlight = new Map<string, Promise<unknown>>();

/**
 * How long a key is remembered. A replay must return the same result, which for an ingest
 * key includes its secret value, so stored replays are kept only for a day.
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The replay record of a create's result (null without a key), for the create to pass to
 * its store write so that both are one transaction. Give it exactly what the create returns.
 */
export type Remember = (result: unknown) => IdempotencyReceipt | null;

/**
 * Runs a create with the spec's optional `Idempotency-Key`: the same key and body replays
 * the stored result; the same key with another body is `409 idempotency_conflict`.
 * Retries of one key are serialized so two concurrent sends cannot both create. After the
 * window a key may be used for new work. The create hands `remember(result)` to its store
 * write, which stores the replay record in the same transaction: two writes would leave,
 * after a crash between them, a created resource that a retry with the key creates again.
 */
export async function withIdempotency<T>(
  deps: Deps,
  c: Context<AppEnv>,
  route: string,
  body: unknown,
  create: (remember: Remember) => Promise<T>,
): Promise<T> {
  const key = c.req.header('idempotency-key');
  if (key === undefined) return create(() => null);
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
  /** The stored result of the key, or undefined when it has none. */
  const replay = async (): Promise<T | undefined> => {
    const stored = await deps.store.idempotency.get(scope, key, deps.now() - IDEMPOTENCY_WINDOW_MS);
    if (!stored) return undefined;
    if (stored.requestHash !== requestHash) throw fail.idempotencyConflict();
    return JSON.parse(stored.response) as T;
  };
  const work = (async () => {
    const stored = await replay();
    if (stored !== undefined) return stored;
    let remembered = false;
    let result: T;
    try {
      result = await create((r) => {
        remembered = true;
        return {
          scope,
          key,
          record: { requestHash, status: 200, response: JSON.stringify(r) },
          at: deps.now(),
        };
      });
    } catch (err) {
      // Another instance's create with this key stored its result first; ours rolled back.
      if (!(err instanceof ReplayTakenError)) throw err;
      const theirs = await replay();
      if (theirs === undefined) throw err;
      return theirs;
    }
    if (!remembered) throw new Error(`${route} did not hand its result to its store write`);
    return result;
  })();
  inFlight.set(lockKey, work);
  try {
    return await work;
  } finally {
    inFlight.delete(lockKey);
  }
}
