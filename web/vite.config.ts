import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const webDir = path.dirname(fileURLToPath(import.meta.url));

/** Where the build writes its chunk graph for scripts/check-bundle.mjs (outside dist/, so it is not served). */
const BUNDLE_GRAPH = path.join(webDir, 'dist-meta/bundle-graph.json');

/**
 * Records the production chunk graph: each chunk's file, the source module it stands for
 * (its facade), its static and dynamic imports, its CSS and the source modules inside it.
 * The bundle-budget check reads it to measure what a route really loads.
 */
function bundleGraph(): Plugin {
  return {
    name: 'portico-bundle-graph',
    apply: 'build',
    writeBundle(_options, bundle) {
      const rel = (id: string | null | undefined) => (id ? path.relative(webDir, id.replace(/\?.*$/, '')).split(path.sep).join('/') : null);
      const chunks = Object.values(bundle)
        .filter((out) => out.type === 'chunk')
        .map((chunk) => ({
          file: chunk.fileName,
          isEntry: chunk.isEntry,
          isDynamicEntry: chunk.isDynamicEntry,
          facade: rel(chunk.facadeModuleId),
          imports: chunk.imports,
          dynamicImports: chunk.dynamicImports,
          css: [...((chunk as { viteMetadata?: { importedCss?: Set<string> } }).viteMetadata?.importedCss ?? [])],
          modules: chunk.moduleIds.map(rel).filter((id): id is string => !!id && !id.startsWith('\0')),
        }));
      mkdirSync(path.dirname(BUNDLE_GRAPH), { recursive: true });
      writeFileSync(BUNDLE_GRAPH, JSON.stringify({ chunks }, null, 1));
    },
  };
}

/** The service worker's source: serviceworker/sw.js, completed by serviceWorker(). */
const SERVICE_WORKER = path.join(webDir, 'serviceworker/sw.js');

/**
 * Chunks the worker does not keep: the PDF library's optional parts (rendering HTML and SVG
 * into a PDF, sanitising HTML), which the app never calls — about 110 kB gzip the device
 * would download for nothing. A chunk made only of these packages is left out.
 */
const notPrecached = /[\\/]node_modules[\\/](html2canvas|canvg|dompurify|core-js|@babel[\\/]runtime|performance-now|raf|rgbcolor|svg-pathdata|stackblur-canvas)[\\/]/;

/** Every file under dir, as paths relative to it with '/' separators. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/**
 * Writes /sw.js (the installable app's offline shell) into the build: serviceworker/sw.js
 * with the list of this build's files to keep (every chunk, style sheet and public file
 * but the unused ones, notPrecached; not index.html, which the worker keeps as the server
 * last sent it) and a build id that
 * changes with that list, so a new build's worker replaces the old one and its cache.
 */
function serviceWorker(): Plugin {
  let publicDir = '';
  return {
    name: 'portico-service-worker',
    apply: 'build',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    generateBundle(_options, bundle) {
      const unused = (out: (typeof bundle)[string]) =>
        out.type === 'chunk' && out.moduleIds.length > 0 && out.moduleIds.every((id) => notPrecached.test(id));
      const built = Object.values(bundle)
        .filter((out) => !unused(out))
        .map((out) => out.fileName);
      const files = [...built, ...(publicDir ? filesUnder(publicDir) : [])]
        .filter((file) => file !== 'index.html')
        .map((file) => `/${file}`)
        .sort();
      const build = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 16);
      const source = readFileSync(SERVICE_WORKER, 'utf8')
        .replace('__PORTICO_BUILD__', build)
        .replace('__PORTICO_PRECACHE__', JSON.stringify(files).replaceAll("'", "\\'"));
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

// The Go server (`portico serve`) embeds dist/ and serves it; during `vite dev` the API
// is proxied to a locally running server.
const apiTarget = process.env.PORTICO_API_URL ?? 'http://127.0.0.1:8080';

// The UI kit: Mantine and the small libraries behind its overlays (floating-ui, scroll
// lock). One vendor group, split by who uses what (`entriesAware`): the part every
// screen needs is one shared file, and the parts only some routes use (menus and
// popovers for the navbar, tables and progress bars for the record pages) are files of
// their own, so the sign-in page never downloads them.
const mantineModules =
  /[\\/]node_modules[\\/](@mantine|@floating-ui|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|react-number-format|react-textarea-autosize|clsx|tslib|get-nonce|detect-node-es|aria-hidden)[\\/]/;

// Vendor groups: each is cached independently of app code and of the others. Higher
// priority wins when a module matches several.
const vendorGroups = [
  { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
  // Pieces under 1 kB are merged into a neighbour; at 8 kB the merge folded the record
  // pages' popover and floating-ui code into a chunk the sign-in page loads (+25 kB), and
  // at 2 kB, once the offline notices were chunks of their own, the dialogs' and scroll
  // areas' code as well (+29 kB: sign-in 223 kB, 195 kB at 1 kB).
  { name: 'mantine', test: mantineModules, priority: 20, entriesAware: true, entriesAwareMergeThreshold: 1_000 },
  {
    name: 'data',
    test: /[\\/]node_modules[\\/](react-router|@tanstack|zustand|cookie|set-cookie-parser)[\\/]/,
    priority: 10,
  },
];

export default defineConfig({
  plugins: [react(), bundleGraph(), serviceWorker()],
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    // Never inline assets as data: URIs; every asset is a hashed file served from 'self',
    // which keeps the Content-Security-Policy free of data: sources.
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: { groups: vendorGroups },
        // The UI kit's parts are named after every route that shares them; a hash is enough.
        chunkFileNames: (chunk) => (chunk.name.startsWith('mantine~') ? 'assets/mantine-[hash].js' : 'assets/[name]-[hash].js'),
      },
    },
  },
});
