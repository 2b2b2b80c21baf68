#!/usr/bin/env node
/**
 * Precompresses the built app (run after `vite build`): beside every text asset of dist/
 * (JavaScript, CSS, SVG, JSON, HTML but index.html) it writes `<file>.gz` (gzip level 9)
 * and `<file>.br` (brotli quality 11). The Go server embeds dist/ and answers each request
 * with the smallest variant the browser accepts (internal/httpapi/spa.go); it never
 * compresses these files itself.
 *
 * index.html is left out: the server writes a fresh nonce into it on every request, so it
 * cannot be compressed ahead of time. A variant that would not save at least 5 % of the file
 * is not written; the server then sends the file as it is.
 *
 * Usage: node scripts/compress.mjs [dist-dir]   (default: dist next to this script's folder)
 */
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(process.argv[2] ?? path.join(web, 'dist'));

/** The file types worth compressing: text. Images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|webmanifest|html|txt|xml|map)$/;
/** A variant must be at most this share of the file's size to be kept. */
const MAX_RATIO = 0.95;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

const encoders = {
  gz: (data) => gzipAsync(data, { level: 9 }),
  br: (data) =>
    brotliAsync(data, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
};

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

async function compress(file) {
  const data = await readFile(file);
  const sizes = { raw: data.length };
  await Promise.all(
    Object.entries(encoders).map(async ([ext, encode]) => {
      const out = `${file}.${ext}`;
      const packed = await encode(data);
      if (packed.length <= data.length * MAX_RATIO) {
        await writeFile(out, packed);
        sizes[ext] = packed.length;
      } else {
        await rm(out, { force: true });
      }
    }),
  );
  return sizes;
}

if (!(await stat(dist).catch(() => null))?.isDirectory()) {
  console.error(`compress: ${dist} is not a directory: run \`vite build\` first.`);
  process.exit(1);
}

const targets = [];
for await (const file of files(dist)) {
  const rel = path.relative(dist, file);
  if (rel !== 'index.html' && COMPRESSIBLE.test(file)) targets.push(file);
}
const results = await Promise.all(targets.map(compress));
const total = (key) => results.reduce((sum, r) => sum + (r[key] ?? r.raw), 0);
const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
console.log(`compress: ${targets.length} files, ${kB(total('raw'))} → gzip ${kB(total('gz'))}, brotli ${kB(total('br'))}`);
