const HELP = `Usage: npm run bench -- [options]

  --smoke              tiny scale and short runs (CI): 2,000 clients and items, 100 users, 2 s per scenario
  --reuse              keep a database seeded at the same scale by an earlier run (BENCH_REUSE=1)
  --clients N          clients to seed (BENCH_CLIENTS, default 1000000)
  --items N            items to seed (BENCH_ITEMS, default 1000000)
  --owners N           users the items are spread over (BENCH_OWNERS, default 1000)
  --users N            users to seed (BENCH_USERS, default 10000)
  --duration S         seconds of load per scenario (BENCH_DURATION, default 10)
  --warmup S           seconds of unmeasured load before each scenario (BENCH_WARMUP, default 2)
  --connections N      concurrent connections (BENCH_CONNECTIONS, default 32)
  --login-connections N  connections for login and the login storm (BENCH_LOGIN_CONNECTIONS, default 8)
  --rounds N           rounds of each read scenario, gateway then baseline; the median CPU ratio is reported
                       (BENCH_ROUNDS, default 3, 1 with --smoke)
  --admin-runs N       page loads for the admin figures (BENCH_ADMIN_RUNS, default 5)
  --no-admin           skip the admin figures
  --build              run \`npm run build\` first (otherwise the existing dist/ is used, built if missing)
  --force              seed even a database that holds data the benchmark did not write
  --cpu-prof DIR       write CPU profiles (node --cpu-prof) of the gateway into DIR, of the baseline into DIR/baseline
                       and of the framework floor into DIR/floor, one file per process;
                       use with --only one scenario to see where that request's time goes
  --heap-prof DIR      write a sampling heap profile of the gateway into DIR: what it allocates, the objects the
                       collector freed included (bench/lib/heap-sample.mjs); summed by \`node bench/profile-summary.mjs\`
  --only KEYS          run only these scenarios, comma-separated (BENCH_ONLY): restList5, graphqlList5, restList,
                       restListDeep, restGet, graphqlList, graphqlGet, login, restCreate; skips the admin figures
                       unless "admin" is listed

Database: BENCH_DATABASE_URL; else the server of DATABASE_URL with database "bench";
else postgres://postgres@127.0.0.1:5432/bench. The benchmark truncates that database's tables.`;

const count = (value, name) => {
  const n = Number(String(value).replace(/[_,]/g, ''));
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, not "${value}"`);
  return n;
};

export function benchDatabaseUrl(env) {
  if (env.BENCH_DATABASE_URL) return env.BENCH_DATABASE_URL;
  if (env.DATABASE_URL) {
    // Never the application's own database: the benchmark truncates tables.
    const url = new URL(env.DATABASE_URL);
    url.pathname = '/bench';
    return url.toString();
  }
  return 'postgres://postgres@127.0.0.1:5432/bench';
}

/** The scenario keys of `--only`, or null for every scenario. */
function onlyKeys(value) {
  if (!value) return null;
  return new Set(
    String(value)
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
  );
}

export function parseOptions(argv, env) {
  const flags = new Map();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument "${arg}"\n\n${HELP}`);
    const [name, inline] = arg.slice(2).split('=', 2);
    if (['smoke', 'reuse', 'no-admin', 'force', 'build', 'help'].includes(name)) flags.set(name, true);
    else flags.set(name, inline ?? argv[++i]);
  }
  if (flags.get('help')) {
    console.log(HELP);
    process.exit(0);
  }
  const smoke = Boolean(flags.get('smoke')) || env.BENCH_SCALE === 'small';
  const pick = (flag, variable, full, small) => count(flags.get(flag) ?? env[variable] ?? (smoke ? small : full), flag);
  return {
    smoke,
    reuse: Boolean(flags.get('reuse')) || ['1', 'true', 'yes'].includes(env.BENCH_REUSE ?? ''),
    force: Boolean(flags.get('force')),
    admin: !flags.get('no-admin'),
    build: Boolean(flags.get('build')),
    databaseUrl: benchDatabaseUrl(env),
    scale: {
      clients: pick('clients', 'BENCH_CLIENTS', 1_000_000, 2_000),
      items: pick('items', 'BENCH_ITEMS', 1_000_000, 2_000),
      owners: pick('owners', 'BENCH_OWNERS', 1_000, 10),
      users: Math.max(1, pick('users', 'BENCH_USERS', 10_000, 100)),
    },
    duration: pick('duration', 'BENCH_DURATION', 10, 2),
    warmup: pick('warmup', 'BENCH_WARMUP', 2, 1),
    connections: Math.max(1, pick('connections', 'BENCH_CONNECTIONS', 32, 32)),
    loginConnections: Math.max(1, pick('login-connections', 'BENCH_LOGIN_CONNECTIONS', 8, 8)),
    rounds: Math.max(1, pick('rounds', 'BENCH_ROUNDS', 3, 1)),
    adminRuns: Math.max(1, pick('admin-runs', 'BENCH_ADMIN_RUNS', 5, 2)),
    only: onlyKeys(flags.get('only') ?? env.BENCH_ONLY),
    cpuProf: flags.get('cpu-prof') ?? env.BENCH_CPU_PROF ?? null,
    heapProf: flags.get('heap-prof') ?? env.BENCH_HEAP_PROF ?? null,
  };
}
