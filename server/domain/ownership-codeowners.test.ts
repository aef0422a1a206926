import { describe, expect, it } from 'vitest';
import { lastMatchingCodeowners, parseCodeowners, repoPath } from './ownership-codeowners';

const owner = (text: string, files: string[]) =>
  lastMatchingCodeowners(parseCodeowners(text), files);

describe('parseCodeowners', () => {
  it('reads patterns and owners, skipping comments and blank lines', () => {
    const lines = parseCodeowners(
      '# owners\n\n*  @platform\n/src/checkout/ @checkout ada@acme.dev\ndocs/',
    );
    expect(lines.map((l) => [l.line, l.pattern, l.owners])).toEqual([
      [3, '*', [{ kind: 'team', slug: 'platform' }]],
      [
        4,
        '/src/checkout/',
        [
          { kind: 'team', slug: 'checkout' },
          { kind: 'email', email: 'ada@acme.dev' },
        ],
      ],
      [5, 'docs/', []],
    ]);
  });

  it.each([
    ['!src/x.ts @t', /codeowners line 2: negation/],
    ['src/[ab].ts @t', /codeowners line 2: character ranges/],
    ['src/x.ts #team', /codeowners line 2: "#team" is not an owner/],
    ['src/x.ts @', /codeowners line 2: "@" is not an owner/],
  ])('refuses %j naming the line', (line, message) => {
    expect(() => parseCodeowners(`# first\n${line}`)).toThrow(message);
  });
});

describe('lastMatchingCodeowners', () => {
  it('lets the last matching line win', () => {
    const text = '* @everyone\nsrc/checkout/ @checkout\n*.ts @typescript';
    expect(owner(text, ['src/checkout/service.ts'])?.line.line).toBe(3);
    expect(owner(text, ['src/checkout/service.js'])?.line.line).toBe(2);
    expect(owner(text, ['README.md'])?.line.line).toBe(1);
  });

  it('anchors a pattern with a slash at the root; a bare name matches at any depth', () => {
    expect(owner('/src/ @a', ['lib/src/x.ts'])).toBeNull();
    expect(owner('src/checkout @a', ['lib/src/checkout/x.ts'])).toBeNull();
    expect(owner('checkout/ @a', ['lib/src/checkout/x.ts'])?.matched).toBe('lib/src/checkout/x.ts');
    expect(owner('/app/payments/ @a', ['/app/payments/db.py'])?.matched).toBe(
      '/app/payments/db.py',
    );
  });

  it('keeps * inside a segment and lets ** cross them', () => {
    expect(owner('src/*.ts @a', ['src/a/b.ts'])).toBeNull();
    expect(owner('src/*.ts @a', ['src/b.ts'])).not.toBeNull();
    expect(owner('src/**/b.ts @a', ['src/a/c/b.ts'])).not.toBeNull();
    expect(owner('src/**/b.ts @a', ['src/b.ts'])).not.toBeNull();
    expect(owner('*.java @a', ['ReservationController.java'])).not.toBeNull();
  });

  it('reports the first file the winning line matches; a line without owners still wins', () => {
    const hit = owner('*.ts @a\nvendor/ ', ['vendor/x.ts', 'src/y.ts']);
    expect(hit?.line.line).toBe(2);
    expect(hit?.line.owners).toEqual([]);
  });

  it('reads frame paths relative to the repository', () => {
    expect(repoPath('webpack:///./src/a.ts')).toBe('src/a.ts');
    expect(repoPath('/app/a.py')).toBe('app/a.py');
  });
});
