import type { MiddlewareHandler } from 'hono';
import type { ReadRuleError } from '../domain/read-rules/read-rule-error';
import { parseStrictQuery } from '../domain/read-rules/strict-query';
import { fail, type ApiError } from '../core/api-error';
import type { AppEnv } from './app-env';

/** A broken read rule as the spec's envelope: 422 `validation_failed` or 404 `not_found`. */
export function fromReadRule(err: ReadRuleError): ApiError {
  return err.kind === 'not_found'
    ? fail.notFound(err.message)
    : fail.validation(err.message, 'Send only the documented query keys with valid values.');
}

/**
 * Reads the raw query string before the route's schema does: Hono's parser silently keeps
 * one value of a repeated key and decodes bad percent-encoding loosely, so malformed strings,
 * repeated keys and unknown keys are refused here. Sets `strictQuery`.
 */
export function strictQuery(keys: readonly string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const url = c.req.url;
    const q = url.indexOf('?');
    const hash = url.indexOf('#');
    const raw = q === -1 ? '' : url.slice(q + 1, hash === -1 ? undefined : hash);
    c.set('strictQuery', parseStrictQuery(raw, keys));
    await next();
  };
}
