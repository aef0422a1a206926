import type { Hono } from 'hono';
import type { ErrorEnvelope } from '../core/api-error';

/** A query value as a tool passes it: absent values are not sent. */
export type QueryValue = string | number | boolean | undefined;

export type ServiceRequest = {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, QueryValue>;
  json?: unknown;
};

/** The service's answer to one read: its JSON body, or its error envelope (null when none). */
export type ServiceAnswer =
  | { ok: true; status: number; body: unknown }
  | { ok: false; status: number; envelope: ErrorEnvelope | null };

export type ReadService = (request: ServiceRequest) => Promise<ServiceAnswer>;

/** Path segments are ids: encoded, so a hostile value cannot climb to another route. */
export const seg = (value: string): string => encodeURIComponent(value);

export function queryString(query: Record<string, QueryValue> | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, String(v));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

const isEnvelope = (v: unknown): v is ErrorEnvelope =>
  typeof v === 'object' && v !== null && 'code' in v && 'error' in v && 'next' in v;

/**
 * Reads the service's own routes in-process (`app.request`), with the tool connection's own
 * bearer. Why not call the handlers or the stores directly: a tool then cannot differ from
 * the HTTP API. The route's auth re-checks the credential on every read (a connection revoked
 * during a tool call stops at its next read), the delegated scope applies (a project outside it
 * is `403 forbidden`), strict query validation, limits and the bundles' bounds all hold, and
 * each read counts as a use of the connection, as it would over HTTP.
 */
export function inProcessReader(app: Pick<Hono, 'request'>, token: string): ReadService {
  return async ({ method, path, query, json }) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const res = await app.request(`${path}${queryString(query)}`, {
      method,
      headers,
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    if (res.ok) return { ok: true, status: res.status, body };
    return { ok: false, status: res.status, envelope: isEnvelope(body) ? body : null };
  };
}
