/**
 * A read request broke one of the spec's common read rules. Kept free of HTTP so the rules
 * stay pure; the route layer maps `invalid` to 422 `validation_failed` and `not_found` to 404.
 */
export class ReadRuleError extends Error {
  constructor(
    readonly kind: 'invalid' | 'not_found',
    message: string,
  ) {
    super(message);
    this.name = 'ReadRuleError';
  }
}

export const invalid = (message: string) => new ReadRuleError('invalid', message);
