// Compressed JavaScript each route loads first: the entry chunk, its static imports, and the
// route's lazy page chunk with its static imports (from Vite's manifest). Prints a Markdown table
// and fails when the login page exceeds its budget.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve('apps/web/dist');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const BUDGET_KB = 300;

const gz = new Map();
const gzipSize = (file) => {
  if (!gz.has(file)) gz.set(file, zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length);
  return gz.get(file);
};
const closure = (key, seen = new Set()) => {
  const e = manifest[key];
  if (!e || seen.has(e.file)) return seen;
  seen.add(e.file);
  for (const i of e.imports ?? []) closure(i, seen);
  return seen;
};
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const entry = closure(entryKey);
const pages = Object.keys(manifest).filter((k) => /features\/.+Page\.tsx$/.test(k));
const rows = pages
  .map((k) => {
    const files = closure(k, new Set(entry));
    const js = [...files].filter((f) => f.endsWith('.js'));
    return { page: path.basename(k, '.tsx'), kb: js.reduce((s, f) => s + gzipSize(f), 0) / 1024, chunks: js.length };
  })
  .sort((a, b) => a.kb - b.kb);
const entryKb = [...entry].filter((f) => f.endsWith('.js')).reduce((s, f) => s + gzipSize(f), 0) / 1024;
console.log(`| route page | first load JS (gzip) | chunks |\n|---|---:|---:|`);
console.log(`| (entry: frame, router, i18n) | ${entryKb.toFixed(1)} KB | ${[...entry].filter((f) => f.endsWith('.js')).length} |`);
for (const r of rows) console.log(`| ${r.page} | ${r.kb.toFixed(1)} KB | ${r.chunks} |`);
const login = rows.find((r) => r.page === 'LoginPage');
if (!login || login.kb > BUDGET_KB) {
  console.error(`Login page first load ${login?.kb.toFixed(1)} KB exceeds the ${BUDGET_KB} KB budget`);
  process.exit(1);
}
