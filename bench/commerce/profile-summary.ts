// Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by package, and the
// inclusive time of a few named functions, so a profile can be read without DevTools:
//   node bench/commerce/profile-summary.ts FILE.cpuprofile [TOP]
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [TOP]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const total = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
const idle = profile.nodes
  .filter((n) => ['(idle)', '(program)'].includes(n.callFrame.functionName))
  .reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
const busy = total - idle;
const pct = (n: number) => `${((n / busy) * 100).toFixed(1).padStart(5)} %`;

function where(url: string): string {
  const m = /node_modules\/\.pnpm\/([^/]+)/.exec(url) ?? /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!.replace(/@[\d.]+.*$/, '');
  if (url.startsWith('node:')) return url;
  const k = /keygate[^/]*\/(?:[^/]+\/)*?((?:commerce|packages\/[^/]+)\/src\/.*)$/.exec(url);
  return k ? k[1]! : url || '(native)';
}

const self = new Map<string, number>();
const pkg = new Map<string, number>();
for (const n of profile.nodes) {
  const name = n.callFrame.functionName;
  if (name === '(idle)' || name === '(program)') continue;
  const w = where(n.callFrame.url);
  const key = `${name || '(anonymous)'} ${w}:${n.callFrame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (n.hitCount ?? 0));
  const p = w.includes('/src/') ? `${w.split('/src/')[0]}/src/${w.split('/src/')[1]!.split('/')[0]}` : w;
  pkg.set(p, (pkg.get(p) ?? 0) + (n.hitCount ?? 0));
}
// Inclusive hits: the subtree under every node, summed by function (each sample counted once per name).
const inclusive = new Map<string, number>();
function walkInclusive(id: number, stack: string[]): void {
  const n = byId.get(id)!;
  const name = `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame.url)}`;
  const hits = n.hitCount ?? 0;
  const chain = stack.includes(name) ? stack : [...stack, name];
  for (const s of chain) inclusive.set(s, (inclusive.get(s) ?? 0) + hits);
  for (const c of n.children ?? []) walkInclusive(c, chain);
}
walkInclusive(profile.nodes[0]!.id, []);

const top = Number(topArg ?? 30);
console.log(`busy samples ${busy} of ${total}`);
console.log('\n-- self time by package/dir --');
for (const [k, v] of [...pkg].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${pct(v)}  ${k}`);
console.log('\n-- self time by function --');
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);
console.log('\n-- inclusive, top --');
for (const [k, v] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top * 2))
  console.log(`${pct(v)}  ${k}`);
