// Prints the gzipped size of the initial JavaScript (the entry chunk plus every chunk it
// imports statically) and fails the build when it exceeds the budget. Lazy routes are
// dynamic imports and so are not counted: that is the point of lazy-loading them.
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const BUDGET_KB = 350;
const dist = new URL('../dist/', import.meta.url).pathname;
const manifestPath = join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`bundle-size: ${manifestPath} is missing (build.manifest must be on)`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
if (entries.length === 0) {
  console.error('bundle-size: no entry chunk in the manifest');
  process.exit(1);
}

const seen = new Set();
const rows = [];
function visit(key) {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) return;
  if (chunk.file.endsWith('.js')) {
    const bytes = readFileSync(join(dist, chunk.file));
    rows.push({ file: chunk.file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
  }
  for (const imported of chunk.imports ?? []) visit(imported);
}
for (const [key] of entries) visit(key);

const kb = (n) => (n / 1024).toFixed(1);
rows.sort((a, b) => b.gzip - a.gzip);
let raw = 0;
let gzip = 0;
for (const row of rows) {
  raw += row.raw;
  gzip += row.gzip;
  console.log(
    `  ${row.file.padEnd(48)} ${kb(row.raw).padStart(8)} KB  ${kb(row.gzip).padStart(7)} KB gzip`,
  );
}
console.log(`initial JS: ${kb(raw)} KB, ${kb(gzip)} KB gzipped (budget ${BUDGET_KB} KB)`);
if (gzip > BUDGET_KB * 1024) {
  console.error(
    `bundle-size: initial JS is over budget by ${kb(gzip - BUDGET_KB * 1024)} KB gzipped`,
  );
  process.exit(1);
}
