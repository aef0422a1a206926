/**
 * `__proto__` cannot be kept as a key: JavaScript objects treat it as the prototype, and the
 * schemas' record parsing drops it, so a body carrying it would be accepted with that key
 * silently missing. Bodies are refused with it instead. Checked only when the text could
 * spell it (literally, or with a `\u` escape of one of its letters), then by a walk without
 * recursion that names where it is.
 */
const MAY_SPELL = /__proto__|\\u00(?:5[fF]|70|72|6[fF]|74)/;

export function reservedKeyPath(text: string, parsed: unknown): string | null {
  // A body that is not an object is refused for its shape first (422 invalid_json).
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  if (!MAY_SPELL.test(text)) return null;
  const stack: [unknown, string][] = [[parsed, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string];
    if (value === null || typeof value !== 'object') continue;
    if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) return `${path}/__proto__`;
    for (const [key, child] of Object.entries(value)) stack.push([child, `${path}/${key}`]);
  }
  return null;
}
