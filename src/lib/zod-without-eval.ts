import { z } from 'zod/mini';

/**
 * The page's Content-Security-Policy forbids eval. Zod 4 compiles object parsers with
 * `new Function` when it can, and merely probing for that is reported as a CSP violation;
 * jitless mode never tries. Imported by main.tsx before any module that parses.
 */
z.config({ jitless: true });
