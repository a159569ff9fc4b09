// The gcplay page's service worker: it keeps a copy of every file of the
// page, so the page opens and runs offline once it has been loaded. The
// network comes first (a rebuilt site is picked up at once); the copy is
// used when the network fails.
const CACHE = 'gcplay-v1';
const FILES = ['./', 'index.html', 'main.js', 'style.css', 'wasm_exec.js', 'main.wasm',
  'xterm/xterm.mjs', 'xterm/xterm.css', 'xterm/addon-fit.mjs'];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== location.origin) return;
  e.respondWith(
    fetch(req)
      .then((resp) => {
        if (resp.ok) {
          const copy = resp.clone();
          caches.open(CACHE).then((c) => c.put(req, copy));
        }
        return resp;
      })
      .catch(() => caches.match(req, { ignoreSearch: true }).then((hit) => hit || Response.error())),
  );
});
