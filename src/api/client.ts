import createClient from 'openapi-fetch';
import { apiErrorFromResponse, networkError } from './errors';
import type { paths } from './schema.gen';
import { useSessionStore } from './session-store';

/**
 * The thin client: openapi-fetch typed by the generated schema, plus the account bearer
 * from memory and one refresh on `401`. Every non-2xx becomes an ApiError (see `call`).
 */

const AUTH_PATHS = [
  '/api/auth/login',
  '/api/auth/refresh',
  '/api/auth/logout',
  '/api/auth/web/logout',
];

let refreshing: Promise<boolean> | null = null;

/** Exchanges the refresh token (or, after a reload, the session cookie) for new tokens. Single-flight. */
export function refreshSession(baseFetch: typeof fetch = fetch): Promise<boolean> {
  refreshing ??= (async () => {
    const { refreshToken } = useSessionStore.getState();
    try {
      const res = await baseFetch('/api/auth/refresh', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(refreshToken ? { refresh_token: refreshToken } : {}),
      });
      if (!res.ok) return false;
      const tokens = (await res.json()) as { access_token: string; refresh_token: string };
      useSessionStore.getState().signedIn(tokens);
      return true;
    } catch {
      return false;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function withBearer(request: Request): Request {
  const token = useSessionStore.getState().accessToken;
  const r = new Request(request, { credentials: 'same-origin' });
  if (token) r.headers.set('Authorization', `Bearer ${token}`);
  return r;
}

/** fetch with the bearer; on 401 refreshes once and re-sends, else reports the session ended. */
export function createAuthFetch(baseFetch: typeof fetch = fetch) {
  return async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    if (AUTH_PATHS.includes(path))
      return baseFetch(new Request(request, { credentials: 'same-origin' }));
    const retryable = request.clone();
    const first = await baseFetch(withBearer(request));
    if (first.status !== 401) return first;
    if (await refreshSession(baseFetch)) return baseFetch(withBearer(retryable));
    useSessionStore.getState().signedOut('expired');
    return first;
  };
}

const origin = typeof window === 'undefined' ? 'http://localhost' : window.location.origin;

export const api = createClient<paths>({ baseUrl: origin, fetch: createAuthFetch() });

type FetchResult<T> = { data?: T; error?: unknown; response: Response };

/**
 * Unwraps an openapi-fetch call: the data on success, an ApiError otherwise (the HTTP
 * status always; `code`, `next` and `next_action` only when the body was the envelope).
 */
export async function call<T>(request: Promise<FetchResult<T>>): Promise<T> {
  let result: FetchResult<T>;
  try {
    result = await request;
  } catch (cause) {
    throw networkError(cause);
  }
  if (result.response.ok) return result.data as T;
  throw apiErrorFromResponse(result.response, result.error);
}
