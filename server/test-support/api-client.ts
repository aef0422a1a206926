import http from 'node:http';
import { expect } from 'vitest';

/** One HTTP exchange as contract tests see it. `body` is the parsed JSON, or null. */
export type ApiResponse = {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
  setCookies: string[];
};

export type CallOptions = {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Value of the `svc_session` cookie. */
  session?: string;
  /** Serialized as the JSON body with `Content-Type: application/json`. */
  json?: unknown;
  /** A raw body (with `contentType`, default application/json). */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
};

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  if (opts.session !== undefined) headers.cookie = `svc_session=${opts.session}`;
  let body: string | undefined;
  if (opts.json !== undefined) body = JSON.stringify(opts.json);
  if (opts.raw !== undefined) body = opts.raw;
  if (body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = null;
  if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') {
    parsed = JSON.parse(text);
  }
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: parsed,
    setCookies: res.headers.getSetCookie(),
  };
}

/**
 * Like `call`, on a connection of its own that is closed afterwards. For requests the service
 * answers before reading their body (413): the service then drops that connection, and a
 * pooled `fetch` connection would hand the drop to the next test.
 */
export function callOnOwnConnection(
  baseUrl: string,
  method: string,
  path: string,
  opts: { token?: string; raw: string; contentType?: string },
): Promise<ApiResponse> {
  const headers: Record<string, string> = {
    'content-type': opts.contentType ?? 'application/json',
    'content-length': String(Buffer.byteLength(opts.raw)),
    connection: 'close',
  };
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(`${baseUrl}${path}`, { method, headers, agent: false }, (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        req.destroy();
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) h.append(k, one);
        }
        const isJson = (h.get('content-type') ?? '').includes('json') && text !== '';
        resolve({
          status: res.statusCode ?? 0,
          headers: h,
          text,
          body: isJson ? (JSON.parse(text) as unknown) : null,
          setCookies: h.getSetCookie(),
        });
      });
    });
    // Writing the rest of a body the service refused may fail once it has answered.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    req.end(opts.raw);
  });
}

/** The `svc_session` Set-Cookie line of a response, if any. */
export function sessionSetCookie(res: ApiResponse): string | undefined {
  return res.setCookies.find((c) => c.startsWith('svc_session='));
}

/** The value a browser would store for `svc_session` (empty when the cookie is cleared). */
export function sessionCookieValue(res: ApiResponse): string | undefined {
  const line = sessionSetCookie(res);
  return line === undefined ? undefined : (/^svc_session=([^;]*)/.exec(line)?.[1] ?? '');
}

/** Whether a Set-Cookie line deletes the cookie (Max-Age=0 or an expiry in the past). */
export function clearsCookie(line: string | undefined, now = Date.now()): boolean {
  if (line === undefined) return false;
  if (/;\s*Max-Age=0(?:;|$)/i.test(line)) return true;
  const expires = /;\s*Expires=([^;]+)/i.exec(line)?.[1];
  return expires !== undefined && Date.parse(expires) <= now;
}

export type SignedIn = {
  accessToken: string;
  refreshToken: string;
  session: string;
  response: ApiResponse;
};

export async function signIn(baseUrl: string, email: string, password: string): Promise<SignedIn> {
  const res = await call(baseUrl, 'POST', '/api/auth/login', { json: { email, password } });
  expect(res.status, res.text).toBe(200);
  const body = res.body as { access_token: string; refresh_token: string };
  const session = sessionCookieValue(res);
  expect(session).toBeTruthy();
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    session: session ?? '',
    response: res,
  };
}

export type RefreshedTokens = { accessToken: string; refreshToken: string };

export function tokensOf(res: ApiResponse): RefreshedTokens {
  const body = res.body as { access_token: string; refresh_token: string };
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}

/**
 * Asserts the spec's error envelope: exact status and `code`, a non-empty `error` and `next`,
 * and a `next_action` with the given `code` (and `target` when given).
 */
export function expectError(
  res: ApiResponse,
  status: number,
  code: string,
  nextAction?: { code: string; target?: string },
): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  const body = res.body as Record<string, unknown>;
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  expect(body.error).not.toBe('');
  expect(typeof body.next).toBe('string');
  expect(body.next).not.toBe('');
  expect(body.next_action).toBeTypeOf('object');
  const action = body.next_action as Record<string, unknown>;
  expect(typeof action.code).toBe('string');
  if (nextAction) {
    expect(action.code).toBe(nextAction.code);
    if (nextAction.target !== undefined) expect(action.target).toBe(nextAction.target);
  }
}
