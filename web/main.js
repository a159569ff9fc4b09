// The gcplay page: an xterm.js terminal, and the playground (Go compiled
// to WebAssembly, wasm/main.go) drawing into it. The page starts first:
// it creates the terminal and the callbacks the Go side uses, then loads
// and runs main.wasm.
//
// Go calls: goTermWrite(bytes), onGoReady(cols, rows), onGoWorld(link, lesson), onGoExit(reason),
// gcplayDownload(name, bytes), gcplayStore.get/set.
// The page calls: goTermInput(data), goFlush(), goStarted(), goTermResize(cols, rows),
// goCommand(line), goOpenLink(text), goOpenLesson(name), goLink().
import { Terminal } from './xterm/xterm.mjs';
import { FitAddon } from './xterm/addon-fit.mjs';

const WORLD_KEY = 'gcplay.world';
const FILE_PREFIX = 'gcplay.file/';
const LESSON_PREFIX = 'gcplay.lesson/';
// The world kept here before a share link replaced it: opening someone's
// link must not lose your own.
const BEFORE_LINK_KEY = 'gcplay.world.before-link';
// The playground's language: a choice kept here (a language switch sets it
// and reloads), else the browser's (navigator.language, as zh-CN or en-US).
const LANG_KEY = 'gcplay.lang';

// Timing marks (performance.now(), ms since navigation) for the browser
// test and the benchmark.
const t = window.__t; // set by index.html
t.module = performance.now();

const $ = (id) => document.getElementById(id);
const overlay = $('overlay');

function showOverlay(kind, title, detail, again) {
  overlay.className = kind;
  overlay.hidden = false;
  $('overlay-title').textContent = title;
  $('overlay-detail').textContent = detail || '';
  $('again').hidden = !again;
}

function fail(title, detail) {
  t.failed = title;
  showOverlay('error', title, detail, true);
}

let statusTimer;
function status(text) {
  $('status').textContent = text;
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => ($('status').textContent = ''), 6000);
}

// localStorage, which may be full or disabled (private windows): the page
// still works, it only forgets.
const store = (window.gcplayStore = {
  get(key) {
    try { return localStorage.getItem(key); } catch { return null; }
  },
  set(key, value) {
    try { localStorage.setItem(key, value); return true; } catch { return false; }
  },
  remove(key) {
    try { localStorage.removeItem(key); } catch { /* nothing to forget */ }
  },
});

function fragment() {
  const p = new URLSearchParams(location.hash.slice(1));
  return { link: p.get('s'), lesson: p.get('lesson') };
}

// What to open: a share link (#s=...), a lesson (#lesson=NAME), or the
// world kept in this browser; with none, the Go side opens the starter.
// A lesson's world is kept apart, under its name.
const boot = fragment();
window.gcplayBoot = { ...boot, lang: store.get(LANG_KEY) || navigator.language || '', saved: store.get(WORLD_KEY), savedLesson: boot.lesson ? store.get(LESSON_PREFIX + boot.lesson) : null };

// A share link is about to replace the world kept here: set that world
// aside (once: a second link keeps the first world you had), so "Back to my
// world" can bring it back.
function keepOwnWorld(link) {
  const mine = store.get(WORLD_KEY);
  if (mine && mine !== link && !store.get(BEFORE_LINK_KEY)) store.set(BEFORE_LINK_KEY, mine);
  showBack();
}
function showBack() {
  $('back').hidden = !store.get(BEFORE_LINK_KEY);
}
if (boot.link) keepOwnWorld(boot.link);
else showBack();

// The terminal. convertEol: Bubble Tea moves down with a bare "\n" when its
// input is not a TTY, as a terminal in cooked mode would.
const term = (window.term = new Terminal({
  convertEol: true,
  cursorBlink: false,
  scrollback: 0,
  fontSize: 14,
  // CJK last: a Chinese character takes two cells in any of them.
  fontFamily: '"DejaVu Sans Mono", "Cascadia Mono", Menlo, Consolas, "Liberation Mono", "Noto Sans Mono CJK SC", "Sarasa Mono SC", "WenQuanYi Zen Hei Mono", monospace',
  theme: { background: '#101418', foreground: '#d8dee9', cursor: '#d8dee9', selectionBackground: '#3b4252' },
}));
const fit = new FitAddon();
term.loadAddon(fit);
term.open($('terminal'));
fit.fit();
term.focus();

