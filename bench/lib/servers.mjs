import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Starts a server as a child process and resolves once it logs a line carrying `msg` and `url`
 * (pino's JSON lines for the gateway, the same shape for the baseline). Its output is read and dropped,
 * except for the last lines, shown if it fails to start.
 */
export function startServer({ name, command, args, cwd, env, readyMessage, timeoutMs = 60_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail = [];
    let ready = false;
    let partial = '';
    const remember = (line) => {
      tail.push(line);
      if (tail.length > 20) tail.shift();
    };
    const fail = (reason) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start: ${reason}\n${tail.join('\n')}`));
    };
    const timer = setTimeout(() => fail(`no "${readyMessage}" line within ${timeoutMs / 1000} s`), timeoutMs);
    child.stdout.on('data', (chunk) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      for (const line of lines) {
        if (ready) {
          if (!line.includes('"level":30')) remember(line); // keep warnings and errors, not request logs
          continue;
        }
        remember(line);
        if (!line.includes(readyMessage)) continue;
        try {
          const { url } = JSON.parse(line);
          ready = true;
          clearTimeout(timer);
          resolve({
            name,
            child,
            url: url.replace('localhost', '127.0.0.1'),
            stop: () => stopChild(child),
            running: () => child.exitCode === null && child.signalCode === null,
            /** Throws with the server's last output if it is no longer running. */
            assertRunning() {
              if (child.exitCode === null && child.signalCode === null) return;
              const how = child.signalCode ?? `code ${child.exitCode}`;
              throw new Error(`${name} exited (${how}) during the run; its last output:\n${tail.join('\n')}`);
            },
          });
        } catch {
          // not a JSON line: keep waiting
        }
      }
    });
    child.stderr.on('data', (chunk) => String(chunk).split('\n').filter(Boolean).forEach(remember));
    child.on('exit', (code, signal) => {
      if (!ready) fail(`exited with ${signal ?? code}`);
    });
  });
}

function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

const statusValue = (pid, field) => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : undefined;
};

/**
 * Peak resident memory of a process. Linux keeps the peak (VmHWM) and lets its owner reset it by writing 5 to
 * /proc/<pid>/clear_refs, which gives a peak per scenario. Where that is refused the peak is the process's
 * peak so far, and a 50 ms poll of VmRSS is kept as a cross-check.
 */
export function memoryProbe(pid) {
  let polled = 0;
  let resettable = true;
  const timer = setInterval(() => {
    try {
      polled = Math.max(polled, statusValue(pid, 'VmRSS') ?? 0);
    } catch {
      clearInterval(timer);
    }
  }, 50);
  timer.unref();
  return {
    reset() {
      polled = 0;
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        resettable = false;
      }
    },
    peak() {
      let hwm = 0;
      try {
        hwm = statusValue(pid, 'VmHWM') ?? 0;
      } catch {
        // the process is gone: keep the polled value
      }
      return { bytes: Math.max(hwm, polled), sinceReset: resettable };
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/** CPU time (user + system, milliseconds) a process has used so far, from /proc/<pid>/stat. */
export function cpuMillis(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms (CLK_TCK = 100)
  } catch {
    return null;
  }
}
