/**
 * JSON Pointers (RFC 6901) as log attribute paths use them: `/http/status`, with `~1` standing
 * for `/` and `~0` for `~` inside a key (`/app.kubernetes.io~1name`).
 */

/** The reference tokens of a pointer, or null when it is not one (no leading `/`, a bad `~`). */
export function parsePointer(path: string): string[] | null {
  if (!path.startsWith('/')) return null;
  const tokens = path.slice(1).split('/');
  if (tokens.some((t) => /~(?![01])/.test(t))) return null;
  return tokens.map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function isPointer(path: string): boolean {
  return parsePointer(path) !== null;
}

/** One key as a pointer token (`~` first, so `~1` in a key stays itself). */
export function escapeToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The pointer of a path of keys: `['http', 'status']` -> `/http/status`. */
export function pointerOf(keys: readonly string[]): string {
  return keys.map((k) => `/${escapeToken(k)}`).join('');
}

export type PointerLookup = { found: true; value: unknown } | { found: false };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The value a pointer names in an attributes object. Only object keys are followed, never
 * array indexes: attribute paths name keys (values inside arrays are not searchable).
 */
export function lookupPointer(root: unknown, path: string): PointerLookup {
  const tokens = parsePointer(path);
  if (tokens === null) return { found: false };
  let at: unknown = root;
  for (const token of tokens) {
    if (!isPlainObject(at) || !Object.hasOwn(at, token)) return { found: false };
    at = at[token];
  }
  return { found: true, value: at };
}

/**
 * How a person reads a path on screen: each key as written (`stripe/event` is one key) and
 * nesting with ` › ` (`stripe › event`). A key that could be misread — one holding `›`, empty,
 * edged with spaces, starting with a quote, or holding control characters — is shown quoted
 * (`"a › b"`), so the two can never be confused and a person never reads `~1`.
 */
export const KEY_SEPARATOR = ' › ';

// eslint-disable-next-line no-control-regex
const MISREADABLE_KEY = /›|^"|^\s|\s$|[\u0000-\u001f\u007f]/;

/** One key as shown: as written, or quoted (JSON) when it could be misread. */
export function displayKey(key: string): string {
  return key === '' || MISREADABLE_KEY.test(key) ? JSON.stringify(key) : key;
}

/** The keys of a pointer as shown, or null when it is not a pointer. */
export function displayKeys(pointer: string): string[] | null {
  return parsePointer(pointer)?.map(displayKey) ?? null;
}

/**
 * A pointer as a person reads it: `/k8s/app.kubernetes.io~1name` is `k8s › app.kubernetes.io/name`.
 * Text that is not a pointer is shown as it is.
 */
export function displayPointer(pointer: string): string {
  return displayKeys(pointer)?.join(KEY_SEPARATOR) ?? pointer;
}

/**
 * What a person typed to find a path (written the way paths are shown) as a substring of the
 * pointer: `app.kubernetes.io/name` finds `/k8s/app.kubernetes.io~1name`, `http › status` finds
 * `/http/status`.
 */
export function pointerSearchOf(text: string): string {
  return text
    .split('›')
    .map((part) => escapeToken(part.trim()))
    .join('/');
}
