/**
 * Preloaded into the gateway by `npm run bench -- --heap-prof DIR`: V8's sampling heap profiler, counting the objects
 * the collector has freed too (what a request allocates, not what it keeps), written to
 * DIR/Heap.<pid>.heapprofile every 2 s and when the process exits. `node bench/profile-summary.mjs` reads it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

const dir = process.env.BENCH_HEAP_PROF_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `Heap.${process.pid}.heapprofile`);
  // A session of the process's own thread answers at once: the profile is written before `post` returns.
  const write = () =>
    session.post('HeapProfiler.getSamplingProfile', (error, answer) => {
      if (!error) writeFileSync(file, JSON.stringify(answer.profile));
    });
  setInterval(write, 2000).unref();
  process.on('exit', write);
}
