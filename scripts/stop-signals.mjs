// How `npm start` (scripts/start.mjs) and `npm run demo` (scripts/demo.mjs) stop: the first stop signal goes to the
// child under way, and the script then ends as that child ended.

/** The stop signals a script passes on, with their numbers (an exit by one of them is 128 + its number). */
export const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/**
 * Passes the first stop signal to `child()` (SIGHUP as SIGTERM: the child runs in a session of its own, so a closed
 * terminal reaches it only from here, and it stops cleanly on SIGTERM); with no child under way, `alone(signal)`
 * ends the script. A terminal's Ctrl-C reaches the script twice (from the terminal and from npm): the child is told
 * once. Answers the signal received, if any.
 */
export function passStopSignals(child, alone) {
  let received;
  for (const signal of Object.keys(SIGNAL_NUMBERS)) {
    process.on(signal, () => {
      if (received) return;
      received = signal;
      const running = child();
      if (running) running.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
      else alone(signal);
    });
  }
  return () => received;
}

/** Ends this process as a child ended: with its exit code, or by the signal that ended it, so its caller sees why. */
export function exitLike(code, signal) {
  if (code !== null) process.exit(code);
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
}
