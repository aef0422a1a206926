const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Record ids are UUID strings (spec "Conventions"); compared lowercased. */
export const isUuid = (value: string): boolean => UUID.test(value);
