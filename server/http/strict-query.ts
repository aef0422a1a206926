import type { MiddlewareHandler } from 'hono';
import type { z } from '@hono/zod-openapi';
import type { ReadRuleError } from '../domain/read-rules/read-rule-error';
import { parseStrictQuery } from '../domain/read-rules/strict-query';
import { fail, type ApiError } from '../core/api-error';
import type { AppEnv } from './app-env';
import { queryKeysOf } from './read-query';
import { QUERY_NEXT } from './validation-hook';

/** A broken read rule as the spec's envelope: 422 `validation_failed` or 404 `not_found`. */
export function fromReadRule(err: ReadRuleError): ApiError {
  return err.kind === 'not_found'
    ? fail.notFound(err.message)
    : fail.validation(err.message, err.next ?? QUERY_NEXT);
}

/**
 * Reads the raw query string before the route's schema does: Hono's parser silently keeps
 * one value of a repeated key and decodes bad percent-encoding loosely, so malformed strings,
 * repeated keys and keys the route's query schema does not declare are refused here, before
 * any value is looked at (spec "Common read rules" 1). That is its only job: the values are
 * the schema's, and handlers read them with `c.req.valid('query')`.
 */
export function strictQuery(schema: z.ZodType): MiddlewareHandler<AppEnv> {
  const keys = queryKeysOf(schema);
  return async (c, next) => {
    const url = c.req.url;
    const q = url.indexOf('?');
    const hash = url.indexOf('#');
    const raw = q === -1 ? '' : url.slice(q + 1, hash === -1 ? undefined : hash);
    parseStrictQuery(raw, keys);
    await next();
  };
}
