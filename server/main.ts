import { ConfigError, readConfig, type ServiceConfig } from './config';
import { listen } from './listen';
import { createService } from './service';

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

async function main() {
  const config = configOrExit();
  const { app, store, deps, demoCredentialsFile } = await createService(config);
  const running = await listen(app, config.port, config.host);
  process.stdout.write(`Lookout is running at http://localhost:${running.port}\n`);
  if (demoCredentialsFile) process.stdout.write(`Demo sign-in: see ${demoCredentialsFile}\n`);

  const stop = () => {
    // 1001 "going away": clients reconnect to the next instance with a fresh ticket.
    deps.feed.closeAll(1001, 'service stopping');
    void running
      .close()
      .then(() => store.close())
      .then(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
