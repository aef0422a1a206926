import { createHash, randomBytes, randomUUID, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** Token kinds carry a readable prefix so a leaked value says what it is (and scanners can find it). */
export const tokenPrefix = {
  access: 'lk_at_',
  refresh: 'lk_rt_',
  personal: 'lk_pat_',
  session: 'lk_ss_',
  ingest: 'lk_ik_',
  feedTicket: 'lk_ft_',
  toolConnection: 'lk_tc_',
} as const;

export type TokenKind = keyof typeof tokenPrefix;

export function newToken(kind: TokenKind): string {
  return tokenPrefix[kind] + randomBytes(32).toString('base64url');
}

/** Tokens are stored as SHA-256: they are long and random, so a slow hash adds nothing. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const newId = (): string => randomUUID();

const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password.normalize('NFKC'), salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scryptAsync(
    password.normalize('NFKC'),
    Buffer.from(salt, 'base64url'),
    expected.length,
    {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: SCRYPT.maxmem,
    },
  );
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A password nobody can sign in with, for comparing in constant time against unknown emails. */
export const unusablePasswordHash =
  'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
