import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

/** JSON answers shorter than this go as they are (compressing them saves nothing worth it). */
export const COMPRESS_THRESHOLD = 1024;

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\b/i;

type Encoding = 'br' | 'gzip';

/**
 * The encoding to answer with: brotli where the client takes it (at quality 1 it is several
 * times faster than gzip and compresses JSON as well as gzip's default), else gzip; none when
 * the client takes neither. A `q=0` refuses an encoding; `*` stands for those not named.
 */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const weight = params
      .map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1])
      .find((v) => v !== undefined);
    q.set(name.trim(), weight === undefined ? 1 : Number(weight));
  }
  const accepts = (e: Encoding) => (q.get(e) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

const compressor = (e: Encoding) =>
  e === 'br'
    ? zlib.createBrotliCompress({
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        },
      })
    : zlib.createGzip({ level: 1 });

/**
 * Compresses JSON answers of at least COMPRESS_THRESHOLD bytes when the request accepts br or
 * gzip (a trace of 100,000 spans is 60 MB of JSON, about 6.5 MB compressed). Streamed answers
 * are compressed as they stream, on libuv's threads. Nothing else is touched: the console's
 * files, the live feed's event stream, protobuf answers of the OTLP routes, the WebSocket
 * upgrade (outside the app), HEAD and answers without a body.
 */
export function compressResponses(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (
      c.req.method === 'HEAD' ||
      !res.body ||
      res.status === 204 ||
      res.status === 206 ||
      res.status === 304 ||
      res.headers.has('Content-Encoding') ||
      !JSON_TYPE.test(res.headers.get('Content-Type') ?? '')
    )
      return;
    const length = res.headers.get('Content-Length');
    if (length !== null && Number(length) < COMPRESS_THRESHOLD) return;
    const vary = res.headers.get('Vary');
    if (vary === null) c.header('Vary', 'Accept-Encoding');
    else if (!/\baccept-encoding\b|\*/i.test(vary)) c.header('Vary', `${vary}, Accept-Encoding`);
    const encoding = pickEncoding(c.req.header('Accept-Encoding'));
    if (encoding === null) return;

    // The length of most answers is not known before their body is read: read up to the
    // threshold, and send a short answer as it is.
    const reader = res.body.getReader();
    const head: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      if (size >= COMPRESS_THRESHOLD) break;
      const chunk = await reader.read();
      if (chunk.done) {
        c.res = new Response(Buffer.concat(head), res);
        return;
      }
      head.push(chunk.value);
      size += chunk.value.byteLength;
    }
    async function* body() {
      yield* head;
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return;
        yield chunk.value;
      }
    }
    const source = Readable.from(body());
    const compressed = source.pipe(compressor(encoding));
    // A failed source ends the compressed body early (the client sees a cut answer).
    source.once('error', (e) => compressed.destroy(e));
    compressed.once('close', () => {
      if (!source.destroyed) source.destroy();
      void reader.cancel().catch(() => undefined);
    });
    c.res = new Response(Readable.toWeb(compressed) as ReadableStream<Uint8Array>, res);
    c.res.headers.delete('Content-Length');
    c.res.headers.set('Content-Encoding', encoding);
  };
}
