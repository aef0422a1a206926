import { BlockList, isIP } from 'node:net';
import type { Context } from 'hono';
import type { AppEnv } from './app-env';

/** What a request carries of its connection: @hono/node-server's bindings, or the upgrade's. */
type Bindings = { incoming?: { socket?: { remoteAddress?: string } } } | undefined;

const lists = new WeakMap<readonly string[], BlockList>();

function blockListOf(trusted: readonly string[]): BlockList {
  let list = lists.get(trusted);
  if (!list) {
    list = new BlockList();
    for (const entry of trusted) {
      const [ip = '', bits] = entry.split('/');
      const type = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) list.addAddress(ip, type);
      else list.addSubnet(ip, Number(bits), type);
    }
    lists.set(trusted, list);
  }
  return list;
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is `10.0.0.1`. */
function plain(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The address a request came from: the socket's peer, unless that peer is a configured
 * trusted proxy. Then `X-Forwarded-For` is read from the right (the entry the nearest proxy
 * added) past every trusted proxy; the first other entry is the client. Entries left of it
 * were written by the client itself and are never believed. `unknown` when there is no socket
 * (a test calling the app directly).
 */
export function clientAddress(c: Context<AppEnv>, trustedProxies: readonly string[]): string {
  const peer = (c.env as Bindings)?.incoming?.socket?.remoteAddress;
  if (!peer) return 'unknown';
  let address = plain(peer);
  if (trustedProxies.length === 0) return address;
  const list = blockListOf(trustedProxies);
  if (!isTrusted(list, address)) return address;
  const hops = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((h) => plain(h.trim()))
    .filter((h) => h !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] ?? '';
    if (isIP(hop) === 0) break;
    address = hop;
    if (!isTrusted(list, hop)) break;
  }
  return address;
}

/**
 * The throttling key of an address: IPv6 clients commonly hold a whole /64, so its first four
 * groups stand for all of them; IPv4 addresses stand for themselves.
 */
export function addressKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
