#!/usr/bin/env node
/**
 * First-load budgets (issue 4), measured on the production build (`npm run build`):
 *
 *   login route      ≤ 200 kB of JavaScript, gzip
 *   dashboard route  ≤ 300 kB of JavaScript, gzip, counting what the login route loaded
 *
 * A route "loads" the entry chunk of index.html, its page chunk and everything those
 * import statically, plus the chunks the route starts at once: the sign-in page preloads
 * the identity SDK (src/lib/session/firebase.ts); the dashboard loads the navbar and its
 * data module. The chunk graph comes from the build (vite.config.ts writes
 * dist-meta/bundle-graph.json); sizes are gzip level 9 of the files in dist/.
 *
 * The login route must also stay free of list, table, form and chart code: no module of
 * src/features/records/ but its route table, and no page but the sign-in page.
 *
 * Also prints what each route's first load weighs on the wire (JavaScript, CSS and
 * index.html): raw, and as served to a browser that accepts gzip or brotli — the stored
 * variants scripts/compress.mjs wrote beside the files (a file without one goes out as it is).
 *
 * Prints a table and exits 1 when a budget is exceeded or the graph is missing pieces.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(web, 'dist');
const graphFile = path.join(web, 'dist-meta/bundle-graph.json');

// Budgets in kilobytes of 1000 bytes, as the build reports sizes.
const KB = 1000;
const routes = [
  {
    name: 'login',
    budget: 200 * KB,
    roots: ['index.html', 'src/features/auth/LoginPage.tsx', 'src/lib/session/firebase.ts'],
    // Nothing of the record pages, lists, tables, forms or charts (the records feature's
    // route table aside: it names its pages lazily), and no page but the sign-in page.
    forbidden: (id) =>
      (id.startsWith('src/features/records/') && id !== 'src/features/records/routes.ts') ||
      (/Page\.tsx$/.test(id) && id !== 'src/features/auth/LoginPage.tsx'),
  },
  {
    name: 'dashboard',
    budget: 300 * KB,
    includes: 'login',
    roots: ['src/features/shell/Navbar.tsx', 'src/features/dashboard/DashboardPage.tsx', 'src/features/dashboard/DashboardPage.queries.ts'],
  },
];

function fail(message) {
  console.error(`check-bundle: ${message}`);
  process.exit(1);
}

if (!existsSync(graphFile)) fail(`${path.relative(web, graphFile)} is missing: run \`npm run build\` first.`);
const { chunks } = JSON.parse(readFileSync(graphFile, 'utf8'));
const byFile = new Map(chunks.map((c) => [c.file, c]));
const byFacade = new Map(chunks.filter((c) => c.facade).map((c) => [c.facade, c]));

const gzipCache = new Map();
function gzipSize(file) {
  if (!gzipCache.has(file)) {
    const full = path.join(dist, file);
    if (!existsSync(full)) fail(`${file} is in the graph but not in dist/ (a stale graph? rebuild).`);
    gzipCache.set(file, gzipSync(readFileSync(full), { level: 9 }).length);
  }
  return gzipCache.get(file);
}

/** A chunk and everything it imports statically. */
function closure(rootFiles) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    const chunk = byFile.get(file);
    if (!chunk) fail(`chunk ${file} is missing from the graph`);
    seen.add(file);
    for (const dep of chunk.imports) visit(dep);
  };
  rootFiles.forEach(visit);
  return seen;
}

function rootChunk(root) {
  const chunk = root === 'index.html' ? chunks.find((c) => c.isEntry) : byFacade.get(root);
  if (!chunk) fail(`no chunk for ${root}: was it renamed, or no longer lazily loaded?`);
  return chunk.file;
}

/** A file's size as served with a coding: its stored variant (.gz, .br) or, without one, the file. */
function servedSize(file, suffix) {
  const full = path.join(dist, file);
  return statSync(existsSync(full + suffix) ? full + suffix : full).size;
}

/** The first load's bytes on the wire: raw, gzip and brotli. index.html is gzipped by the server per request. */
function wire(files) {
  const sum = (suffix) => files.reduce((total, file) => total + servedSize(file, suffix), 0);
  const index = readFileSync(path.join(dist, 'index.html'));
  return { raw: sum('') + index.length, gzip: sum('.gz') + gzipSync(index).length, br: sum('.br') + gzipSync(index).length };
}

const kb = (bytes) => `${(bytes / KB).toFixed(1)} kB`;
const results = new Map();
let failed = false;

for (const route of routes) {
  const files = closure(route.roots.map(rootChunk));
  if (route.includes) for (const file of results.get(route.includes).files) files.add(file);
  const rows = [...files].map((file) => ({ file, gzip: gzipSize(file), modules: byFile.get(file).modules }));
  rows.sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((sum, r) => sum + r.gzip, 0);
  results.set(route.name, { files, total });
  const cssFiles = [...new Set(rows.flatMap((r) => byFile.get(r.file).css))];
  const css = cssFiles.reduce((sum, file) => sum + gzipSize(file), 0);
  const onWire = wire([...files, ...cssFiles]);

  console.log(
    `\n${route.name} route: ${kb(total)} of ${kb(route.budget)} (JS, gzip)${route.includes ? `, including the ${route.includes} route` : ''}; CSS ${kb(css)} (not budgeted)`,
  );
  console.log(`  first load on the wire (JS, CSS, index.html): raw ${kb(onWire.raw)}, gzip ${kb(onWire.gzip)}, brotli ${kb(onWire.br)}`);
  for (const row of rows) console.log(`  ${kb(row.gzip).padStart(9)}  ${row.file}`);

  if (total > route.budget) {
    console.error(`  OVER BUDGET by ${kb(total - route.budget)}`);
    failed = true;
  }
  if (route.forbidden) {
    const offenders = rows.flatMap((r) => r.modules.filter(route.forbidden).map((m) => `${m} (in ${r.file})`));
    if (offenders.length) {
      console.error(`  loads code it must not:\n    ${offenders.join('\n    ')}`);
      failed = true;
    }
  }
}

if (failed) fail('budget exceeded');
console.log('\nbundle budgets: OK');
