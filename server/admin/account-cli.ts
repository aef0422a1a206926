/**
 * `npm run account -- set-plan <email> <tier> [--state S] [--interval I]`: changes an
 * account's plan in the service's store (`DATABASE_URL`, or the SQLite file in `LOOKOUT_DATA_DIR`,
 * default ./.lookout). Works beside running services; clients re-read usage and subscription.
 * `npm run account -- tickets` prints the stored support tickets for the operator.
 */
import { parseArgs } from 'node:util';
import { ConfigError, readConfig, type ServiceConfig } from '../core/config';
import { openStateStore } from '../store/open-store';
import { changePlan } from './change-plan';
import { listTickets } from './list-tickets';

const usage = `Usage: npm run account -- set-plan <email> <tier> [--state S] [--interval I]
       npm run account -- tickets   (support tickets stored for the operator, newest first)

  <tier>          free, pro or scale
  --state S       free (the free plan's only state), or for pro and scale: trialing,
                  active (default), past_due, paused, canceled
  --interval I    monthly (default) or yearly for pro and scale; none for free

Example: npm run account -- set-plan chen@lookout.dev pro --state past_due`;

function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

async function main() {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        state: { type: 'string' },
        interval: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    fail(`${(e as Error).message}\n\n${usage}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const [command, email, tier, ...rest] = positionals;
  const tickets = command === 'tickets' && positionals.length === 1;
  if (!tickets && (command !== 'set-plan' || !email || !tier || rest.length > 0)) fail(usage);
  let config: ServiceConfig;
  try {
    config = readConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message);
    throw e;
  }
  // Plans and tickets are state: the embedded ClickHouse engine's directory is locked by the
  // running service, so this command opens the state store alone.
  const store = await openStateStore(config);
  if (tickets) {
    try {
      process.stdout.write(await listTickets(store));
    } finally {
      await store.close();
    }
    return;
  }
  if (!email || !tier) fail(usage);
  try {
    const result = await changePlan(
      store,
      {
        email,
        tier,
        ...(values.state === undefined ? {} : { state: values.state }),
        ...(values.interval === undefined ? {} : { interval: values.interval }),
      },
      Date.now(),
    );
    if (!result.ok) fail(result.error, 1);
    const s = result.subscription;
    const period =
      s.periodStart === null || s.periodEnd === null
        ? 'no billing period'
        : `period ${new Date(s.periodStart).toISOString()} to ${new Date(s.periodEnd).toISOString()}`;
    process.stdout.write(
      `${email}: ${s.tier} (${s.state}, billing ${s.billingInterval}), ${period}\n`,
    );
  } finally {
    await store.close();
  }
}

void main();
