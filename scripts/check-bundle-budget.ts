/**
 * `npm run check:budget` (part of `npm test`, after the build): fails when the built console
 * is over issue 11's size budget. A size check, never a timing: the same build gives the
 * same answer on any machine.
 */
import path from 'node:path';
import { bundleBudgetProblems, largestRouteChunk } from '../bench/bundle-budget';
import { measureBundle } from '../bench/bundle-size';

const dist = path.resolve(import.meta.dirname, '..', process.argv[2] ?? 'dist');
const report = measureBundle(dist);
const largest = largestRouteChunk(report);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(
  `Bundle: initial JS ${kb(report.initial_js_gzip_bytes)} gzip; largest route chunk ${largest ? `${largest.file} ${kb(largest.gzip_bytes)}` : 'none'} gzip`,
);
const problems = bundleBudgetProblems(report);
for (const p of problems) console.error(`Over budget: ${p}`);
process.exit(problems.length > 0 ? 1 : 0);
