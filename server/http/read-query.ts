import { z } from '@hono/zod-openapi';
import { ReadRuleError } from '../domain/read-rules/read-rule-error';

/** What a read rule's zod issue carries besides its text (the spec's exact `error`). */
export type ReadRuleParams = { readRule: ReadRuleError['kind']; next?: string };

/** Whether a zod issue is a broken read rule raised by `readQuery` (not zod's own check). */
export function isReadRuleIssue(
  issue: z.core.$ZodIssue,
): issue is z.core.$ZodIssueCustom & { params: ReadRuleParams } {
  return issue.code === 'custom' && typeof issue.params?.readRule === 'string';
}

/**
 * A read route's query, declared once: the keys with their documented schemas (what
 * `server/openapi.json` says of each) and the spec's read rules, which turn the validated
 * values into the handler's request. Zod checks what the keys declare first (unknown keys,
 * required keys, enums); `rules` then runs the rules of `domain/read-rules/` in the spec's
 * order, and the first one broken becomes the answer's exact `error` text (see
 * validation-hook.ts). The handler reads the result with `c.req.valid('query')`.
 */
export function readQuery<S extends z.ZodRawShape, R>(
  shape: S,
  rules: (q: z.output<z.ZodObject<S>>) => R,
) {
  return z
    .object(shape)
    .strict()
    .transform((q, ctx) => {
      try {
        return rules(q);
      } catch (err) {
        if (!(err instanceof ReadRuleError)) throw err;
        const params: ReadRuleParams = { readRule: err.kind };
        if (err.next !== undefined) params.next = err.next;
        ctx.addIssue({ code: 'custom', message: err.message, params });
        return z.NEVER;
      }
    });
}

/** The keys a route's query schema declares (a `readQuery` or a plain object). */
export function queryKeysOf(schema: z.ZodType): string[] {
  const object = schema instanceof z.ZodPipe ? schema.in : schema;
  if (object instanceof z.ZodObject) return Object.keys(object.shape);
  throw new Error('a query schema must be an object of keys');
}
