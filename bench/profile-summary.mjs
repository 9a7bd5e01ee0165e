/**
 * Where a profiled server's CPU went, by part of the request path: `node bench/profile-summary.mjs FILE.cpuprofile…`
 * (profiles written by `npm run bench -- --cpu-prof DIR`), or what it allocated, from the sampling heap profiles of
 * `--heap-prof DIR` (FILE.heapprofile). Each sample goes to the innermost frame of its stack that
 * belongs to a part (so the socket writes under compression count as Node's HTTP, the cipher under the plain rows as
 * token decryption), and that of helpers several parts call (a media type's parser, a cache) to their caller. Left out: idle time, the start (module loading, the gateway's start), graphql-jit compiling an
 * operation (once), and time sampled inside a socket write or an fsync, which on a shared machine is mostly the
 * process waiting for a core; `/proc/<pid>/stat` shows the kernel's real share (the benchmark prints it per scenario).
 * With `--top N`, also the N functions with the most time of their own.
 */
import { readFileSync } from 'node:fs';

const PARTS = [
  ['garbage collector', /^\(garbage collector\)/],
  ['token decryption (AES-GCM)', /token-cipher\.js|crypto\/cipher/],
  ['JWT check and user row', /jsonwebtoken|jws\/|auth\/tokens\.js|auth\.service\.js/],
  [
    'pg driver (protocol, pool)',
    /pg-protocol|\/pg\/lib|pg-pool|tarn\/|knex\/lib\/client|lib\/connection\.js|lib\/result\.js|lib\/query\.js/,
  ],
  [
    'plain rows and services',
    /database\/plain-rows|database\/reads|database\/pagination|kit\/service|resources\/service|gateway\/validation/,
  ],
  ['access log (pino)', /pino|sonic-boom|fast-redact|\/redact\//],
  ['compression', /compression\/index\.js|on-headers|compressible|\/vary\//],
  [
    'graphql-jit execution',
    /graphql-jit|fast-json-stringify|dist\/execution\.js|dist\/ast\.js|dist\/non-null\.js|dist\/variables\.js/,
  ],
  ['type-graphql resolver wrapping', /type-graphql/],
  ['our GraphQL layers (resolvers, limits, context, executor)', /gateway\/graphql\//],
  ['graphql-js (variables, validation)', /node_modules\/graphql\//],
  ['Apollo Server pipeline (hash, negotiation, plugins)', /@apollo|as-integrations|negotiator|crypto\/hash/],
  ['body-parser', /body-parser|raw-body|type-is|iconv/],
  ['protections (request id, headers, timer, log line)', /http\/protections\.js/],
  ['REST layer (routes, answers)', /gateway\/rest\//],
  ['Express (router, request and response helpers)', /express\/|router\/|finalhandler|parseurl|path-to-regexp|\/qs\//],
  ['Node HTTP (parser, response, sockets)', /node:_http|node:http|node:net|stream_base_commons/],
  // The synchronisation's workers (`npm run bench:sync` with BENCH_SYNC_CPU_PROF).
  ['pg-boss (fetching, completing, sending jobs)', /node_modules\/pg-boss\//],
  ['MikroORM and knex (unit of work, identity map, hydration, query building)', /@mikro-orm\/|node_modules\/knex\//],
  ['HTTP clients (fetch: undici)', /node:internal\/deps\/undici|undici\//],
  [
    'store synchronisation (runner, writer, mapping)',
    /gateway\/sync\/|gateway\/jobs\/sync|gateway\/orders\/reservations/,
  ],
  ['job queue loop', /gateway\/queue\//],
];
const OTHER = 'other (promises, timers, Node streams)';
/** Helpers several parts call (parsing a media type, a cache): their time goes to the part that called them. */
const SHARED = /node_modules\/(content-type|media-typer|mime-types|mime-db|lru-cache|debug)\//;
const LEFT_OUT =
  /cjs\/loader|esm\/module_job|gateway\/main\.js|startGateway|compileQuery |heap-sample\.mjs|node:inspector/;
const WAITING = /^(\(idle\)|writev|writeString|writeBuffer|writeUtf8String|fsync) /;

const args = process.argv.slice(2);
const topIndex = args.indexOf('--top');
const top = topIndex >= 0 ? Number(args.splice(topIndex, 2)[1]) : 0;
// `--window FILE:NAME`: only the samples between the two times (µs of the monotonic clock) FILE's NAME gives.
const windowIndex = args.indexOf('--window');
const window = (() => {
  if (windowIndex < 0) return null;
  const [file, name] = args.splice(windowIndex, 2)[1].split(/:(?=[^:]+$)/);
  return JSON.parse(readFileSync(file, 'utf8'))[name];
})();

/**
 * A profile's call tree and what each of its nodes weighs: µs of CPU samples, or, for a sampling heap profile
 * (`--heap-prof`), the bytes allocated there.
 */
function weighed(profile) {
  const nodes = new Map();
  const parent = new Map();
  const weight = new Map();
  if (profile.head) {
    const walk = (node, up) => {
      nodes.set(node.id, node);
      if (up !== undefined) parent.set(node.id, up);
      if (node.selfSize) weight.set(node.id, node.selfSize);
      for (const child of node.children) walk(child, node.id);
    };
    walk(profile.head);
    return { nodes, parent, weight, heap: true };
  }
  for (const n of profile.nodes) nodes.set(n.id, n);
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (window && (at < window[0] || at > window[1])) return;
    weight.set(id, (weight.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return { nodes, parent, weight, heap: false };
}

for (const file of args) {
  const { nodes, parent, weight: time, heap } = weighed(JSON.parse(readFileSync(file, 'utf8')));
  const frame = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url}:${n.callFrame.lineNumber}`;
  const parts = new Map();
  const own = new Map();
  let busy = 0;
  for (const [id, t] of time) {
    const stack = [];
    for (let at = id; at !== undefined; at = parent.get(at)) stack.push(frame(nodes.get(at)));
    if ((!heap && WAITING.test(stack[0])) || stack.some((f) => LEFT_OUT.test(f))) continue;
    busy += t;
    let part = OTHER;
    for (const f of stack) {
      if (SHARED.test(f)) continue;
      const found = PARTS.find(([, pattern]) => pattern.test(f));
      if (found) {
        part = found[0];
        break;
      }
    }
    parts.set(part, (parts.get(part) ?? 0) + t);
    const key = stack[0].replace(/^(\S+) .*node_modules\//, '$1 ').replace(/file:\/\/\S*\/dist\//, '');
    own.set(key, (own.get(key) ?? 0) + t);
  }
  console.log(
    heap
      ? `${file}: ${(busy / 1e6).toFixed(0)} MB allocated`
      : `${file}: ${(busy / 1000).toFixed(0)} ms of CPU samples`,
  );
  for (const [part, t] of [...parts].sort((a, b) => b[1] - a[1]))
    console.log(`${((100 * t) / busy).toFixed(1).padStart(5)} %  ${part}`);
  if (top) {
    console.log(heap ? '  functions allocating the most themselves:' : '  functions with the most time of their own:');
    for (const [f, t] of [...own].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`${((100 * t) / busy).toFixed(1).padStart(5)} %  ${f}`);
  }
}
