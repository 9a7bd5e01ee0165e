import { readFileSync, writeFileSync, existsSync } from 'node:fs';

const MB = 1_000_000;
const fixed = (value, digits = 1) => (value === null || value === undefined ? '–' : value.toFixed(digits));
const int = (value) => (value === null || value === undefined ? '–' : Math.round(value).toLocaleString('en'));
const rate = (value) => (value !== null && value !== undefined && value < 10 ? fixed(value) : int(value));
const pair = (a, b, format) => `${format(a)} / ${format(b)}`;

export function markdown(results) {
  const { meta, rows, targets, admin, storm } = results;
  const rowsByKey = Object.fromEntries(rows.map((r) => [r.key, r]));
  const lines = [];
  lines.push(
    `Run ${meta.finishedAt} · ${meta.scale.clients.toLocaleString('en')} clients, ` +
      `${meta.scale.items.toLocaleString('en')} items over ${meta.scale.owners.toLocaleString('en')} users, ` +
      `${meta.scale.users.toLocaleString('en')} users · ${meta.connections} connections ` +
      `(login ${meta.loginConnections}), ${meta.duration} s per scenario after ${meta.warmup} s warm-up · ` +
      `${meta.cpus} × ${meta.cpuModel}, Node ${meta.node}, PostgreSQL ${meta.postgres}, bcrypt cost ${meta.bcryptCost}` +
      (meta.gatewayFlags ? ` · gateway started as by \`npm start\`: \`node ${meta.gatewayFlags}\`` : '') +
      (meta.smoke ? ' · **smoke run (tiny scale): figures are not representative**' : ''),
  );
  lines.push('');
  lines.push(
    '| Scenario | Gateway req/s | Baseline req/s | Gateway ÷ baseline | p50 ms (gw / base) | p99 ms (gw / base) ' +
      '| Errors (gw / base) | SQL per request (gw / base) | Server CPU ms per request (gw / base) | CPU gw ÷ base ' +
      '| Gateway peak RSS MB |',
  );
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const row of rows) {
    const g = row.gateway ?? {};
    const b = row.baseline ?? {};
    lines.push(
      `| ${row.name} | ${rate(g.rps)} | ${rate(b.rps)} | ${fixed(row.ratio, 2)} | ${pair(g.p50, b.p50, fixed)} ` +
        `| ${pair(g.p99, b.p99, fixed)} | ${pair(g.errors, b.errors, int)} | ${pair(row.sql?.gateway, row.sql?.baseline, (v) => fixed(v, 1))} ` +
        `| ${pair(g.cpuMsPerRequest, b.cpuMsPerRequest, (v) => fixed(v, 2))} | ${fixed(row.cpuRatio, 2)} ` +
        `| ${g.peakRss ? fixed(g.peakRss / MB, 0) : '–'} |`,
    );
  }
  const one = results.oneConnection;
  if (one?.gateway?.restList) {
    const describe = (key) =>
      `${rowsByKey[key]?.name ?? key} p50 ${pair(one.gateway[key]?.p50, one.baseline[key]?.p50, fixed)} ms, ` +
      `p99 ${pair(one.gateway[key]?.p99, one.baseline[key]?.p99, fixed)} ms`;
    lines.push('');
    lines.push(`One connection at a time (gateway / baseline): ${describe('restList')}; ${describe('graphqlList')}.`);
  }
  // Scenarios run again on another server: each result beside its ratio to the baseline.
  const alsoRun = (title, runs, withRss) => {
    const keys = Object.keys(runs ?? {});
    if (!keys.length) return;
    const describe = (key) => {
      const r = runs[key];
      const rss = withRss ? `, peak RSS ${fixed(r.peakRss / MB, 0)} MB` : '';
      return (
        `${rowsByKey[key]?.name ?? key} ${rate(r.rps)} req/s (÷ baseline ${fixed(r.ratio, 2)}, ` +
        `${fixed(r.cpuMsPerRequest, 2)} ms CPU per request${r.cpuRatio ? `, ${fixed(r.cpuRatio, 2)}× the baseline's` : ''}${rss})`
      );
    };
    lines.push('');
    lines.push(`${title}: ${keys.map(describe).join('; ')}.`);
  };
  alsoRun(
    "Framework floor (the baseline's own handler inside a bare Express 5 app served as the gateway serves its app, " +
      'GraphQL through Apollo Server 5 on it, nothing else)',
    results.expressFloor,
    false,
  );
  alsoRun("The gateway without the heap bounds of `npm start` (Node's defaults)", results.withoutHeapBounds, true);
  if (storm) {
    lines.push('');
    lines.push(
      `Login storm: REST list page 1 p99 ${fixed(storm.alone.p99)} ms alone (${int(storm.alone.rps)} req/s), ` +
        `${fixed(storm.during.p99)} ms during ${meta.loginConnections} connections of logins ` +
        `(${int(storm.during.rps)} req/s; logins ${rate(storm.logins.rps)}/s, p99 ${fixed(storm.logins.p99)} ms, ` +
        `errors ${int(storm.logins.errors)}).`,
    );
  }
  for (const r of results.restarts ?? []) {
    lines.push('');
    lines.push(
      `Note: the ${r.server} stopped during "${r.scenario}" (${r.reason}); it was started again and the scenario repeated.`,
    );
  }
  lines.push('');
  if (admin?.measured) {
    lines.push(
      `Admin (/clientes, headless Chromium, median of ${admin.runs} cold loads per network profile): ` +
        `${fixed(admin.bytesUntilRows / 1000)} kB received until the first rows, of which JavaScript ` +
        `${fixed(admin.jsBytesUntilRows / 1000)} kB as sent (${fixed(admin.jsBytesUntilRowsUncompressed / 1000)} kB ` +
        `uncompressed; ${fixed(admin.jsUntilRowsGzipBytes / 1000)} kB at gzip level 6). First client ` +
        `rows after ${int(admin.timeToRowsMs)} ms on loopback (DOMContentLoaded at ${int(admin.domContentLoadedMs)} ms, ` +
        `scripts loaded at ${int(admin.scriptsLoadedMs)} ms, API calls from ${int(admin.firstApiCallStartMs)} to ` +
        `${int(admin.lastApiCallEndMs)} ms; the rows waited for ${int(admin.apiRoundTripsBeforeRows)} API round ` +
        `trip(s)), and after ${admin.slowTimeToRowsMs === null ? 'no rows' : `${int(admin.slowTimeToRowsMs)} ms`} ` +
        `on a 10 Mbit/s link with 40 ms round trips.`,
    );
  } else {
    lines.push(`Admin: not measured (${admin?.reason ?? 'skipped'}).`);
  }
  lines.push('');
  lines.push('| Target | Measured | Result |');
  lines.push('|---|---|---|');
  for (const t of targets) lines.push(`| ${t.target} | ${t.measured} | ${t.result} |`);
  return lines.join('\n') + '\n';
}

const HOW_TO_RUN = `Written by the latest full-scale run (\`npm run bench\`); smoke runs and smaller scales write only
bench/results/latest.json and latest.md.`;

/**
 * Writes results to bench/results and, for a full-scale run, the tables into `readme` (bench/README.md) between its
 * bench markers.
 */
export function writeResults(dir, readme, results) {
  const md = markdown(results);
  writeFileSync(`${dir}/latest.json`, JSON.stringify(results, null, 2) + '\n');
  writeFileSync(`${dir}/latest.md`, `# Benchmark results\n\n${md}`);
  if (!results.meta.smoke && results.meta.scale.clients >= 1_000_000 && existsSync(readme)) {
    const text = readFileSync(readme, 'utf8');
    const start = '<!-- bench:start -->';
    const end = '<!-- bench:end -->';
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from >= 0 && to > from) {
      writeFileSync(readme, `${text.slice(0, from + start.length)}\n${HOW_TO_RUN}\n\n${md}${text.slice(to)}`);
    }
  }
  return md;
}
