import { serve } from '@hono/node-server';
import { ConfigError, readConfig } from './config';
import { createService } from './service';

async function main() {
  let config;
  try {
    config = readConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const { app, store, demoCredentialsFile } = await createService(config);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    const url = `http://localhost:${info.port}`;
    process.stdout.write(`Lookout is running at ${url}\n`);
    if (demoCredentialsFile) process.stdout.write(`Demo sign-in: see ${demoCredentialsFile}\n`);
  });
  const stop = () => {
    server.close(() => {
      store.close();
      process.exit(0);
    });
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
