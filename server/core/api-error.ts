import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** A typed recovery action (spec: `next_action`). Clients branch on `code` and `target`. */
export type NextAction = {
  code: string;
  target?: string;
  [extra: string]: unknown;
};

/** The spec's error envelope: `{error, code, next, next_action}` plus route-specific extras. */
export type ErrorEnvelope = {
  error: string;
  code: string;
  next: string;
  next_action: NextAction;
  [extra: string]: unknown;
};

/**
 * Thrown anywhere in a handler or middleware; the app's error handler turns it into
 * the envelope. One place builds every error body, so every route answers alike.
 */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly next: string;
  readonly nextAction: NextAction;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(init: {
    status: ContentfulStatusCode;
    code: string;
    error: string;
    next: string;
    nextAction: NextAction;
    extra?: Record<string, unknown>;
    headers?: Record<string, string>;
  }) {
    super(init.error);
    this.status = init.status;
    this.code = init.code;
    this.next = init.next;
    this.nextAction = init.nextAction;
    this.extra = init.extra ?? {};
    this.headers = init.headers ?? {};
  }

  toBody(): ErrorEnvelope {
    return {
      error: this.message,
      code: this.code,
      next: this.next,
      next_action: this.nextAction,
      ...this.extra,
    };
  }
}

const fixRequest: NextAction = { code: 'fix_request', target: 'request' };
const sendValidJson: NextAction = { code: 'send_valid_json', target: 'request' };

/** Constructors for the codes the service uses, so texts and actions stay consistent. */
export const fail = {
  validation(error: string, next = 'Fix the named request value and send the request again.') {
    return new ApiError({
      status: 422,
      code: 'validation_failed',
      error,
      next,
      nextAction: fixRequest,
    });
  },
  invalidJson(status: 400 | 413 | 415 | 422, error: string, next: string) {
    return new ApiError({ status, code: 'invalid_json', error, next, nextAction: sendValidJson });
  },
  unauthorized(
    error = 'authentication required',
    next = 'Sign in again, then repeat the request.',
    nextAction: NextAction = { code: 'sign_in', target: 'auth' },
  ) {
    return new ApiError({ status: 401, code: 'unauthorized', error, next, nextAction });
  },
  ingestKeyInvalid(
    error = 'ingest key is missing, revoked, expired or not valid for this project',
  ) {
    return new ApiError({
      status: 401,
      code: 'ingest_key_invalid',
      error,
      next: 'Configure the SDK with a current ingest key of this project (Authorization: Bearer <ingest key>).',
      nextAction: { code: 'configure_ingest_key', target: 'project_ingest_key' },
    });
  },
  forbidden(error = 'you do not have access to this resource or action') {
    return new ApiError({
      status: 403,
      code: 'forbidden',
      error,
      next: 'Ask an owner of the organization for access; do not retry with other ids.',
      nextAction: { code: 'request_access', target: 'organization' },
    });
  },
  /** The caller reads the resource but its organization role may not change it. */
  roleForbidden(error: string, next: string) {
    return new ApiError({
      status: 403,
      code: 'role_forbidden',
      error,
      next,
      nextAction: { code: 'request_role', target: 'organization' },
    });
  },
  notFound(error = 'not found') {
    return new ApiError({
      status: 404,
      code: 'not_found',
      error,
      next: 'Check the id or path; re-read an owned list to find a readable record.',
      nextAction: { code: 'review_request', target: 'request' },
    });
  },
  methodNotAllowed(method: string, allowed: string[], path: string) {
    const supported = allowed.map((m) => `${m} ${path}`).join(' or ');
    return new ApiError({
      status: 405,
      code: 'method_not_allowed',
      error: `method ${method} is not supported on this path`,
      next: `Use ${supported}.`,
      nextAction: { code: 'use_supported_method', target: 'request' },
      headers: { Allow: allowed.join(', ') },
    });
  },
  idempotencyConflict(
    error = 'this Idempotency-Key was already used for a different request',
    next = 'Retry the original request unchanged, or use a new Idempotency-Key for new work.',
  ) {
    return new ApiError({
      status: 409,
      code: 'idempotency_conflict',
      error,
      next,
      nextAction: { code: 'fix_request', target: 'request' },
    });
  },
  internal() {
    return new ApiError({
      status: 500,
      code: 'internal_error',
      error: 'Internal error',
      next: 'Wait a moment, then send the request again; writes may already have been applied, so re-read first.',
      nextAction: { code: 'retry_later', target: 'request' },
    });
  },
};
