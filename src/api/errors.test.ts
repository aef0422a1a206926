import { describe, expect, it } from 'vitest';
import {
  ApiError,
  apiErrorFromResponse,
  backoffMs,
  knownAction,
  MAX_ATTEMPTS,
  retryDelayMs,
  shouldRetry,
} from './errors';

const envelope = (code: string, extra: Record<string, unknown> = {}) => ({
  error: 'text',
  code,
  next: 'do this',
  next_action: { code: 'fix_request', target: 'request' },
  ...extra,
});

const err = (status: number, code?: string, extra: Record<string, unknown> = {}) =>
  apiErrorFromResponse(new Response(null, { status }), code ? envelope(code, extra) : undefined);

describe('apiErrorFromResponse', () => {
  it('keeps status, code, next and next_action from the envelope', () => {
    const e = err(422, 'validation_failed');
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(422);
    expect(e.code).toBe('validation_failed');
    expect(e.next).toBe('do this');
    expect(e.nextAction).toEqual({ code: 'fix_request', target: 'request' });
  });

  it('never invents a code when the body is not the envelope', () => {
    const e = apiErrorFromResponse(
      new Response('Bad gateway', { status: 502 }),
      '<html>proxy</html>',
    );
    expect(e.status).toBe(502);
    expect(e.code).toBeUndefined();
    expect(e.next).toBeUndefined();
  });

  it('reads retry_after_seconds, or the Retry-After header', () => {
    expect(err(429, 'rate_limited', { retry_after_seconds: 7 }).retryAfterSeconds).toBe(7);
    const fromHeader = apiErrorFromResponse(
      new Response(null, { status: 429, headers: { 'Retry-After': '3' } }),
      undefined,
    );
    expect(fromHeader.retryAfterSeconds).toBe(3);
  });
});

describe('knownAction', () => {
  it('follows only pairs it knows', () => {
    expect(knownAction({ code: 'sign_in', target: 'auth' })).toEqual({ kind: 'sign-in' });
    expect(knownAction({ code: 'choose_plan', target: 'pricing' })).toEqual({
      kind: 'open',
      to: '/plan',
    });
    expect(knownAction({ code: 'sign_in', target: 'somewhere_else' })).toBeNull();
    expect(knownAction({ code: 'delete_everything', target: 'auth' })).toBeNull();
    expect(knownAction(undefined)).toBeNull();
  });
});

describe('retry rules', () => {
  it('never re-sends requests that must be fixed or re-authorized first', () => {
    for (const [status, code] of [
      [422, 'validation_failed'],
      [400, 'invalid_json'],
      [400, 'invalid_path'],
      [401, 'unauthorized'],
      [403, 'forbidden'],
      [404, 'not_found'],
      [405, 'method_not_allowed'],
      [409, 'idempotency_conflict'],
      [429, 'usage_limit_exceeded'],
      [402, 'subscription_required'],
    ] as const) {
      expect(shouldRetry(err(status, code), 1, 'read'), code).toBe(false);
    }
  });

  it('retries reads after transient failures, up to the attempt limit', () => {
    expect(shouldRetry(err(503, 'service_unavailable'), 1, 'read')).toBe(true);
    expect(shouldRetry(err(500, 'internal_error'), 1, 'read')).toBe(true);
    expect(shouldRetry(err(408, 'request_timeout'), 1, 'read')).toBe(true);
    expect(shouldRetry(new ApiError({ status: 0, message: 'offline' }), 1, 'read')).toBe(true);
    expect(shouldRetry(err(502), 1, 'read')).toBe(true);
    expect(shouldRetry(err(503, 'service_unavailable'), MAX_ATTEMPTS, 'read')).toBe(false);
  });

  it('never re-sends a plain write after a timeout, 5xx or network failure', () => {
    expect(shouldRetry(err(500, 'internal_error'), 1, 'write')).toBe(false);
    expect(shouldRetry(new ApiError({ status: 0, message: 'offline' }), 1, 'write')).toBe(false);
    expect(shouldRetry(err(408, 'request_timeout'), 1, 'write')).toBe(false);
  });

  it('re-sends an idempotent write (same key, same body) after a transient failure', () => {
    expect(shouldRetry(err(503, 'service_unavailable'), 1, 'idempotent-write')).toBe(true);
  });

  it('waits retry_after_seconds on rate limits, plus jitter', () => {
    const e = err(429, 'rate_limited', { retry_after_seconds: 4 });
    expect(shouldRetry(e, 1, 'read')).toBe(true);
    expect(retryDelayMs(e, 0, () => 0)).toBe(4000);
    expect(retryDelayMs(e, 0, () => 0.999)).toBeGreaterThan(4000);
    expect(retryDelayMs(err(429, 'rate_limited'), 0, () => 0)).toBe(1000);
  });

  it('backs off exponentially with full jitter and a cap', () => {
    expect(backoffMs(0, () => 0.999)).toBeLessThan(500);
    expect(backoffMs(3, () => 0.999)).toBeGreaterThan(3000);
    expect(backoffMs(3, () => 0.999)).toBeLessThan(4000);
    expect(backoffMs(20, () => 0.999)).toBeLessThan(15_000);
    expect(backoffMs(5, () => 0)).toBe(0);
  });
});
