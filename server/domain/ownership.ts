import { topFrames } from './fingerprint';
import {
  lastMatchingCodeowners,
  parseCodeowners,
  type CodeownersLine,
} from './ownership-codeowners';
import { ownerText, type OwnerRef } from './ownership-owner';
import {
  firstMatchingRule,
  parseOwnershipRules,
  type OwnershipInputs,
  type OwnershipRule,
} from './ownership-rules';

/**
 * Who owns an issue: the first matching ownership rule, then the last matching CODEOWNERS
 * line, then the accounts that changed the issue recently. Owners that name no account or
 * team of the project's organization are never suggested.
 */

export const OWNERSHIP_TEXT_MAX_BYTES = 128 * 1024;
/** Frames of a stack looked at (a deep recursion would otherwise be read whole). */
export const OWNERSHIP_MAX_FRAMES = 200;

export type OwnerSource = 'ownership_rule' | 'codeowners' | 'recent_activity';

export type Account = { id: string; name: string | null; email: string };
export type Team = { id: string; slug: string; name: string };
/** Who owners can name: the accounts that can read the project and its organization's teams. */
export type Directory = { accounts: Account[]; teams: Team[] };

export type Owner = ({ type: 'user' } & Account) | ({ type: 'team' } & Team);
export type IssueOwner = Owner & {
  source: OwnerSource;
  /** The line's text (null for recent activity). */
  rule: string | null;
  /** 1-based line number (null for recent activity). */
  line: number | null;
  /** The file path or value that matched; for recent activity, the kind of change. */
  matched: string;
};

export type ParsedOwnership = { rules: OwnershipRule[]; codeowners: CodeownersLine[] };

/** Both texts parsed; throws OwnershipTextError naming the first invalid line. */
export const parseOwnership = (rules: string, codeowners: string): ParsedOwnership => ({
  rules: parseOwnershipRules(rules),
  codeowners: parseCodeowners(codeowners),
});

export function resolveOwner(ref: OwnerRef, dir: Directory): Owner | null {
  if (ref.kind === 'team') {
    const team = dir.teams.find((t) => t.slug.toLowerCase() === ref.slug);
    return team ? { type: 'team', ...team } : null;
  }
  const account = dir.accounts.find((a) => a.email.toLowerCase() === ref.email);
  return account ? { type: 'user', ...account } : null;
}

export type UnresolvedOwner = {
  source: 'ownership_rule' | 'codeowners';
  line: number;
  owner: string;
};

/** Owners naming no account or team of the directory, in text order. */
export function unresolvedOwners(parsed: ParsedOwnership, dir: Directory): UnresolvedOwner[] {
  const out: UnresolvedOwner[] = [];
  for (const r of parsed.rules)
    for (const o of r.owners)
      if (!resolveOwner(o, dir))
        out.push({ source: 'ownership_rule', line: r.line, owner: ownerText(o, '#') });
  for (const c of parsed.codeowners)
    for (const o of c.owners)
      if (!resolveOwner(o, dir))
        out.push({ source: 'codeowners', line: c.line, owner: ownerText(o, '@') });
  return out;
}

export type StackFrame = { function: string; file: string; module: string };

/**
 * The frames of a stack trace, parsed by the grouping code (`topFrames`: JVM, JavaScript and
 * Python formats), in the order the trace prints them.
 */
export function stackFrames(stackTrace: string | null): StackFrame[] {
  if (!stackTrace) return [];
  return topFrames(stackTrace, OWNERSHIP_MAX_FRAMES).map((f) => {
    // "function@file": function names never hold `@`, files may (node_modules/@scope/…).
    const at = f.indexOf('@');
    const fn = f.slice(0, at);
    const file = f.slice(at + 1);
    return { function: fn, file, module: moduleOf(fn, file) };
  });
}

/** JVM: the class of the method; Python: the file as a dotted name; otherwise the file without extension. */
function moduleOf(fn: string, file: string): string {
  if (/\.(?:java|kt|scala|groovy)$/.test(file) && fn.includes('.'))
    return fn.slice(0, fn.lastIndexOf('.'));
  const bare = file.replace(/^[a-z][a-z0-9+.-]*:\/\/\/?/i, '').replace(/\.[A-Za-z0-9]+$/, '');
  if (file.endsWith('.py')) return bare.replace(/^\/+/, '').replace(/\//g, '.');
  return bare;
}

const unique = (values: string[]) => [...new Set(values)];

/** An attribute by top-level key, else by dotted path; scalars only, as text. */
export function attributeText(attributes: Record<string, unknown>, key: string): string | null {
  let value: unknown = attributes[key];
  if (value === undefined) {
    value = attributes;
    for (const part of key.split('.')) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
      value = (value as Record<string, unknown>)[part];
    }
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

/** What the matchers look at in an issue (its latest occurrence). */
export function ownershipInputs(issue: {
  stackTrace: string | null;
  attributes: Record<string, unknown>;
}): OwnershipInputs {
  const frames = stackFrames(issue.stackTrace);
  return {
    files: unique(frames.map((f) => f.file)),
    modules: unique(frames.map((f) => f.module)),
    url: attributeText(issue.attributes, 'url') ?? attributeText(issue.attributes, 'http.url'),
    attribute: (key) => attributeText(issue.attributes, key),
  };
}

/** An account that changed the issue, newest change first, with the kind of change. */
export type RecentActor = { account: Account; change: string };

/**
 * The issue's owners in order: the first matching rule's owners, the last matching CODEOWNERS
 * line's, then recent actors; each owner once (where it first appears), unresolved ones left out.
 */
export function issueOwners(opts: {
  parsed: ParsedOwnership;
  inputs: OwnershipInputs;
  recentActors: RecentActor[];
  directory: Directory;
}): IssueOwner[] {
  const { parsed, inputs, directory } = opts;
  const owners: IssueOwner[] = [];
  const seen = new Set<string>();
  const add = (owner: Owner, rest: Omit<IssueOwner, keyof Owner | 'type'>) => {
    const key = `${owner.type}:${owner.id}`;
    if (seen.has(key)) return;
    seen.add(key);
    owners.push({ ...owner, ...rest });
  };
  const rule = firstMatchingRule(parsed.rules, inputs);
  if (rule)
    for (const ref of rule.rule.owners) {
      const owner = resolveOwner(ref, directory);
      if (owner)
        add(owner, {
          source: 'ownership_rule',
          rule: rule.rule.text,
          line: rule.rule.line,
          matched: rule.matched,
        });
    }
  const code = lastMatchingCodeowners(parsed.codeowners, inputs.files);
  if (code)
    for (const ref of code.line.owners) {
      const owner = resolveOwner(ref, directory);
      if (owner)
        add(owner, {
          source: 'codeowners',
          rule: code.line.text,
          line: code.line.line,
          matched: code.matched,
        });
    }
  for (const actor of opts.recentActors) {
    // Only accounts that can (still) read the project.
    const account = directory.accounts.find((a) => a.id === actor.account.id);
    if (account)
      add(
        { type: 'user', ...account },
        { source: 'recent_activity', rule: null, line: null, matched: actor.change },
      );
  }
  return owners;
}
