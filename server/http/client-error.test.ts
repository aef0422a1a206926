import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../test-support/start-service';

let svc: RunningService<false>;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

describe('a request head over 16 KiB', () => {
  it('is refused in the envelope, naming what to shorten, not as a bare 431', async () => {
    const res = await fetch(`${svc.baseUrl}/api/logs?search=${'a'.repeat(20_000)}`);
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      code: 'validation_failed',
      error: 'the request line and headers together are larger than 16 KiB',
      next_action: { code: 'fix_request', target: 'request' },
    });
    expect(body.next).toMatch(/shorter/);
  });

  it('leaves the service answering the next request', async () => {
    const res = await fetch(`${svc.baseUrl}/healthz`);
    expect(res.status).toBe(200);
  });
});
