import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleServer } from './static-console';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-static-'));
fs.mkdirSync(path.join(dir, 'assets'));
fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Lookout</title>');
fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b.js'), 'console.log(1)');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const app = new Hono();
const console_ = createConsoleServer(dir);
app.get('*', (c) => console_.serve(c));
const get = (p: string) => app.request(p);

describe('the built console', () => {
  it('serves files, hashed assets cached for good', async () => {
    const res = await get('/assets/app-1a2b.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/javascript');
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it.each(['/logs', '/releases/web@1.8.2', '/releases/shop-android%405.4.0%2B5040', '/traces/abc'])(
    'answers the page %s with index.html, so a reload keeps the route',
    async (p) => {
      const res = await get(p);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<title>Lookout</title>');
    },
  );

  it.each(['/assets/gone-1234.js', '/assets/anything', '/missing.js', '/favicon.png'])(
    'answers a missing file %s with 404',
    async (p) => {
      expect((await get(p)).status).toBe(404);
    },
  );
});
