import http from 'node:http';
import { HTTPException } from 'hono/http-exception';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callOnOwnConnection, expectError } from './test-support/api-client';
import { startService, type RunningService } from './test-support/start-service';

/** Cross-cutting envelope rules: every route answers errors the same way (spec "Errors"). */
describe('service envelope', () => {
  let svc: RunningService<true>;
  const componentNames = /sqlite|store|database|lookout\.sqlite|projects\.ts|\/var\/|TypeError/i;

  beforeAll(async () => {
    svc = await startService({
      demo: true,
      extend: (app) => {
        app.get('/api/test/boom', () => {
          throw new Error('sqlite: disk I/O error in /var/lib/lookout.sqlite (store.projects)');
        });
        app.get('/api/test/type-error', () => {
          const missing = undefined as unknown as { field: string };
          return new Response(missing.field);
        });
        app.post('/api/test/framework-415', () => {
          throw new HTTPException(415, { message: 'Unsupported Media Type' });
        });
        app.get('/api/test/non-error', () => {
          throw 'sqlite: database is locked';
        });
      },
    });
  });
  afterAll(() => svc.close());

  it('GET /healthz answers 200 {status: ok}', async () => {
    const res = await call(svc.baseUrl, 'GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  describe('unknown paths and methods', () => {
    it('an unknown API path is 404 not_found', async () => {
      expectError(await call(svc.baseUrl, 'GET', '/api/no-such-thing'), 404, 'not_found');
      expectError(
        await call(svc.baseUrl, 'POST', '/api/no/such/thing', { json: {} }),
        404,
        'not_found',
      );
    });

    it('an unknown non-API path is 404 not_found when no console is served', async () => {
      expectError(await call(svc.baseUrl, 'GET', '/issues'), 404, 'not_found');
    });

    it('a known path with a trailing slash is not a known path: 404, never 405', async () => {
      expectError(await call(svc.baseUrl, 'GET', '/api/projects/'), 404, 'not_found');
      expectError(await call(svc.baseUrl, 'POST', '/healthz/'), 404, 'not_found');
    });

    it.each([
      ['POST', '/healthz', ['GET /healthz']],
      ['DELETE', '/api/projects', ['GET /api/projects', 'POST /api/projects']],
      ['GET', '/api/auth/login', ['POST /api/auth/login']],
      ['PUT', '/api/auth/logout-all', ['POST /api/auth/logout-all']],
      [
        'GET',
        '/api/projects/3f0c6c35-4c7e-4c7a-9a3e-2b8b1f0e8a11/ingest-keys',
        ['POST /api/projects/{project_id}/ingest-keys'],
      ],
    ])(
      '%s %s is 405 method_not_allowed naming the supported request',
      async (method, path, supported) => {
        const res = await call(svc.baseUrl, method, path);
        expectError(res, 405, 'method_not_allowed');
        const next = (res.body as { next: string }).next;
        for (const s of supported) expect(next).toContain(s);
        const allow = (res.headers.get('allow') ?? '').split(/,\s*/).sort();
        expect(allow).toEqual(supported.map((s) => s.split(' ')[0]).sort());
      },
    );
  });

  describe('request bodies', () => {
    it('unreadable JSON is 400 invalid_json', async () => {
      const res = await call(svc.baseUrl, 'POST', '/api/auth/login', { raw: '{"email": "a@b.c",' });
      expectError(res, 400, 'invalid_json', { code: 'send_valid_json', target: 'request' });
    });

    it('a body over the limit is 413 invalid_json', async () => {
      const raw = JSON.stringify({ email: 'demo@lookout.dev', password: 'x'.repeat(64 * 1024) });
      const res = await callOnOwnConnection(svc.baseUrl, 'POST', '/api/auth/login', { raw });
      expectError(res, 413, 'invalid_json', { code: 'send_valid_json', target: 'request' });
    });

    it('a chunked body (no Content-Length) is refused with 413 at the limit, not read to its end', async () => {
      // 32 MiB offered in chunks: the answer must come long before the end. node:http on its own
      // socket, so the connection the service gives up on is never reused by another test.
      const chunk = Buffer.from(`{"email":"${'a'.repeat(4086)}`);
      const total = 32 * 1024 * 1024;
      let sent = 0;
      const answer = await new Promise<{ status: number; sentAtAnswer: number; text: string }>(
        (resolve, reject) => {
          let answered = false;
          const req = http.request(
            `${svc.baseUrl}/api/auth/login`,
            { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
            (res) => {
              answered = true;
              const sentAtAnswer = sent;
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (d: string) => (text += d));
              res.on('end', () => {
                req.destroy();
                resolve({ status: res.statusCode ?? 0, sentAtAnswer, text });
              });
            },
          );
          req.on('error', (err) => {
            if (!answered) reject(err);
          });
          const pump = () => {
            while (sent < total && !answered) {
              sent += chunk.length;
              if (!req.write(chunk)) {
                req.once('drain', pump);
                return;
              }
            }
            if (!answered) req.end();
          };
          pump();
        },
      );
      expect(answer.status).toBe(413);
      expect((JSON.parse(answer.text) as { code: string }).code).toBe('invalid_json');
      expect(answer.sentAtAnswer).toBeLessThan(total / 4);
    });

    it('a body over the limit of an authenticated route is 413 invalid_json', async () => {
      const raw = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) });
      const res = await callOnOwnConnection(svc.baseUrl, 'POST', '/api/projects', {
        token: svc.creds.account_token,
        raw,
      });
      expectError(res, 413, 'invalid_json', { code: 'send_valid_json', target: 'request' });
    });

    it.each([
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json-seq',
      'application/json;',
    ])('content type %s is 415 invalid_json', async (contentType) => {
      const raw = JSON.stringify({ email: 'demo@lookout.dev', password: 'lookout-demo' });
      const res = await call(svc.baseUrl, 'POST', '/api/auth/login', { raw, contentType });
      expectError(res, 415, 'invalid_json', { code: 'send_valid_json', target: 'request' });
    });

    it.each(['application/json; charset=utf-8', 'application/merge-patch+json'])(
      'content type %s is read as JSON',
      async (contentType) => {
        const raw = JSON.stringify({ email: 'demo@lookout.dev', password: 'lookout-demo' });
        const res = await call(svc.baseUrl, 'POST', '/api/auth/login', { raw, contentType });
        expect(res.status, res.text).toBe(200);
      },
    );

    it('a client error raised by the framework keeps the envelope (415 invalid_json, not 500)', async () => {
      const res = await call(svc.baseUrl, 'POST', '/api/test/framework-415', { raw: '{}' });
      expectError(res, 415, 'invalid_json', { code: 'send_valid_json', target: 'request' });
    });

    it('a body without a content type is 415 invalid_json', async () => {
      const res = await fetch(`${svc.baseUrl}/api/auth/login`, {
        method: 'POST',
        body: new Uint8Array(Buffer.from('{"email":"demo@lookout.dev","password":"lookout-demo"}')),
      });
      expect(res.status).toBe(415);
      expect(((await res.json()) as { code: string }).code).toBe('invalid_json');
    });

    it.each(['[]', '"demo@lookout.dev"', 'null', '42', 'true'])(
      'JSON that is not an object (%s) is 422 invalid_json',
      async (raw) => {
        const res = await call(svc.baseUrl, 'POST', '/api/auth/login', { raw });
        expectError(res, 422, 'invalid_json', { code: 'send_valid_json', target: 'request' });
      },
    );

    it('wrong field types are 422 validation_failed', async () => {
      const res = await call(svc.baseUrl, 'POST', '/api/auth/login', {
        json: { email: 5, password: ['lookout-demo'] },
      });
      expectError(res, 422, 'validation_failed', { code: 'fix_request', target: 'request' });
    });

    it('a missing required field is 422 validation_failed', async () => {
      const res = await call(svc.baseUrl, 'POST', '/api/auth/login', {
        json: { email: 'demo@lookout.dev' },
      });
      expectError(res, 422, 'validation_failed', { code: 'fix_request', target: 'request' });
    });
  });

  describe('query keys', () => {
    it('an unknown query key on GET /api/projects is 422 validation_failed', async () => {
      const res = await call(svc.baseUrl, 'GET', '/api/projects?project=abc', {
        token: svc.creds.account_token,
      });
      expectError(res, 422, 'validation_failed', { code: 'fix_request', target: 'request' });
    });

    it('the same list without the key is 200 (the 422 came from the key)', async () => {
      const res = await call(svc.baseUrl, 'GET', '/api/projects', {
        token: svc.creds.account_token,
      });
      expect(res.status).toBe(200);
    });
  });

  describe('unexpected failures', () => {
    it.each(['/api/test/boom', '/api/test/type-error', '/api/test/non-error'])(
      '%s is 500 internal_error with the message "Internal error" and no component named',
      async (path) => {
        const res = await call(svc.baseUrl, 'GET', path);
        expectError(res, 500, 'internal_error');
        expect((res.body as { error: string }).error).toBe('Internal error');
        expect(res.text).not.toMatch(componentNames);
      },
    );
  });

  describe('security headers', () => {
    const cases: [string, string, number][] = [
      ['GET', '/healthz', 200],
      ['GET', '/api/no-such-thing', 404],
      ['POST', '/healthz', 405],
      ['GET', '/api/projects', 401],
      ['GET', '/api/test/boom', 500],
    ];
    it.each(cases)(
      '%s %s (%i) carries nosniff and a strict script-src',
      async (method, path, status) => {
        const res = await call(svc.baseUrl, method, path);
        expect(res.status).toBe(status);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        const csp = res.headers.get('content-security-policy') ?? '';
        const scriptSrc = csp
          .split(';')
          .map((d) => d.trim())
          .find((d) => d.startsWith('script-src '));
        expect(scriptSrc).toBeDefined();
        expect(scriptSrc?.split(/\s+/)).toContain("'self'");
        expect(scriptSrc).not.toMatch(/unsafe-eval|unsafe-inline/);
        expect(csp).not.toMatch(/unsafe-eval/);
      },
    );
  });
});
