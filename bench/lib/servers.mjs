import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The last lines of a log file that are not routine request logs (pino level 30), for error messages. */
function lastLines(file, count = 20) {
  try {
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    return lines
      .filter((line) => !line.includes('"level":30') || line.includes('listening'))
      .slice(-count)
      .join('\n');
  } catch {
    return '';
  }
}

/**
 * Starts a server as a child process and resolves once it logs a line carrying `msg` and `url` (pino's JSON
 * lines for the gateway, the same shape for the baseline). Its output goes to a file, as a log collector would
 * take it: a pipe read by the busy load generator could fill up and stall the server's synchronous log writes.
 * The file is removed when the server is stopped.
 */
export function startServer({ name, command, args, cwd, env, readyMessage, timeoutMs = 60_000 }) {
  return new Promise((resolve, reject) => {
    const logFile = path.join(os.tmpdir(), `bench-${name}-${process.pid}-${Date.now()}.log`);
    const fd = openSync(logFile, 'w');
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    let done = false;
    const finish = (error, server) => {
      if (done) return;
      done = true;
      clearInterval(poll);
      clearTimeout(timer);
      if (error) {
        child.kill('SIGKILL');
        reject(error);
      } else {
        resolve(server);
      }
    };
    const fail = (reason) => finish(new Error(`${name} did not start: ${reason}\n${lastLines(logFile)}`));
    const timer = setTimeout(() => fail(`no "${readyMessage}" line within ${timeoutMs / 1000} s`), timeoutMs);
    const running = () => child.exitCode === null && child.signalCode === null;
    const poll = setInterval(() => {
      let text;
      try {
        text = readFileSync(logFile, 'utf8');
      } catch {
        return;
      }
      const line = text.split('\n').find((l) => l.includes(readyMessage));
      if (!line) return;
      let url;
      try {
        url = JSON.parse(line).url;
      } catch {
        return;
      }
      finish(null, {
        name,
        child,
        url: url.replace('localhost', '127.0.0.1'),
        running,
        stop: async () => {
          await stopChild(child);
          rmSync(logFile, { force: true });
        },
        /** Throws with the server's last output if it is no longer running. */
        assertRunning() {
          if (running()) return;
          const how = child.signalCode ?? `code ${child.exitCode}`;
          throw new Error(`${name} exited (${how}) during the run; its last output:\n${lastLines(logFile)}`);
        },
      });
    }, 50);
    child.on('exit', (code, signal) => {
      if (!done) setTimeout(() => fail(`exited with ${signal ?? code}`), 100);
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
/** A process's CPU time in user space and in the kernel (ms), or null. */
export function cpuSplit(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
  } catch {
    return null;
  }
}

export function cpuMillis(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms (CLK_TCK = 100)
  } catch {
    return null;
  }
}
