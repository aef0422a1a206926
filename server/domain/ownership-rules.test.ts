import { describe, expect, it } from 'vitest';
import { OwnershipTextError } from './ownership-owner';
import { firstMatchingRule, parseOwnershipRules, type OwnershipInputs } from './ownership-rules';

const inputs = (o: Partial<OwnershipInputs> = {}): OwnershipInputs => ({
  files: [],
  modules: [],
  url: null,
  attribute: () => null,
  ...o,
});

describe('parseOwnershipRules', () => {
  it('reads each type, skipping comments and blank lines, with 1-based line numbers', () => {
    const rules = parseOwnershipRules(
      '# checkout\n\npath:src/checkout/* #checkout ada@acme.dev\nmodule:com.acme.* #platform\nurl:*/cart* bo@acme.dev\ntag:feature.flag:new-* #checkout',
    );
    expect(rules.map((r) => [r.line, r.matcher])).toEqual([
      [3, { type: 'path', pattern: 'src/checkout/*' }],
      [4, { type: 'module', pattern: 'com.acme.*' }],
      [5, { type: 'url', pattern: '*/cart*' }],
      [6, { type: 'tag', key: 'feature.flag', pattern: 'new-*' }],
    ]);
    expect(rules[0]?.owners).toEqual([
      { kind: 'team', slug: 'checkout' },
      { kind: 'email', email: 'ada@acme.dev' },
    ]);
    expect(rules[0]?.text).toBe('path:src/checkout/* #checkout ada@acme.dev');
  });

  it.each([
    ['nonsense #team', /rules line 2: "nonsense" is not <type>:<pattern>/],
    ['file:src/* #team', /rules line 2: "file:src\/\*"/],
    ['path:src/*', /rules line 2: the rule names no owner/],
    ['path: #team', /rules line 2: the path rule has no pattern/],
    ['tag:novalue #team', /rules line 2: a tag rule is tag:<key>:<pattern>/],
    ['path:src/* @team', /rules line 2: "@team" is not an owner/],
    ['path:src/* ada', /rules line 2: "ada" is not an owner/],
  ])('refuses %j naming the line', (line, message) => {
    expect(() => parseOwnershipRules(`# first\n${line}`)).toThrow(OwnershipTextError);
    expect(() => parseOwnershipRules(`# first\n${line}`)).toThrow(message);
  });

  it('accepts an empty text and CRLF line ends', () => {
    expect(parseOwnershipRules('')).toEqual([]);
    expect(parseOwnershipRules('# a\r\npath:a/* #t\r\n')[0]?.line).toBe(2);
  });
});

describe('firstMatchingRule', () => {
  const rules = parseOwnershipRules(
    'path:checkout/* #checkout\npath:*.py #payments\nmodule:com.acme.inventory.* #platform\nurl:https://shop.acme.dev/cart* #web\ntag:region:EU-* #europe',
  );

  it('matches a path whole or after a slash, with * crossing slashes, ignoring case', () => {
    const hit = firstMatchingRule(
      rules,
      inputs({ files: ['node:internal/x', 'src/Checkout/service.ts'] }),
    );
    expect(hit?.rule.line).toBe(1);
    expect(hit?.matched).toBe('src/Checkout/service.ts');
    expect(
      firstMatchingRule(rules, inputs({ files: ['/app/payments/api/charges.py'] }))?.rule.line,
    ).toBe(2);
    expect(firstMatchingRule(rules, inputs({ files: ['src/mycheckout/x.ts'] }))).toBeNull();
  });

  it('matches modules, the url and attributes', () => {
    expect(
      firstMatchingRule(rules, inputs({ modules: ['com.acme.inventory.ReservationController'] }))
        ?.matched,
    ).toBe('com.acme.inventory.ReservationController');
    expect(
      firstMatchingRule(rules, inputs({ url: 'https://shop.acme.dev/cart?x=1' }))?.rule.line,
    ).toBe(4);
    const hit = firstMatchingRule(
      rules,
      inputs({ attribute: (k) => (k === 'region' ? 'eu-west-1' : null) }),
    );
    expect(hit).toMatchObject({ matched: 'eu-west-1', rule: { line: 5 } });
  });

  it('takes the first matching line', () => {
    const hit = firstMatchingRule(rules, inputs({ files: ['/app/checkout/x.py'] }));
    expect(hit?.rule.line).toBe(1);
  });
});
