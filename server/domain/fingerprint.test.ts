import { describe, expect, it } from 'vitest';
import { deriveFingerprint, maskVariableParts, topFrames } from './fingerprint';

const jsStack = (line: number) => `TypeError: Cannot read properties of undefined (reading 'id')
    at applyCoupon (src/cart/coupons.ts:${line}:17)
    at CartService.checkout (src/cart/service.ts:88:5)
    at async handler (src/routes/checkout.ts:12:3)`;

describe('fingerprint', () => {
  it('uses an explicit fingerprint as it is', () => {
    expect(deriveFingerprint({ fingerprint: 'checkout-timeout', message: 'x' })).toBe(
      'checkout-timeout',
    );
  });

  it('groups the same error across releases whose line numbers moved', () => {
    const a = deriveFingerprint({
      exceptionType: 'TypeError',
      stackTrace: jsStack(41),
      message: 'a',
    });
    const b = deriveFingerprint({
      exceptionType: 'TypeError',
      stackTrace: jsStack(57),
      message: 'b',
    });
    expect(a).toBe(b);
  });

  it('separates different exception types at the same place', () => {
    const a = deriveFingerprint({
      exceptionType: 'TypeError',
      stackTrace: jsStack(41),
      message: 'a',
    });
    const b = deriveFingerprint({
      exceptionType: 'RangeError',
      stackTrace: jsStack(41),
      message: 'a',
    });
    expect(a).not.toBe(b);
  });

  it('without a stack, groups messages that differ only in ids and numbers', () => {
    const a = deriveFingerprint({
      message: 'Order 1234 failed for user 5b0e7a3c-4a51-4c7e-9a3e-2b8b1f0e8a11',
    });
    const b = deriveFingerprint({
      message: 'Order 98 failed for user 0f0e7a3c-4a51-4c7e-9a3e-2b8b1f0e8a12',
    });
    const c = deriveFingerprint({ message: 'Payment declined' });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });

  it('reads JavaScript, Python and JVM frames', () => {
    expect(topFrames(jsStack(1))).toEqual([
      'applyCoupon@src/cart/coupons.ts',
      'CartService.checkout@src/cart/service.ts',
      'async handler@src/routes/checkout.ts',
    ]);
    expect(topFrames('  File "app/views.py", line 10, in index')).toEqual(['index@app/views.py']);
    expect(topFrames('com.acme.Cart.add(Cart.java:42)')).toEqual(['com.acme.Cart.add@Cart.java']);
    expect(topFrames('\tat com.acme.Cart.add(Cart.java:42)')).toEqual([
      'com.acme.Cart.add@Cart.java',
    ]);
    expect(topFrames('at com.acme.Cart.add(Native Method)')).toEqual([
      'com.acme.Cart.add@Native Method',
    ]);
  });

  it('masks variable parts of a message', () => {
    expect(maskVariableParts("timeout after 3000ms on 'db-1'")).toBe(
      'timeout after <n>ms on <str>',
    );
  });
});
