import { ApiError } from '../core/api-error';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is not a UUID cannot be read: `400 invalid_path` (never moved to a query key). */
export function readPathUuid(value: string | undefined, name: string): string {
  if (value === undefined || !uuid.test(value)) {
    throw new ApiError({
      status: 400,
      code: 'invalid_path',
      error: `path value ${name} is not a UUID`,
      next: `Put the ${name} UUID in the path as returned by the service.`,
      nextAction: { code: 'fix_request', target: 'request' },
    });
  }
  return value.toLowerCase();
}