// The screen as text, for the browser test.
window.bufferText = () => {
  const b = term.buffer.active;
  const lines = [];
  for (let i = 0; i < term.rows; i++) lines.push(b.getLine(b.viewportY + i)?.translateToString(true) ?? '');
  return lines.join('\n');
};

// Output: bytes, so xterm's UTF-8 decoder joins runes split across writes.
window.goTermWrite = (u8) => term.write(u8);

// Input waits for the first frame. xterm.js answers Bubble Tea's terminal
// queries while it takes in that frame, and Go decoding the answers (its
// first input, in code the browser compiles on first use) would hold the
// frame back by tens of milliseconds; keys typed while loading wait too.
// Once a call into Go returns, the program has taken the input in (Go runs
// until all its goroutines wait), so goFlush then draws the frame that
// shows it at once, instead of at the renderer's next tick.
let pending = [];
const input = (data) => {
  if (!window.goTermInput || t.firstFrame === undefined) return pending.push(data);
  window.goTermInput(data);
  window.goFlush?.();
};
function deliverPending() {
  if (!window.goTermInput) return;
  for (const d of pending) window.goTermInput(d);
  pending = [];
  window.goFlush?.();
}
term.onData((d) => input(d));
term.onBinary((d) => {
  const u8 = new Uint8Array(d.length);
  for (let i = 0; i < d.length; i++) u8[i] = d.charCodeAt(i) & 0xff;
  input(u8);
});
term.onResize(({ cols, rows }) => {
  window.goTermResize?.(cols, rows);
  window.goFlush?.();
});
new ResizeObserver(() => fit.fit()).observe($('wrap'));
// The moment a key reaches the page, before xterm.js handles it.
addEventListener('keydown', () => { t.keyAt = performance.now(); t.keys++; }, true);

// Frames: the first one ends the loading state; __expect lets the test
// time how long a key takes to show.
term.onRender(() => {
  const text = window.__expect !== undefined || t.firstFrame === undefined ? window.bufferText() : '';
  if (t.firstFrame === undefined && (text.includes(' gcplay │') || text.includes('gcplay needs at least'))) {
    t.firstFrame = performance.now();
    overlay.hidden = true;
    term.focus();
    window.goStarted?.(); // the Go side collects garbage from now on
    setTimeout(deliverPending);
    setTimeout(registerWorker);
  }
  // Only a frame drawn after the key counts (the bench clears keyAt when it
  // sets __expect): a completion hint can show the text before the key.
  if (window.__expect !== undefined && window.__hitAt == null && t.keyAt !== undefined && text.includes(window.__expect)) {
    window.__hitAt = performance.now();
  }
});

// Callbacks of the Go side.
// cols and rows are the size the program started with: a resize while it
// was starting is passed on (an unchanged size would only redraw).
window.onGoReady = (cols, rows) => {
  t.goReady = performance.now();
  if (cols !== term.cols || rows !== term.rows) window.goTermResize(term.cols, term.rows);
  // Go goes on to start the program and take its first view, then waits;
  // this runs then and draws that frame at once, not at the first tick.
  setTimeout(() => window.goFlush?.());
};

// The world changed: keep it, and make the address bar link to it. In a
// lesson the address bar names the lesson (a reload reopens it, with the
// world kept under the lesson's name).
window.onGoWorld = (text, lesson) => {
  t.saved = (t.saved || 0) + 1;
  const key = lesson ? LESSON_PREFIX + lesson : WORLD_KEY;
  if (!store.set(key, text)) status('This browser would not store the world (storage full or disabled); the address bar still links to it.');
  history.replaceState(null, '', lesson ? '#lesson=' + encodeURIComponent(lesson) : '#s=' + text);
};

window.onGoExit = (reason) => {
  t.exited = reason || 'ok';
  if (reason) {
    fail('gcplay stopped on an error', reason + '\n\nYour world up to the last change is kept in this browser.');
  } else {
    showOverlay('exited', 'gcplay has quit', 'Your world is kept in this browser: start again to go on where you were.', true);
  }
  $('again').focus();
};

