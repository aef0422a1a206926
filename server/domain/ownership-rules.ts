import {
  OwnershipTextError,
  globRegExp,
  meaningfulLines,
  parseOwner,
  type OwnedLine,
} from './ownership-owner';

/**
 * Ownership rules, the way Sentry writes them: one rule per line,
 * `<type>:<pattern> <owner> [<owner>…]`, with `#` comments and blank lines.
 *
 * - `path:<glob>`: a file path of the stack frames of the issue's latest occurrence. The glob
 *   matches the whole path or a trailing part of it starting after a `/` (`path:checkout/*`
 *   matches `src/checkout/service.ts`).
 * - `module:<glob>`: a frame's module (JVM: the class, `com.acme.cart.Cart`; Python: the file
 *   as a dotted name, `app.payments.db`; JavaScript: the file without its extension).
 * - `url:<glob>`: the occurrence's `url` or `http.url` attribute.
 * - `tag:<key>:<glob>`: the attribute `<key>` (a top-level key, else a dotted path).
 *
 * In these globs `*` matches any characters (also `/`) and `?` one; matching ignores case.
 * Owners are `user@email` or `#team-slug`. The first matching line gives the owners.
 */
export type RuleMatcher =
  | { type: 'path' | 'module' | 'url'; pattern: string }
  | { type: 'tag'; key: string; pattern: string };

export type OwnershipRule = OwnedLine & { matcher: RuleMatcher; glob: RegExp };

const MATCHER = /^(path|module|url|tag):(.*)$/;

export function parseOwnershipRules(text: string): OwnershipRule[] {
  return meaningfulLines(text).map(({ line, text: t }) => {
    const bad = (why: string) => new OwnershipTextError(`rules line ${line}: ${why}`);
    const [head = '', ...tokens] = t.split(/\s+/);
    const m = MATCHER.exec(head);
    if (!m) throw bad(`"${head}" is not <type>:<pattern> (types: path, module, url, tag:<key>)`);
    const type = m[1] as RuleMatcher['type'];
    let rest = m[2] ?? '';
    let matcher: RuleMatcher;
    if (type === 'tag') {
      const sep = rest.indexOf(':');
      if (sep <= 0) throw bad('a tag rule is tag:<key>:<pattern>');
      matcher = { type, key: rest.slice(0, sep), pattern: rest.slice(sep + 1) };
      rest = matcher.pattern;
    } else matcher = { type, pattern: rest };
    if (rest === '') throw bad(`the ${type} rule has no pattern`);
    if (tokens.length === 0) throw bad('the rule names no owner');
    const owners = tokens.map((token) => {
      const owner = parseOwner(token, '#');
      if (!owner) throw bad(`"${token}" is not an owner (write user@email or #team-slug)`);
      return owner;
    });
    return { line, text: t, owners, matcher, glob: globRegExp(rest, true, 'i') };
  });
}

/** What an issue offers the matchers: frame files and modules, its url and its attributes. */
export type OwnershipInputs = {
  files: string[];
  modules: string[];
  url: string | null;
  attribute: (key: string) => string | null;
};

/** The value a rule matches in the inputs, or null. */
export function ruleMatch(rule: OwnershipRule, inputs: OwnershipInputs): string | null {
  const m = rule.matcher;
  switch (m.type) {
    case 'path':
      return inputs.files.find((f) => pathMatches(rule.glob, f)) ?? null;
    case 'module':
      return inputs.modules.find((mod) => rule.glob.test(mod)) ?? null;
    case 'url':
      return inputs.url !== null && rule.glob.test(inputs.url) ? inputs.url : null;
    case 'tag': {
      const value = inputs.attribute(m.key);
      return value !== null && rule.glob.test(value) ? value : null;
    }
  }
}

/** The whole path, or a trailing part of it after a `/`. */
function pathMatches(glob: RegExp, file: string): boolean {
  if (glob.test(file)) return true;
  for (let i = file.indexOf('/'); i >= 0; i = file.indexOf('/', i + 1))
    if (glob.test(file.slice(i + 1))) return true;
  return false;
}

/** The first rule matching the inputs, with what it matched. */
export function firstMatchingRule(
  rules: OwnershipRule[],
  inputs: OwnershipInputs,
): { rule: OwnershipRule; matched: string } | null {
  for (const rule of rules) {
    const matched = ruleMatch(rule, inputs);
    if (matched !== null) return { rule, matched };
  }
  return null;
}
