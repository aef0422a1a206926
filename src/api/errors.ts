/**
 * How the console reads the service's failures. It branches on HTTP status and `code`,
 * shows `next` as guidance, and follows `next_action` only for the pairs in `knownActions`.
 * It never parses `error` or `next`.
 */

export type NextAction = { code: string; target?: string; [extra: string]: unknown };

type Envelope = { error: string; code: string; next?: string; next_action?: NextAction };

export class ApiError extends Error {
  /** HTTP status; 0 when the request never got an answer (network failure). */
  readonly status: number;
  /** The envelope's `code`; undefined when the body was not the envelope (never invented). */
  readonly code: string | undefined;
  readonly next: string | undefined;
  readonly nextAction: NextAction | undefined;
  /** Seconds to wait, from `retry_after_seconds` or the `Retry-After` header (rate limits). */
  readonly retryAfterSeconds: number | undefined;
  readonly extra: Record<string, unknown>;

  constructor(init: {
    status: number;
    message: string;
    code?: string;
    next?: string;
    nextAction?: NextAction;
    retryAfterSeconds?: number;
    extra?: Record<string, unknown>;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.next = init.next;
    this.nextAction = init.nextAction;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.extra = init.extra ?? {};
  }

  get isNetworkFailure(): boolean {
    return this.status === 0;
  }
}

function isEnvelope(body: unknown): body is Envelope {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.code === 'string' && typeof b.error === 'string';
}

function retryAfterOf(response: Response, body: unknown): number | undefined {
  if (isEnvelope(body)) {
    const s = (body as Record<string, unknown>).retry_after_seconds;
    if (typeof s === 'number' && Number.isFinite(s) && s >= 0) return s;
  }
  const header = response.headers.get('retry-after');
  if (header && /^\d+$/.test(header.trim())) return Number(header.trim());
  return undefined;
}

/** Builds the error from a non-2xx response and its parsed body (or undefined when unreadable). */
export function apiErrorFromResponse(response: Response, body: unknown): ApiError {
  const retryAfterSeconds = retryAfterOf(response, body);
  if (isEnvelope(body)) {
    const { error, code, next, next_action, ...extra } = body;
    return new ApiError({
      status: response.status,
      message: error,
      code,
      ...(typeof next === 'string' ? { next } : {}),
      ...(next_action && typeof next_action.code === 'string' ? { nextAction: next_action } : {}),
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      extra,
    });
  }
  return new ApiError({
    status: response.status,
    message: response.statusText
      ? `HTTP ${response.status} ${response.statusText}`
      : `HTTP ${response.status}`,
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  });
}

export function networkError(cause: unknown): ApiError {
  const e = new ApiError({ status: 0, message: 'The service could not be reached' });
  (e as { cause?: unknown }).cause = cause;
  return e;
}

/** What the console does for the `next_action` pairs it knows; anything else is shown, not followed. */
export type KnownAction =
  | { kind: 'sign-in' }
  | { kind: 'clear-local-session' }
  | { kind: 'fix-request' }
  | { kind: 'open'; to: '/plan' | '/usage' };

const knownActions: Record<string, KnownAction> = {
  'sign_in/auth': { kind: 'sign-in' },
  'authorize_request/auth': { kind: 'sign-in' },
  'clear_local_session/local_credentials': { kind: 'clear-local-session' },
  'fix_request/request': { kind: 'fix-request' },
  'send_valid_json/request': { kind: 'fix-request' },
  'choose_plan/pricing': { kind: 'open', to: '/plan' },
  'reduce_usage_or_upgrade/pricing': { kind: 'open', to: '/plan' },
  'wait_until_reset_or_upgrade/pricing': { kind: 'open', to: '/plan' },
  // The subscription gate's actions: the plan page explains the blocker and what changes it.
  'resume_subscription/billing': { kind: 'open', to: '/plan' },
  'manage_organization_limit/organization': { kind: 'open', to: '/plan' },
  'check_usage_limits/account_usage': { kind: 'open', to: '/usage' },
};

export function knownAction(action: NextAction | undefined): KnownAction | null {
  if (!action) return null;
  return knownActions[`${action.code}/${action.target ?? ''}`] ?? null;
}

/* ---------- Retry rules (spec "Retry rules" and "Write rules") ---------- */

/** Codes whose request must be fixed or re-authorized before it is sent again. */
const neverRetry = new Set([
  'validation_failed',
  'invalid_json',
  'invalid_path',
  'invalid_multipart',
  'invalid_websocket_upgrade',
  'unauthorized',
  'ingest_key_invalid',
  'forbidden',
  'role_forbidden',
  'not_found',
  'method_not_allowed',
  'idempotency_conflict',
  'usage_limit_exceeded',
  'invitation_limit_exceeded',
  'artifact_storage_limit_exceeded',
  'subscription_required',
  'organization_paused',
  'member_limit_exceeded',
  'organization_limit_exceeded',
  'account_link_conflict',
  'account_recovery_available',
  'account_recovery_expired',
  'invite_invalid',
]);

export const MAX_ATTEMPTS = 3;

export type RequestKind =
  /** A read: safe to send again with the same scope. */
  | 'read'
  /** A write the service deduplicates (same Idempotency-Key and body, or a caller-chosen id). */
  | 'idempotent-write'
  /** Any other write: never re-sent automatically, because a failure does not prove it failed. */
  | 'write';

/** Whether a failed request may be sent again automatically (after `failures` failures). */
export function shouldRetry(error: unknown, failures: number, kind: RequestKind): boolean {
  if (failures >= MAX_ATTEMPTS) return false;
  if (!(error instanceof ApiError)) return false;
  if (error.code === 'rate_limited') return kind !== 'write';
  if (error.code !== undefined && neverRetry.has(error.code)) return false;
  const transient =
    error.status === 0 ||
    error.status === 408 ||
    error.status === 503 ||
    error.status >= 500 ||
    error.status === 429;
  if (!transient) return false;
  return kind !== 'write';
}

/** Exponential backoff with full jitter: a random wait in [0, min(cap, base * 2^attempt)). */
export function backoffMs(
  attempt: number,
  random: () => number = Math.random,
  baseMs = 500,
  capMs = 15_000,
) {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.floor(random() * ceiling);
}

/**
 * How long to wait before the next attempt. A rate limit waits `retry_after_seconds` first,
 * then adds the jittered backoff so many clients do not return at once.
 */
export function retryDelayMs(
  error: unknown,
  attempt: number,
  random: () => number = Math.random,
): number {
  const jitter = backoffMs(attempt, random);
  if (error instanceof ApiError && error.code === 'rate_limited') {
    return Math.max(1, error.retryAfterSeconds ?? 1) * 1000 + jitter;
  }
  return jitter;
}

/** A short, human title for a failure, by status and code (never from `error` text). */
export function failureTitle(error: ApiError): string {
  if (error.isNetworkFailure) return 'The service could not be reached';
  switch (error.code) {
    case 'unauthorized':
      return 'Your sign-in has ended';
    case 'forbidden':
    case 'role_forbidden':
      return 'You do not have access to this';
    case 'not_found':
      return 'Not found';
    case 'validation_failed':
    case 'invalid_json':
      return 'The request was not accepted';
    case 'rate_limited':
      return 'Too many requests';
    case 'usage_limit_exceeded':
      return 'Usage limit reached';
    case 'subscription_required':
      return 'This needs a paid plan in force';
    case 'organization_paused':
      return 'The organization is paused';
    case 'organization_limit_exceeded':
      return 'The plan’s limit is reached';
  }
  if (error.status >= 500) return 'The service had a problem';
  return `Request failed (HTTP ${error.status})`;
}
