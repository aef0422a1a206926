import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { fail } from '../core/api-error';
import type { AppEnv } from './app-env';
import { reservedKeyPath } from './reserved-json-key';

// The same media types the route's body validator (@hono/zod-openapi) accepts: anything this
// check let through but that one refused would be answered by the framework, not by us.
const jsonType = /^application\/(?:[a-z.-]+\+)?json(?:;\s*[a-zA-Z0-9-]+=[^;]+)*$/i;

/**
 * Checks a JSON request body before the route's schema sees it: the content type (415),
 * the size (413) and that it parses (400). The schema then decides shape (422). The parsed
 * body is available as `c.get('jsonBody')`.
 */
export function jsonBody(maxBytes = 1024 * 1024): MiddlewareHandler<AppEnv> {
  const tooLarge = () =>
    fail.invalidJson(
      413,
      `request body is larger than ${maxBytes} bytes`,
      `Send at most ${maxBytes} bytes.`,
    );
  // Reads at most maxBytes: a body without Content-Length (chunked) is cut off at the limit
  // instead of being buffered whole before it is refused.
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLarge();
    },
  });
  return async (c, next) => {
    const type = c.req.header('content-type') ?? '';
    if (!jsonType.test(type)) {
      throw fail.invalidJson(
        415,
        'request body must be JSON',
        'Send the body as JSON with the header Content-Type: application/json.',
      );
    }
    await limit(c, async () => {
      const text = await c.req.text();
      if (Buffer.byteLength(text) > maxBytes) throw tooLarge();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        throw fail.invalidJson(
          400,
          'request body is not valid JSON',
          'Send a valid JSON document as the body.',
        );
      }
      const reserved = reservedKeyPath(text, parsed);
      if (reserved !== null) {
        throw fail.validation(
          `the key "__proto__" is not accepted (at ${reserved})`,
          'Rename the key (for example to "proto"), then send the request again.',
        );
      }
      // Kept for handlers that read the body themselves and for the route's body schema
      // (whose validator calls c.req.json()), so a large body is parsed once.
      c.set('jsonBody', parsed);
      c.set('jsonText', text);
      c.req.json = <T>() => Promise.resolve(parsed as T);
      await next();
    });
  };
}
