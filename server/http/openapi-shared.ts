import { z } from '@hono/zod-openapi';

export const NextActionSchema = z
  .object({ code: z.string(), target: z.string().optional() })
  .catchall(z.unknown())
  .openapi('NextAction', {
    description: 'Typed recovery action. Branch on `code` and `target`; follow only known pairs.',
  });

export const ErrorEnvelopeSchema = z
  .object({
    error: z.string().openapi({ description: 'Short plain-text problem. Never parse it.' }),
    code: z
      .string()
      .openapi({ description: 'Stable error code; branch on it with the HTTP status.' }),
    next: z.string().openapi({ description: 'Human recovery step. Never parse it.' }),
    next_action: NextActionSchema,
  })
  .catchall(z.unknown())
  .openapi('ErrorEnvelope');

const descriptions: Record<number, string> = {
  400: 'Unreadable request (`invalid_json`, `invalid_path`).',
  401: 'Missing, invalid or expired credential (`unauthorized`).',
  403: 'No access to the resource or action (`forbidden`, `role_forbidden`).',
  404: 'Unknown or unreadable resource (`not_found`).',
  409: 'Idempotency-Key reused for a different request (`idempotency_conflict`).',
  413: 'Body too large (`invalid_json`).',
  415: 'Body is not JSON (`invalid_json`).',
  422: 'A value, field, header or query key is invalid (`validation_failed`, `invalid_json`).',
  429: 'Too many requests (`rate_limited`).',
};

/** The error responses a route can give, all in the spec's envelope. */
export function errorResponses(...statuses: (keyof typeof descriptions)[]) {
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description: descriptions[s] ?? 'Error',
        content: { 'application/json': { schema: ErrorEnvelopeSchema } },
      },
    ]),
  ) as Record<
    number,
    { description: string; content: { 'application/json': { schema: typeof ErrorEnvelopeSchema } } }
  >;
}

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

type Security = Record<string, string[]>[];
export const bearerSecurity: Security = [{ accountBearer: [] }];
export const bearerOrSessionSecurity: Security = [{ accountBearer: [] }, { browserSession: [] }];

export const UuidParam = (name: string) =>
  z.string().openapi({
    param: { name, in: 'path' },
    format: 'uuid',
    example: '3f0c6c35-4c7e-4c7a-9a3e-2b8b1f0e8a11',
  });

/**
 * A named (registered) schema or `null`. `.nullable()` on a registered schema comes out of
 * the OpenAPI document wrong: as the bare `$ref` (null lost) or as `allOf` with a null type
 * (which no value satisfies); a union gives `anyOf: [{$ref}, {type: null}]`.
 */
export const orNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);
