/**
 * Owners named by ownership rules and CODEOWNERS: an account by email, or a team by slug.
 * Rules write a team as `#team-slug` (as Sentry does), CODEOWNERS as `@team-slug` (as GitHub
 * does); both name an account by its email.
 */
export type OwnerRef = { kind: 'email'; email: string } | { kind: 'team'; slug: string };

const EMAIL = /^[^\s@#]+@[^\s@]+\.[^\s@]+$/;
const SLUG = /^[a-z0-9][a-z0-9_-]*$/i;

/** The owner a token names, with `prefix` the team marker (`#` or `@`); null when it names none. */
export function parseOwner(token: string, prefix: '#' | '@'): OwnerRef | null {
  if (token.startsWith(prefix) && SLUG.test(token.slice(1)))
    return { kind: 'team', slug: token.slice(1).toLowerCase() };
  if (EMAIL.test(token)) return { kind: 'email', email: token.toLowerCase() };
  return null;
}

/** How an owner is written back (in `unresolved_owners`). */
export const ownerText = (o: OwnerRef, prefix: '#' | '@'): string =>
  o.kind === 'team' ? `${prefix}${o.slug}` : o.email;

/** A line of ownership text: its 1-based number, its text (trimmed) and its owners. */
export type OwnedLine = { line: number; text: string; owners: OwnerRef[] };

/** Thrown by the parsers; the message names the text and the line (`rules line 3: …`). */
export class OwnershipTextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OwnershipTextError';
  }
}

/** Lines of a text with their 1-based numbers, trimmed; blank and `#` comment lines left out. */
export function meaningfulLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  text.split(/\r?\n/).forEach((raw, n) => {
    const t = raw.trim();
    if (t !== '' && !t.startsWith('#')) out.push({ line: n + 1, text: t });
  });
  return out;
}

/**
 * A glob as a regular expression over the whole value: `**` any characters, `*` any
 * characters except `/` (or any at all when `starCrossesSlash`), `?` one character except `/`.
 */
export function globRegExp(glob: string, starCrossesSlash: boolean, flags = ''): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        i++;
        // `**/` also matches no directory at all.
        if (glob[i + 1] === '/') {
          i++;
          re += '(?:.*/)?';
        } else re += '.*';
      } else re += starCrossesSlash ? '.*' : '[^/]*';
    } else if (ch === '?') re += starCrossesSlash ? '.' : '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, flags);
}
