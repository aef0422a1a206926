/**
 * Bundle sizes of the built console: the JS a first visit loads (entry + modulepreloads
 * named in index.html) and each lazily loaded chunk, gzip-compressed as served.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export type BundleReport = {
  initial_js_gzip_bytes: number;
  initial_css_gzip_bytes: number;
  chunks: { file: string; gzip_bytes: number; initial: boolean }[];
};

export function measureBundle(distDir: string): BundleReport {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const initial = new Set(
    [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1] ?? ''),
  );
  const assets = fs.readdirSync(path.join(distDir, 'assets')).filter((f) => /\.(js|css)$/.test(f));
  const chunks = assets
    .map((f) => ({
      file: `assets/${f}`,
      gzip_bytes: gzipSync(fs.readFileSync(path.join(distDir, 'assets', f))).length,
      initial: initial.has(`assets/${f}`),
    }))
    .sort((a, b) => b.gzip_bytes - a.gzip_bytes);
  const sum = (ext: string) =>
    chunks.filter((c) => c.initial && c.file.endsWith(ext)).reduce((n, c) => n + c.gzip_bytes, 0);
  return { initial_js_gzip_bytes: sum('.js'), initial_css_gzip_bytes: sum('.css'), chunks };
}
