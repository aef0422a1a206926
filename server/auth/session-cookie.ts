import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

/** The browser session cookie named by the spec. HttpOnly so page script never sees it. */
export const SESSION_COOKIE = 'svc_session';

export function readSessionCookie(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE);
}

export function writeSessionCookie(
  c: Context,
  value: string,
  maxAgeSeconds: number,
  secure: boolean,
): void {
  setCookie(c, SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure,
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(c: Context, secure: boolean): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure });
}
