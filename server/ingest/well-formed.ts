/**
 * One rule for text that is not valid Unicode: a lone surrogate (half of a UTF-16 pair, which
 * JSON can carry as `\ud800` but UTF-8 cannot encode) becomes U+FFFD, the replacement
 * character, in every string of an ingested body: messages, names, attribute keys and
 * values at any depth. Text columns on both engines store UTF-8, where it would become U+FFFD
 * anyway; doing it here makes attributes (stored as JSON, which would keep the escape) read
 * back the same way, and makes what is stored, counted and searched one and the same.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const HAS_SURROGATE = /[\uD800-\uDFFF]/;

/** A `\uD800`–`\uDFFF` escape in JSON text: how a JSON body can spell half a pair. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE_ONCE = new RegExp(LONE_SURROGATE.source);

/**
 * Whether what `JSON.parse(text)` gives is well formed already, so `wellFormedValue` has
 * nothing to do: no escape of a surrogate and no lone one in the text itself. A scan of the
 * text costs far less than walking every value of a large body (most bodies), and a false
 * "no" (an escaped backslash before `uD8`) only walks it as before.
 */
export function jsonTextIsWellFormed(text: string): boolean {
  return !SURROGATE_ESCAPE.test(text) && !LONE_SURROGATE_ONCE.test(text);
}

export function wellFormedText(s: string): string {
  // Most text holds no surrogate at all: one scan, no copy.
  if (!HAS_SURROGATE.test(s)) return s;
  return s.replace(LONE_SURROGATE, '\uFFFD');
}

const isPlainObject = (v: object): v is Record<string, unknown> => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * The value with every string and object key made well formed. Unchanged parts are the same
 * objects (nothing is copied when nothing needs replacing). Two keys that become equal keep
 * the later value, as a repeated key in JSON does. Only plain objects and arrays are entered
 * (bytes and other class instances are left alone).
 */
export function wellFormedValue<T>(value: T): T {
  return fix(value, 0) as T;
}

/**
 * How deep the walk goes. Ingest refuses attributes nested deeper than 64 levels (an OTLP
 * attribute level is 4 levels of JSON), so anything below this is refused anyway; stopping
 * here keeps a hostile 100,000-level body from overflowing the stack before it is refused.
 */
const MAX_DEPTH = 1_000;

function fix(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return wellFormedText(value);
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = fix(value[i], depth + 1);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  // Copied only from the first change on: most bodies hold no lone surrogate at all.
  let out: Record<string, unknown> | null = null;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const v = value[k];
    const key = wellFormedText(k);
    const fixed = fix(v, depth + 1);
    if (out === null && (key !== k || fixed !== v)) {
      out = {};
      for (const before of keys.slice(0, i)) define(out, before, value[before]);
    }
    if (out !== null) define(out, key, fixed);
  }
  return out ?? value;
}

/** An own field even for a key such as `__proto__`, as JSON.parse makes it. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
