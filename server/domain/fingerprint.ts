import { createHash } from 'node:crypto';

/**
 * Groups error events into issues. An explicit fingerprint wins; otherwise the group is the
 * exception type, the top stack frames (without line and column numbers, which move with
 * every release) and the message with its variable parts (ids, numbers, hex) masked.
 */
export type FingerprintInput = {
  fingerprint?: string | null | undefined;
  exceptionType?: string | null | undefined;
  stackTrace?: string | null | undefined;
  message: string;
};

const TOP_FRAMES = 5;

// One pass over the message (it runs for every stored log and error event). Alternatives are
// tried left to right at each position: ids before hex before quoted text before numbers.
const VARIABLE_PART =
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b0x[0-9a-f]+\b|\b[0-9a-f]{16,}\b|'[^']*'|"[^"]*"|\d+(?:\.\d+)?/gi;

export function maskVariableParts(message: string): string {
  return message
    .replace(VARIABLE_PART, (m) => {
      const c = m.charCodeAt(0);
      if (c === 39 || c === 34) return '<str>';
      if (m.length === 36 && m[8] === '-') return '<uuid>';
      if (/^\d+(?:\.\d+)?$/.test(m)) return '<n>';
      return '<hex>';
    })
    .trim()
    .slice(0, 500);
}

/** Frame lines of common stack formats, reduced to "function@file" without positions. */
export function topFrames(stackTrace: string, count = TOP_FRAMES): string[] {
  const frames: string[] = [];
  for (const raw of stackTrace.split('\n')) {
    const line = raw.trim();
    // JVM first ("at com.acme.Cart.add(Cart.java:42)", with or without "at "): the JavaScript
    // pattern would also match it, but would read the whole frame as a file name.
    let m = /^(?:at\s+)?([\w$.<>]+)\(([^:()]+)(?::\d+)?\)$/.exec(line);
    if (m) {
      frames.push(`${m[1]}@${m[2]}`);
    } else if ((m = /^at (?:(.+?) \()?(.+?)(?::\d+){1,2}\)?$/.exec(line))) {
      // JavaScript: "at fn (file:1:2)" or "at file:1:2"
      frames.push(`${m[1] ?? '<anonymous>'}@${m[2]}`);
    } else if ((m = /^File "(.+?)", line \d+, in (.+)$/.exec(line))) {
      // Python
      frames.push(`${m[2]}@${m[1]}`);
    }
    if (frames.length >= count) break;
  }
  return frames;
}

export function deriveFingerprint(input: FingerprintInput): string {
  const explicit = input.fingerprint?.trim();
  if (explicit) return explicit;
  const frames = input.stackTrace ? topFrames(input.stackTrace) : [];
  const parts = [
    input.exceptionType ?? '',
    ...frames,
    frames.length ? '' : maskVariableParts(input.message),
  ];
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32);
}
