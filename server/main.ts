import { ConfigError, readConfig, type ServiceConfig } from './core/config';
import { listen } from './listen';
import { migrateStore } from './store/migrate-store';
import { dropTelemetryBefore } from './store/drop-telemetry-before';
import { createService } from './service';
import { SHUTDOWN_GRACE_MS, shutdownService } from './shutdown';

function configOrExit(): ServiceConfig {
  try {
    return readConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}

/** `migrate`: migrate the configured store and exit (the service also migrates on start). */
async function migrate(config: ServiceConfig) {
  const { store, from, to } = await migrateStore(config);
  process.stdout.write(
    from === to
      ? `The ${store} store is at schema version ${to}; nothing to migrate.\n`
      : `Migrated the ${store} store from schema version ${from} to ${to}.\n`,
  );
}

async function serve(config: ServiceConfig) {
  const service = await createService(config);
  const running = await listen(service.app, config.port, config.host);
  process.stdout.write(`Lookout is running at http://localhost:${running.port}\n`);
  if (service.demoCredentialsFile) {
    process.stdout.write(`Demo sign-in: see ${service.demoCredentialsFile}\n`);
  }

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Should closing hang (a store that does not answer), exit anyway.
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + 5_000).unref();
    shutdownService(running, service).then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`Stopping failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

const USAGE = `Usage: tsx server/main.ts                                 serve
       tsx server/main.ts migrate                         migrate the store and exit
       tsx server/main.ts drop-telemetry-before <date>    PostgreSQL: drop whole months of telemetry ended by <date> (2025-06-01)
`;

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const valid =
    command === undefined ||
    (command === 'migrate' && rest.length === 0) ||
    (command === 'drop-telemetry-before' && rest.length === 1);
  if (!valid) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const config = configOrExit();
  if (command === 'migrate') {
    await migrate(config);
    process.exit(0);
  }
  if (command === 'drop-telemetry-before') {
    const result = await dropTelemetryBefore(config, rest[0] ?? '');
    if (!result.ok) {
      process.stderr.write(`${result.error}\n`);
      process.exit(2);
    }
    process.stdout.write(
      result.dropped.length === 0
        ? 'No whole month of telemetry ended by then; nothing dropped.\n'
        : `Dropped ${String(result.dropped.length)} partitions: ${result.dropped.join(', ')}\n`,
    );
    process.exit(0);
  }
  await serve(config);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
