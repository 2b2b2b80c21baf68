// Portico's service worker: the app's shell loads without a network.
//
// - At install it stores every file of this build (the precache list the build writes
//   into PRECACHE) in a cache named for the build; at activation the caches of older
//   builds go. Hashed assets are answered from that cache first: a build never changes
//   a file under the same name.
// - A page load (navigation) goes to the network first, and its answer (index.html with
//   the client configuration) is kept as the last shell; without a network, or when the
//   server does not answer within NAVIGATION_TIMEOUT_MS, that kept shell answers. At
//   activation, with no shell kept yet, the worker fetches one itself: the page that
//   installed it loaded before it was in control, and without that a reload offline
//   right after the first visit had nothing to answer with.
// - The API is never touched here: what the app shows offline is its own business
//   (copies of recently opened records kept by the app, changes queued on the device),
//   so no answer of one user or role can be served to another from here.
//
// The build replaces the two placeholders below (vite.config.ts, serviceWorker()).

const BUILD = '__PORTICO_BUILD__';
const PRECACHE = /** @type {string[]} */ (JSON.parse('__PORTICO_PRECACHE__'));

const SHELL_CACHE = `portico-shell-${BUILD}`;
const PAGE_CACHE = 'portico-page';
const PAGE_KEY = '/';
const NAVIGATION_TIMEOUT_MS = 4000;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith('portico-shell-') && name !== SHELL_CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
      .then(() => keepFirstShell()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') {
    event.respondWith(navigation(request));
    return;
  }
  if (PRECACHE.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname).then((kept) => kept ?? fetch(request)));
  }
});

/** The network's page when it answers in time (kept as the shell), else the kept shell. */
async function navigation(request) {
  const network = fetch(request).then(async (response) => {
    if (response.ok && (response.headers.get('Content-Type') ?? '').startsWith('text/html')) await keepShell(response.clone());
    return response;
  });
  const late = new Promise((resolve) => setTimeout(resolve, NAVIGATION_TIMEOUT_MS, null));
  try {
    const answer = await Promise.race([network, late]);
    if (answer) return answer;
  } catch {
    // No network: the kept shell below.
  }
  const kept = await caches.match(PAGE_KEY, { cacheName: PAGE_CACHE });
  return kept ?? network;
}

/** Keeps the page's shell when none is kept yet; without a network, none. */
async function keepFirstShell() {
  if (await caches.match(PAGE_KEY, { cacheName: PAGE_CACHE })) return;
  try {
    const response = await fetch(PAGE_KEY);
    if (response.ok && (response.headers.get('Content-Type') ?? '').startsWith('text/html')) await keepShell(response);
  } catch {
    // Offline: the next page load keeps it.
  }
}

/**
 * Keeps index.html as it arrived, decoded: the body with the headers the page needs
 * (its type and its Content-Security-Policy, whose style nonce the page's meta repeats).
 */
async function keepShell(response) {
  const headers = new Headers();
  for (const name of ['Content-Type', 'Content-Security-Policy']) {
    const value = response.headers.get(name);
    if (value) headers.set(name, value);
  }
  const body = await response.blob();
  const cache = await caches.open(PAGE_CACHE);
  await cache.put(PAGE_KEY, new Response(body, { status: 200, headers }));
}
