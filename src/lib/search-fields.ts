import { z } from 'zod/mini';
import { isUuid } from './project-scope';

/**
 * Pieces of the routes' search schemas. They use `zod/mini`, not `zod`: route search
 * schemas load with the first page, and zod's chainable API cannot be tree-shaken (it
 * put about 30 KB gzip into the initial JS). Every field is optional and falls back to
 * absent when the URL's value is unreadable, so one bad key never fails the page or loses
 * the others.
 */
export function lenient<T extends z.ZodMiniType>(schema: T) {
  return z.catch(z.optional(schema), undefined);
}

/** Free text of at most `max` characters that is not blank. */
export const searchText = (max: number) =>
  lenient(
    z.string().check(
      z.maxLength(max),
      z.refine((s) => s.trim() !== ''),
    ),
  );

export const searchUuid = () => lenient(z.string().check(z.refine(isUuid)));

export const searchEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  lenient(z.enum(values));

/** A string the predicate accepts (ids, ranges, lists). */
export const searchMatching = (accepts: (value: string) => boolean) =>
  lenient(z.string().check(z.refine(accepts)));

/** A whole number from `min` to `max`. */
export const searchInt = (min: number, max: number) =>
  lenient(z.int().check(z.gte(min), z.lte(max)));
