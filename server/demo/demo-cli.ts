/**
 * `npm run demo -- --live [--rate N] [--url URL] [--seed S]`: sends a trickle of new demo
 * telemetry to a running service over HTTP until Ctrl-C. The ingest keys come from
 * `<LOOKOUT_DATA_DIR>/demo-credentials.json`, which the service writes when it seeds the demo.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, readConfig } from '../core/config';
import type { DemoCredentials } from './demo-accounts';
import { runLiveTrickle } from './live-trickle';
import { DemoIngestError } from './send-batches';

const usage = `Usage: npm run demo -- --live [--rate N] [--url URL] [--seed S]

  --live       keep sending new events to a running service until Ctrl-C
  --rate N     events per second (default 5)
  --url URL    the service (default http://localhost:8080)
  --seed S     seed of the generator (default: the current time)

Reads the ingest keys from <LOOKOUT_DATA_DIR or ./.lookout>/demo-credentials.json.`;

function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

function readCredentials(): { file: string; credentials: DemoCredentials } {
  let dataDir: string;
  try {
    // The same environment rules as the service: the data directory is LOOKOUT_DATA_DIR.
    dataDir = readConfig(process.env).dataDir;
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message);
    throw e;
  }
  const file = path.join(dataDir, 'demo-credentials.json');
  if (!fs.existsSync(file)) {
    fail(`${file} does not exist: start the service with the demo world first (npm start).`);
  }
  return { file, credentials: JSON.parse(fs.readFileSync(file, 'utf8')) as DemoCredentials };
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        live: { type: 'boolean', default: false },
        rate: { type: 'string', default: '5' },
        url: { type: 'string', default: 'http://localhost:8080' },
        seed: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (e) {
    fail(`${(e as Error).message}\n\n${usage}`);
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  if (!values.live) fail(usage);
  const rate = Number(values.rate);
  if (!Number.isFinite(rate) || rate <= 0)
    fail(`--rate must be a positive number, got ${values.rate}`);
  const seed = values.seed === undefined ? Date.now() % 0xffffffff : Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0) fail(`--seed must be a non-negative integer`);
  const baseUrl = values.url;
  try {
    new URL(baseUrl);
  } catch {
    fail(`--url must be an absolute URL, got ${baseUrl}`);
  }

  const { file, credentials } = readCredentials();
  const controller = new AbortController();
  process.on('SIGINT', () => controller.abort());
  process.on('SIGTERM', () => controller.abort());
  process.stdout.write(
    `Sending about ${rate} demo events/s to ${baseUrl} with the keys in ${file}; Ctrl-C stops.\n`,
  );
  try {
    const total = await runLiveTrickle({
      baseUrl,
      credentials,
      rate,
      seed,
      signal: controller.signal,
      print: (line) => process.stdout.write(`${line}\n`),
    });
    const n = Object.values(total).reduce((a, b) => a + b, 0);
    process.stdout.write(`Stopped after ${n} events.\n`);
  } catch (e) {
    if (e instanceof DemoIngestError) {
      fail(
        e.status === 401
          ? `${e.message}\nThe ingest keys in ${file} are not valid for ${baseUrl}: is it the service that wrote them?`
          : e.message,
        1,
      );
    }
    throw e;
  }
}

void main();
