import type { Context } from 'hono';
import type { z } from 'zod';
import { fail } from '../core/api-error';
import { isReadRuleIssue } from './read-query';

type HookResult = { success: true } | { success: false; error: z.ZodError; target: string };

/** The next step of a refused query (spec "Common read rules" 1). */
export const QUERY_NEXT = 'Send only the documented query keys with valid values.';

/** The first five problems of a failed schema check, as `path: message`. */
export function describe(error: { issues: readonly z.core.$ZodIssue[] }): string {
  return error.issues
    .slice(0, 5)
    .map((i) => {
      const where = i.path.length ? i.path.join('.') : 'value';
      if (i.code === 'unrecognized_keys')
        return `unknown key${i.keys.length > 1 ? 's' : ''} ${i.keys.join(', ')}`;
      return `${where}: ${i.message}`;
    })
    .join('; ');
}

/**
 * Turns a failed schema check into the spec's envelope. A body that is JSON but not an
 * object is `422 invalid_json` (wrong shape); a bad field, query key or header is
 * `422 validation_failed`. A query first answers what its keys declare (a value outside an
 * enum, a missing required key) as `invalid query parameters: …`; once those hold, the first
 * broken read rule answers with its own text (read-query.ts).
 */
export function validationHook(result: HookResult, _c: Context): undefined {
  if (result.success) return undefined;
  const { error, target } = result;
  if (
    target === 'json' &&
    error.issues.some((i) => i.path.length === 0 && i.code === 'invalid_type')
  ) {
    throw fail.invalidJson(
      422,
      'request body must be a JSON object',
      'Send a JSON object with the documented fields.',
    );
  }
  if (target === 'query') {
    const declared = error.issues.filter((i) => !isReadRuleIssue(i));
    const rule = error.issues.find(isReadRuleIssue);
    if (declared.length === 0 && rule) {
      throw rule.params.readRule === 'not_found'
        ? fail.notFound(rule.message)
        : fail.validation(rule.message, rule.params.next ?? QUERY_NEXT);
    }
    throw fail.validation(
      `invalid query parameters: ${describe({ issues: declared })}`,
      QUERY_NEXT,
    );
  }
  if (target === 'header') {
    throw fail.validation(`invalid header: ${describe(error)}`);
  }
  throw fail.validation(`invalid request: ${describe(error)}`);
}
