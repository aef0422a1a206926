import { describe, expect, it } from 'vitest';
import { hashPassword, hashToken, newToken, unusablePasswordHash, verifyPassword } from './secrets';

describe('secrets', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsE', stored)).toBe(false);
  });

  it('never verifies against the unusable hash', async () => {
    expect(await verifyPassword('', unusablePasswordHash)).toBe(false);
  });

  it('makes tokens that say their kind and differ each time', () => {
    const a = newToken('ingest');
    expect(a.startsWith('lk_ik_')).toBe(true);
    expect(a).not.toBe(newToken('ingest'));
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
  });
});
