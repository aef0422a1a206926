import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../test-support/start-service';
import { COMPRESS_THRESHOLD, pickEncoding } from './compress-responses';
import { streamJson } from './stream-json';

/** Raw answer of a GET: headers and body bytes as sent (no client decoding). */
function rawGet(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const BIG = Array.from({ length: 2000 }, (_, i) => ({ n: i, name: `span ${String(i)} é` }));

describe('compressed answers', () => {
  let svc: RunningService<false>;
  beforeAll(async () => {
    svc = await startService({
      extend: (app) => {
        app.get('/api/test/big', (c) => c.json(BIG));
        app.get('/api/test/small', (c) => c.json({ ok: true }));
        app.get('/api/test/streamed', () =>
          streamJson(
            (async function* () {
              yield Buffer.from('[');
              yield Buffer.from(BIG.map((b) => JSON.stringify(b)).join(','));
              yield Buffer.from(']');
            })(),
          ),
        );
        app.get(
          '/api/test/events',
          () =>
            new Response('data: x\n\n'.repeat(500), {
              headers: { 'Content-Type': 'text/event-stream' },
            }),
        );
      },
    });
  });
  afterAll(() => svc.close());

  it.each([
    ['br', 'br', (b: Buffer) => zlib.brotliDecompressSync(b)],
    ['gzip, deflate', 'gzip', (b: Buffer) => zlib.gunzipSync(b)],
    ['gzip, deflate, br', 'br', (b: Buffer) => zlib.brotliDecompressSync(b)],
  ])(
    'a large JSON answer is compressed when the client accepts %s',
    async (accept, used, decode) => {
      for (const path of ['/api/test/big', '/api/test/streamed']) {
        const res = await rawGet(svc.baseUrl, path, { 'Accept-Encoding': accept });
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding']).toBe(used);
        expect(res.headers['content-length']).toBeUndefined();
        expect(res.headers.vary).toMatch(/Accept-Encoding/);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.body.length).toBeLessThan(JSON.stringify(BIG).length / 3);
        expect(JSON.parse(decode(res.body).toString())).toEqual(BIG);
      }
    },
  );

  it('answers as it is for a client accepting no encoding we send, or nothing', async () => {
    const cases: Record<string, string>[] = [
      {},
      { 'Accept-Encoding': 'identity' },
      { 'Accept-Encoding': 'br;q=0, gzip;q=0' },
    ];
    for (const headers of cases) {
      const res = await rawGet(svc.baseUrl, '/api/test/big', headers);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(res.body.toString())).toEqual(BIG);
    }
  });

  it('sends short JSON, event streams and HEAD answers as they are', async () => {
    const small = await rawGet(svc.baseUrl, '/api/test/small', { 'Accept-Encoding': 'gzip, br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body.length).toBeLessThan(COMPRESS_THRESHOLD);
    expect(JSON.parse(small.body.toString())).toEqual({ ok: true });
    const events = await rawGet(svc.baseUrl, '/api/test/events', { 'Accept-Encoding': 'gzip, br' });
    expect(events.headers['content-encoding']).toBeUndefined();
    expect(events.body.toString()).toBe('data: x\n\n'.repeat(500));
    const head = await rawGet(svc.baseUrl, '/api/test/big', { 'Accept-Encoding': 'gzip' }, 'HEAD');
    expect(head.headers['content-encoding']).toBeUndefined();
  });

  it('picks brotli, then gzip, honouring q=0 and *', () => {
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*, br;q=0')).toBe('gzip');
    expect(pickEncoding('identity, deflate')).toBeNull();
  });
});
