import {
  OwnershipTextError,
  globRegExp,
  meaningfulLines,
  parseOwner,
  type OwnedLine,
} from './ownership-owner';

/**
 * CODEOWNERS, as GitHub reads it: `<pattern> <owner>…` per line, `#` comments, blank lines;
 * the last matching line wins. Patterns follow gitignore: a leading `/` or a `/` inside anchors
 * the pattern at the repository root, otherwise it matches at any depth; a pattern that
 * matches a directory covers everything in it; `*` stays within a path segment, `**` crosses
 * them, `?` is one character; matching is case-sensitive. As on GitHub, `!` negation, `[ ]`
 * ranges and a leading `\#` are not supported (`422`), and a line without owners is valid and
 * leaves matching files without owners. Owners are `@team-slug` or an email.
 */
export type CodeownersLine = OwnedLine & { pattern: string; glob: RegExp };

export function parseCodeowners(text: string): CodeownersLine[] {
  return meaningfulLines(text).map(({ line, text: t }) => {
    const bad = (why: string) => new OwnershipTextError(`codeowners line ${line}: ${why}`);
    const [pattern = '', ...tokens] = t.split(/\s+/);
    if (pattern.startsWith('!')) throw bad('negation (!) is not supported in CODEOWNERS');
    if (/[[\]]/.test(pattern)) throw bad('character ranges ([ ]) are not supported in CODEOWNERS');
    if (pattern.startsWith('\\')) throw bad('escaped patterns are not supported in CODEOWNERS');
    const owners = tokens.map((token) => {
      const owner = parseOwner(token, '@');
      if (!owner) throw bad(`"${token}" is not an owner (write @team-slug or an email)`);
      return owner;
    });
    return { line, text: t, owners, pattern, glob: codeownersGlob(pattern) };
  });
}

/** The gitignore pattern as a regular expression over a root-relative path. */
function codeownersGlob(pattern: string): RegExp {
  let p = pattern;
  const anchored = p.startsWith('/') || p.slice(0, -1).includes('/');
  p = p.replace(/^\/+/, '').replace(/\/+$/, '');
  if (p === '' || p === '*' || p === '**') return /^.+$/;
  const body = globRegExp(p, false).source.slice(1, -1);
  // Unanchored: at any depth. Either way: the path itself or anything below it.
  return new RegExp(`^${anchored ? '' : '(?:.*/)?'}${body}(?:/.*)?$`);
}

/** A frame's path relative to the repository: schemes, `./` and leading `/` removed. */
export const repoPath = (file: string): string =>
  file.replace(/^[a-z][a-z0-9+.-]*:\/\/\/?/i, '').replace(/^(?:\.\/|\/)+/, '');

/** The last line matching any of the files, with the first file it matches. */
export function lastMatchingCodeowners(
  lines: CodeownersLine[],
  files: string[],
): { line: CodeownersLine; matched: string } | null {
  for (let n = lines.length - 1; n >= 0; n--) {
    const line = lines[n] as CodeownersLine;
    const matched = files.find((f) => line.glob.test(repoPath(f)));
    if (matched !== undefined) return { line, matched };
  }
  return null;
}
