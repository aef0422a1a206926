import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'hono';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves the built console: files under the static directory, and index.html for every
 * other page path so client-side routes survive a reload. Hashed assets are cached long.
 */
export function createConsoleServer(staticDir: string) {
  const root = path.resolve(staticDir);
  const indexPath = path.join(root, 'index.html');
  return {
    available: () => fs.existsSync(indexPath),
    serve(c: Context): Response {
      let rel: string;
      try {
        rel = decodeURIComponent(c.req.path);
      } catch {
        rel = '/';
      }
      const file = path.resolve(root, `.${path.posix.normalize(rel)}`);
      const inside = file.startsWith(root + path.sep);
      if (inside && fs.existsSync(file) && fs.statSync(file).isFile()) {
        const body = fs.readFileSync(file);
        const immutable = rel.startsWith('/assets/');
        return c.body(body, 200, {
          'Content-Type': types[path.extname(file)] ?? 'application/octet-stream',
          'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        });
      }
      // A missing asset is a 404; any other path is a page. Page paths may hold dots
      // (`/releases/web@1.8.2`), so only the extensions of files we serve mean "a file".
      if (rel.startsWith('/assets/') || path.extname(rel) in types) {
        return c.text('Not found', 404);
      }
      return c.body(fs.readFileSync(indexPath), 200, {
        'Content-Type': types['.html'] ?? 'text/html',
        'Cache-Control': 'no-cache',
      });
    },
  };
}
