import { createRequire } from 'node:module';

/** package.json's version, recorded in each backup's manifest. */
export const SERVICE_VERSION = (
  createRequire(import.meta.url)('../../../package.json') as {
    version: string;
  }
).version;
