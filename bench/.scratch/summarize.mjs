import { readFileSync, readdirSync } from 'node:fs';
const dir = process.argv[2];
const file = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => `${dir}/${f}`).at(-1);
const p = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = new Map();
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inRequest = (id) => { for (let cur = id; cur !== undefined; cur = parent.get(cur)) { if (byId.get(cur).callFrame.functionName === 'parserOnIncoming') return true; } return false; };
let started = false;
for (let i = 0; i < p.samples.length; i++) { if (!started && inRequest(p.samples[i])) started = true; if (started) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0)); }
const label = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/')}:${n.callFrame.lineNumber}`;
let total = 0;
const incl = new Map();
for (const [id, t] of dt) {
  total += t;
  const n = byId.get(id);
  self.set(label(n), (self.get(label(n)) ?? 0) + t);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const l = label(byId.get(cur));
    if (seen.has(l)) continue;
    seen.add(l);
    incl.set(l, (incl.get(l) ?? 0) + t);
  }
}
const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([l, t]) => `${(100 * t / total).toFixed(1).padStart(5)}% ${l}`).join('\n');
console.log('total ms', (total / 1000).toFixed(0), '\n--- self\n' + top(self, 30) + '\n--- inclusive\n' + top(incl, 45));
