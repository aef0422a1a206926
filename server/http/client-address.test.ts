import type { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from './app-env';
import { addressKey, clientAddress } from './client-address';

/** Just what `clientAddress` reads of a request: the socket's peer and the headers. */
function request(peer: string | undefined, forwardedFor?: string): Context<AppEnv> {
  return {
    env: peer === undefined ? undefined : { incoming: { socket: { remoteAddress: peer } } },
    req: {
      header: (name: string) => (name === 'x-forwarded-for' ? forwardedFor : undefined),
    },
  } as unknown as Context<AppEnv>;
}

describe('clientAddress', () => {
  it('is the socket peer; an IPv4 peer on a dual-stack socket reads as IPv4', () => {
    expect(clientAddress(request('198.51.100.7'), [])).toBe('198.51.100.7');
    expect(clientAddress(request('::ffff:198.51.100.7'), [])).toBe('198.51.100.7');
    expect(clientAddress(request(undefined), [])).toBe('unknown');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(clientAddress(request('198.51.100.7', '203.0.113.1'), [])).toBe('198.51.100.7');
    expect(clientAddress(request('198.51.100.7', '203.0.113.1'), ['10.0.0.0/8'])).toBe(
      '198.51.100.7',
    );
  });

  it('behind trusted proxies, takes the first untrusted entry from the right', () => {
    const trusted = ['10.0.0.0/8', '192.0.2.1'];
    expect(clientAddress(request('10.0.0.5', '203.0.113.1'), trusted)).toBe('203.0.113.1');
    // The client wrote the leftmost entry itself: never believed past an untrusted hop.
    expect(
      clientAddress(request('10.0.0.5', '1.1.1.1, 203.0.113.1, 192.0.2.1, 10.9.9.9'), trusted),
    ).toBe('203.0.113.1');
    // Without the header the proxy itself is all that is known.
    expect(clientAddress(request('10.0.0.5'), trusted)).toBe('10.0.0.5');
    // Garbage stops the walk at the last trusted hop.
    expect(clientAddress(request('10.0.0.5', 'not-an-ip'), trusted)).toBe('10.0.0.5');
  });
});

describe('addressKey', () => {
  it('keeps IPv4 addresses and folds IPv6 addresses into their /64', () => {
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('unknown')).toBe('unknown');
  });
});
