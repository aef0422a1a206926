/** A UUID's text, either case (spec "Conventions"): a regular expression without flags. */
export const UUID_SOURCE =
  '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const UUID = new RegExp(`^${UUID_SOURCE}$`);

/** Record ids are UUID strings (spec "Conventions"); compared lowercased. */
export const isUuid = (value: string): boolean => UUID.test(value);
