// The gcplay page's service worker: it keeps a copy of every file of the
// page, so a second visit starts from this browser's copy and the page
// opens and runs offline once it has been loaded.
//
// main.wasm's name carries its content's hash (make web writes it, and
// this file's list and cache name): once kept, it is never fetched over
// the network again. It is answered from the browser's HTTP cache when
// that still holds it (the host caches it for a year), and from this
// worker's copy only when it does not: the browser keeps the code it
// compiles from a response beside the entry that response came from, so
// the first visit's code sits with its HTTP-cache entry, which this
// worker's copy (a separate entry, kept before any code was made) does
// not share. Answering from the copy made the second visit compile it all
// again, and only the third start from compiled code.
//
// The small files go to the network first, so a rebuilt site is picked up
// at once (a new index.html names a new main.wasm), and fall back to the
// copy when the network fails.
const CACHE = 'gcplay-v1';
const FILES = ['./', 'index.html', 'main.js', 'style.css', 'wasm_exec.js', 'main.wasm',
  'xterm/xterm.mjs', 'xterm/xterm.css', 'xterm/addon-fit.mjs'];
const versioned = (url) => /\/main\.[0-9a-f]{12,}\.wasm$/.test(url.pathname);

self.addEventListener('install', (e) => {
  // The browser's HTTP cache usually has every file already (main.wasm is
  // cached for a year), so this fetches little.
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('gcplay-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

function fromNetwork(req) {
  return fetch(req).then((resp) => {
    if (resp.ok) {
      const copy = resp.clone();
      caches.open(CACHE).then((c) => c.put(req, copy));
    }
    return resp;
  });
}

self.addEventListener('fetch', (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== location.origin) return;
  if (versioned(url)) {
    // only-if-cached: the HTTP cache's entry or nothing, never the network.
    const cached = fetch(req.url, { cache: 'only-if-cached', mode: 'same-origin' })
      .then((resp) => (resp.ok ? resp : Promise.reject(new Error('not in the HTTP cache'))));
    e.respondWith(cached.catch(() => caches.match(req).then((hit) => hit || fromNetwork(req))));
    return;
  }
  e.respondWith(fromNetwork(req).catch(() => caches.match(req, { ignoreSearch: true }).then((hit) => hit || Response.error())));
});
