/**
 * A read request broke one of the spec's common read rules. Kept free of HTTP so the rules
 * stay pure; the route layer maps `invalid` to 422 `validation_failed` and `not_found` to 404.
 * `next` replaces the route's usual recovery text where the spec names one.
 */
export class ReadRuleError extends Error {
  constructor(
    readonly kind: 'invalid' | 'not_found',
    message: string,
    readonly next?: string,
  ) {
    super(message);
    this.name = 'ReadRuleError';
  }
}

export const invalid = (message: string, next?: string) =>
  new ReadRuleError('invalid', message, next);
