import { SlugTakenError } from '../../../core/store/state/slug-taken';

const UNIQUE_VIOLATION = '23505';

/** Runs an insert, turning a unique violation of `constraint` (a slug) into SlugTakenError. */
export async function slugTakenOn<T>(
  write: Promise<T>,
  constraint: string,
  slug: string,
): Promise<T> {
  try {
    return await write;
  } catch (err) {
    const e = err as { code?: string; constraint?: string };
    if (e.code === UNIQUE_VIOLATION && e.constraint === constraint) throw new SlugTakenError(slug);
    throw err;
  }
}
