import type { Context, MiddlewareHandler } from 'hono';
import { hashToken, tokenPrefix } from '../domain/secrets';
import { bearerOf } from './account-auth';
import { fail, type ApiError } from '../core/api-error';
import type { AppEnv } from './app-env';
import type { Deps } from '../core/deps';

export type IngestRoute = 'sdk' | 'native';

const configureKey = { code: 'configure_ingest_key', target: 'project_ingest_key' };

/**
 * The SDK route's answer when there is no ingest key at all (spec: `/v1/events` with a missing
 * bearer or one that is not an ingest key gives `401 unauthorized`). The recovery is the same
 * as for a bad key, so it carries the ingest key's next_action, not `sign_in`.
 */
function notAnIngestKey(missing: boolean): ApiError {
  return fail.unauthorized(
    missing ? 'ingest bearer is missing' : 'the bearer is not an ingest key',
    'Send a project ingest key as Authorization: Bearer <ingest key>; account tokens are not accepted here.',
    configureKey,
  );
}

/**
 * Requires a project ingest key as `Authorization: Bearer <key>` and sets `ingestKey`.
 * - SDK route (`/v1/events`): missing bearer, or a bearer that is not an ingest key (any value
 *   without the `lk_ik_` prefix, such as an account token) -> `401 unauthorized`.
 * - Native route: missing, unknown or not an ingest key -> `401 ingest_key_invalid`.
 * - Both: an unknown `lk_ik_` value, or a revoked or expired key -> `401 ingest_key_invalid`.
 * The route still checks the key's project against the project the request writes to
 * (`requireIngestProject`).
 */
export function requireIngestKey(
  deps: Deps,
  opts: { route: IngestRoute },
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('ingestKey', await authenticateIngestKey(deps, c, opts.route));
    await next();
  };
}

/** The check of `requireIngestKey`, for routes that answer its errors in their own format (OTLP). */
export async function authenticateIngestKey(
  deps: Deps,
  c: Context<AppEnv>,
  route: IngestRoute,
): Promise<{ projectId: string; keyId: string }> {
  const bearer = bearerOf(c.req.header('authorization'));
  const looksLikeIngestKey = bearer?.startsWith(tokenPrefix.ingest) ?? false;
  if (!bearer || !looksLikeIngestKey) {
    throw route === 'sdk' ? notAnIngestKey(!bearer) : fail.ingestKeyInvalid();
  }
  const key = await deps.store.projects.ingestKeyByHash(hashToken(bearer));
  if (!key) throw fail.ingestKeyInvalid();
  const now = deps.now();
  const revoked = key.revokedAt !== null && key.revokedAt <= now;
  const expired = key.expiresAt !== null && key.expiresAt <= now;
  if (revoked || expired) throw fail.ingestKeyInvalid();
  return { projectId: key.projectId, keyId: key.id };
}

/** A key is valid only for its project: another project in the request is `ingest_key_invalid`. */
export function requireIngestProject(c: Context<AppEnv>, projectId: string): void {
  if (c.get('ingestKey').projectId !== projectId.toLowerCase()) {
    throw fail.ingestKeyInvalid('this ingest key is not valid for the project in the request');
  }
}
