import { describe, expect, it } from 'vitest';
import { nextSubmission } from './idempotency-key';

describe('nextSubmission', () => {
  it('reuses the key when the same body is sent again, and makes a new one otherwise', () => {
    let n = 0;
    const newKey = () => `key-${++n}`;
    const first = nextSubmission(null, { name: 'Web' }, newKey);
    expect(first.key).toBe('key-1');
    expect(nextSubmission(first, { name: 'Web' }, newKey).key).toBe('key-1');
    expect(nextSubmission(first, { name: 'Web 2' }, newKey).key).toBe('key-2');
  });

  it('uses a random UUID by default', () => {
    expect(nextSubmission(null, {}).key).toMatch(/^[0-9a-f-]{36}$/);
  });
});
