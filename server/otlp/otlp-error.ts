import { ApiError } from '../core/api-error';
import type { OtlpStatus } from './otlp-codec';

/** google.rpc.Code by HTTP status, as OTLP/HTTP pairs them. */
const GRPC_CODE: Record<number, number> = {
  400: 3, // INVALID_ARGUMENT
  401: 16, // UNAUTHENTICATED
  403: 7, // PERMISSION_DENIED
  404: 5, // NOT_FOUND
  413: 3,
  415: 3,
  429: 8, // RESOURCE_EXHAUSTED
  500: 13, // INTERNAL
  503: 14, // UNAVAILABLE
};

export type OtlpFailure = {
  status: 400 | 401 | 403 | 404 | 413 | 415 | 429 | 500 | 503;
  headers: Record<string, string>;
  body: OtlpStatus;
};

/**
 * A Lookout error as OTLP/HTTP answers it: the same HTTP status (a rejected body is `400`,
 * where the native routes say `422`), a `google.rpc.Status` whose message is the error and
 * what to do, and an ErrorInfo detail with Lookout's code, `next` and `next_action`. Throttling
 * (`429`) always says when to retry: OTLP exporters retry only on `429`/`502`/`503`/`504`,
 * after `Retry-After`.
 */
export function otlpFailure(e: ApiError, now: number): OtlpFailure {
  const status = (e.status === 422 ? 400 : e.status) as OtlpFailure['status'];
  const headers = { ...e.headers };
  if (status === 429 && !headers['Retry-After']) {
    const reset = typeof e.extra.reset_at === 'string' ? Date.parse(e.extra.reset_at) : NaN;
    headers['Retry-After'] = String(
      Number.isFinite(reset) ? Math.max(1, Math.ceil((reset - now) / 1000)) : 60,
    );
  }
  const metadata: Record<string, string> = {
    error: e.message,
    next: e.next,
    next_action: JSON.stringify(e.nextAction),
  };
  for (const [k, v] of Object.entries(e.extra))
    metadata[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return {
    status,
    headers,
    body: {
      code: GRPC_CODE[status] ?? 2,
      message: `${e.message}. ${e.next}`,
      reason: e.code,
      metadata,
    },
  };
}

/** The store could not take the batch (busy, disconnected): nothing was stored, retry later. */
export function storeUnavailable(): ApiError {
  return new ApiError({
    status: 503,
    code: 'service_unavailable',
    error: 'the service could not store this request now',
    next: 'Retry after the Retry-After seconds; nothing of this request was stored.',
    nextAction: { code: 'retry_later', target: 'request' },
    headers: { 'Retry-After': '5' },
  });
}