window.gcplayDownload = (name, u8) => {
  const url = URL.createObjectURL(new Blob([u8], { type: 'application/yaml' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  status(`Downloaded ${name}.`);
};

// Keep the world when the page is hidden or closed, without waiting for
// the Go side's short write delay.
function keepNow() {
  const got = window.goLink?.();
  if (Array.isArray(got) && got[0]) window.onGoWorld(got[0], got[1]);
}
addEventListener('pagehide', keepNow);
document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && keepNow());

// A link pasted into the address bar of the open page.
addEventListener('hashchange', () => {
  const f = fragment();
  if (f.link) {
    keepNow();
    keepOwnWorld(f.link);
    window.goOpenLink?.(f.link);
  }
  else if (f.lesson) window.goOpenLesson?.(f.lesson);
});

// The buttons. Each gives the keyboard back to the terminal.
const refocus = () => term.focus();
$('share').addEventListener('click', async () => {
  keepNow();
  const got = window.goLink?.();
  const url = location.origin + location.pathname + (Array.isArray(got) ? '#s=' + got[0] : location.hash);
  try {
    await navigator.clipboard.writeText(url);
    status('Share link copied: it opens this world and its timeline.');
  } catch {
    status('The share link is in the address bar: copy it from there.');
  }
  refocus();
});
$('save').addEventListener('click', () => { window.goCommand?.('save gcplay-world.yaml'); refocus(); });
$('open').addEventListener('click', () => $('file').click());
$('file').addEventListener('change', async (e) => {
  const f = e.target.files[0];
  e.target.value = '';
  if (!f) return refocus();
  const name = f.name.replace(/[^A-Za-z0-9._-]/g, '_');
  if (!store.set(FILE_PREFIX + name, await f.text())) {
    status(`Could not keep ${name} in this browser's storage.`);
    return refocus();
  }
  window.goCommand?.(`load ${name}`);
  refocus();
});
$('new').addEventListener('click', () => {
  if (!confirm('Start over on the starter world? This world is forgotten (copy its share link first to keep it).')) return refocus();
  store.remove(WORLD_KEY);
  history.replaceState(null, '', location.pathname);
  location.reload();
});
$('back').addEventListener('click', () => {
  const mine = store.get(BEFORE_LINK_KEY);
  if (mine && window.goOpenLink) {
    store.remove(BEFORE_LINK_KEY);
    window.goOpenLink(mine, 'saved');
    status('Your own world is back. The shared one stays in its link.');
  }
  showBack();
  refocus();
});
$('again').addEventListener('click', () => {
  keepNow();
  location.reload();
});

// Offline: a service worker keeps a copy of every file of the page. It is
// registered once the first frame is drawn: installing it fetches every
// file again (main.wasm too) and writes them to the cache, work that would
// otherwise compete with the start of the program on a small machine.
function registerWorker() {
  if ('serviceWorker' in navigator && window.isSecureContext) {
    navigator.serviceWorker.register('sw.js').catch(() => { /* the page works without it, online */ });
  }
}

// Load and run the program.
async function run() {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.compileStreaming !== 'function') {
    return fail('This browser cannot run WebAssembly', 'gcplay runs as WebAssembly in the page. Use a current Firefox, Chrome, Edge or Safari, or run it in a terminal: go install github.com/gcplay/gcplay/cmd/gcplay@latest');
  }
  if (typeof Go !== 'function') {
    return fail('wasm_exec.js did not load', 'The page is incomplete: rebuild it with make web.');
  }
  const go = new Go();
  let instance;
  try {
    if (!window.gcplayWasm) throw new Error('index.html did not start loading main.wasm');
    instance = await WebAssembly.instantiate(await window.gcplayWasm, go.importObject);
  } catch (err) {
    return fail('The playground could not be loaded', `${err.message || err}\n\nCheck the connection and reload; once loaded, the page also works offline.`);
  }
  t.wasmLoaded = performance.now();
  $('overlay-title').textContent = 'Starting…';
  try {
    await go.run(instance);
  } catch (err) {
    fail('gcplay stopped on an error', String(err.message || err));
  }
}
run();
