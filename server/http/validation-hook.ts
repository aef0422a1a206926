import type { Context } from 'hono';
import type { z } from 'zod';
import { fail } from '../core/api-error';

type HookResult = { success: true } | { success: false; error: z.ZodError; target: string };

/** The first five problems of a failed schema check, as `path: message`. */
export function describe(error: z.ZodError): string {
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
 * `422 validation_failed`.
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
    throw fail.validation(
      `invalid query parameters: ${describe(error)}`,
      'Send only the documented query keys with valid values.',
    );
  }
  if (target === 'header') {
    throw fail.validation(`invalid header: ${describe(error)}`);
  }
  throw fail.validation(`invalid request: ${describe(error)}`);
}
