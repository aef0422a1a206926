import { describe, expect, it } from 'vitest';
import {
  issueOwners,
  ownershipInputs,
  parseOwnership,
  stackFrames,
  unresolvedOwners,
  type Directory,
} from './ownership';

const ada = { id: 'a', name: 'Ada', email: 'ada@acme.dev' };
const bo = { id: 'b', name: null, email: 'bo@acme.dev' };
const checkout = { id: 't1', slug: 'checkout', name: 'Checkout' };
const dir: Directory = { accounts: [ada, bo], teams: [checkout] };

const JS =
  'TypeError: x\n    at CheckoutService.total (src/checkout/service.ts:112:18)\n    at node_modules/hono/dist/compose.js:22:7';
const PY =
  'Traceback (most recent call last):\n  File "/app/payments/api/charges.py", line 41, in create\n    x()\nKeyError: k';
const JVM =
  'java.lang.IllegalStateException: x\n\tat com.acme.inventory.ReservationController.reserve(ReservationController.java:88)';

describe('stackFrames', () => {
  it('reads JavaScript, Python and JVM frames with their modules (through topFrames)', () => {
    expect(stackFrames(JS)).toEqual([
      {
        function: 'CheckoutService.total',
        file: 'src/checkout/service.ts',
        module: 'src/checkout/service',
      },
      {
        function: '<anonymous>',
        file: 'node_modules/hono/dist/compose.js',
        module: 'node_modules/hono/dist/compose',
      },
    ]);
    expect(stackFrames(PY)).toEqual([
      {
        function: 'create',
        file: '/app/payments/api/charges.py',
        module: 'app.payments.api.charges',
      },
    ]);
    expect(stackFrames(JVM)[0]?.module).toBe('com.acme.inventory.ReservationController');
    expect(stackFrames(null)).toEqual([]);
  });
});

describe('ownershipInputs', () => {
  it('takes the url from url, else http.url, and attributes by key or dotted path', () => {
    const i = ownershipInputs({
      stackTrace: JS,
      attributes: { 'http.url': 'https://x/cart', feature: { flag: 'on' }, n: 3 },
    });
    expect(i.url).toBe('https://x/cart');
    expect(i.attribute('feature.flag')).toBe('on');
    expect(i.attribute('n')).toBe('3');
    expect(i.attribute('feature')).toBeNull();
    expect(
      ownershipInputs({ stackTrace: null, attributes: { url: 'u', 'http.url': 'h' } }).url,
    ).toBe('u');
  });
});

describe('issueOwners', () => {
  const parsed = parseOwnership(
    'path:nomatch/* #checkout\npath:src/checkout/* bo@acme.dev #checkout ghost@acme.dev #ghosts',
    '* @checkout\nsrc/ ada@acme.dev',
  );

  it('orders rule, then codeowners, then recent activity, each owner once, unresolved left out', () => {
    const owners = issueOwners({
      parsed,
      inputs: ownershipInputs({ stackTrace: JS, attributes: {} }),
      recentActors: [
        { account: bo, change: 'status' },
        { account: { id: 'gone', name: null, email: 'gone@x.dev' }, change: 'priority' },
      ],
      directory: dir,
    });
    expect(owners.map((o) => [o.type, o.id, o.source, o.line, o.matched])).toEqual([
      ['user', 'b', 'ownership_rule', 2, 'src/checkout/service.ts'],
      ['team', 't1', 'ownership_rule', 2, 'src/checkout/service.ts'],
      ['user', 'a', 'codeowners', 2, 'src/checkout/service.ts'],
    ]);
  });

  it('lists recent actors that can read the project', () => {
    const owners = issueOwners({
      parsed: parseOwnership('', ''),
      inputs: ownershipInputs({ stackTrace: null, attributes: {} }),
      recentActors: [{ account: ada, change: 'assigned' }],
      directory: dir,
    });
    expect(owners).toEqual([
      {
        type: 'user',
        ...ada,
        source: 'recent_activity',
        rule: null,
        line: null,
        matched: 'assigned',
      },
    ]);
  });

  it('lists unresolved owners with their lines', () => {
    expect(unresolvedOwners(parsed, dir)).toEqual([
      { source: 'ownership_rule', line: 2, owner: 'ghost@acme.dev' },
      { source: 'ownership_rule', line: 2, owner: '#ghosts' },
    ]);
    expect(unresolvedOwners(parseOwnership('', '* @nobody'), dir)).toEqual([
      { source: 'codeowners', line: 1, owner: '@nobody' },
    ]);
  });
});
