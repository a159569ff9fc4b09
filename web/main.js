// The gcplay page: an xterm.js terminal, and the playground (Go compiled
// to WebAssembly, wasm/main.go) drawing into it. The page starts first:
// it creates the terminal and the callbacks the Go side uses, then loads
// and runs main.wasm.
//
// Go calls: goTermWrite(bytes), onGoReady(cols, rows), onGoWorld(link, lesson),
// onGoLinkOpened(ok), onGoExit(reason), gcplayDownload(name, bytes), gcplayStore.get/set.
// The page calls: goTermInput(data), goFlush(), goStarted(), goTermResize(cols, rows),
// goCommand(line), goOpenLink(text), goOpenLesson(name), goOpenCourse(), goNextLesson(),
// goRestartLesson(), goCourse(), goLink().
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

// The loading text says what is really fetched: main.wasm's size as sent
// (compressed when the host compresses) and how.
const MB = (n) => (n / 1e6).toFixed(n < 1e7 ? 2 : 1) + ' MB';
window.gcplayShowFetch = () => {
  const f = t.wasmFetch;
  if (!f || !f.sent || t.wasmLoaded !== undefined) return;
  const how = f.encoding === 'br' ? 'brotli' : f.encoding || 'uncompressed: this host does not compress it';
  $('overlay-detail').textContent = `${MB(f.sent)} (${how}), once: it then works offline`;
};
window.gcplayShowFetch();

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

// This tab's own memory (sessionStorage: it survives a reload, and only
// this tab sees it): the last two share links it put into the address bar
// (the one written as the page unloads may come too late for a reload's
// address), and the world it last kept.
const TAB_HASH_KEY = 'gcplay.tab.link';
const TAB_PREV_KEY = 'gcplay.tab.link.before';
const TAB_WORLD_KEY = 'gcplay.tab.world';
const tab = {
  get(key) {
    try { return sessionStorage.getItem(key); } catch { return null; }
  },
  set(key, value) {
    try { sessionStorage.setItem(key, value); } catch { /* only a reload's guess is lost */ }
  },
};

// What to open: a share link (#s=...), a lesson (#lesson=NAME), or the
// world kept in this browser; with none, the Go side opens the starter.
// A lesson's world is kept apart, under its name.
const boot = fragment();
let saved = store.get(WORLD_KEY);
const ownLink = (link) => link === tab.get(TAB_HASH_KEY) || link === tab.get(TAB_PREV_KEY);
if (boot.link && ownLink(boot.link)) {
  // The address bar holds the link this tab wrote: a reload, not a shared
  // world. The address bar is written a moment after the last change, and
  // the world once more as the page unloads, too late for the reload's
  // address: the newest world this tab kept is the one to open.
  saved = tab.get(TAB_WORLD_KEY) || saved || boot.link;
  boot.link = saved;
}
window.gcplayBoot = { ...boot, lang: store.get(LANG_KEY) || navigator.language || '', saved, savedLesson: boot.lesson ? store.get(LESSON_PREFIX + boot.lesson) : null };

// A share link replaced the world kept here: that world was set aside
// (once: a second link keeps the first world you had), so "Back to my
// world" can bring it back. Only a link that opened does: a link that
// could not be opened leaves your world where it was.
let mineBeforeLink = boot.link && boot.link !== saved ? saved : null;
window.onGoLinkOpened = (ok) => {
  const mine = mineBeforeLink;
  mineBeforeLink = null;
  if (ok && mine && !store.get(BEFORE_LINK_KEY)) store.set(BEFORE_LINK_KEY, mine);
  showBack();
};
function showBack() {
  $('back').hidden = !store.get(BEFORE_LINK_KEY);
}
showBack();

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

// The playground needs MIN_COLS×MIN_ROWS cells (tui's minWidth and
// minHeight). A small window (a phone, half a laptop screen, a zoomed
// page) gets a smaller font, down to MIN_FONT px; below that the terminal
// keeps its smallest size and the page scrolls to it.
const FONT = 14, MIN_FONT = 9, MIN_COLS = 60, MIN_ROWS = 16;
function fitTerminal() {
  const el = $('terminal');
  el.style.minWidth = el.style.minHeight = '';
  let size = FONT;
  for (;;) {
    if (term.options.fontSize !== size) term.options.fontSize = size;
    const d = fit.proposeDimensions();
    if (!d || !Number.isFinite(d.cols)) return;
    if ((d.cols >= MIN_COLS && d.rows >= MIN_ROWS) || size <= MIN_FONT) break;
    // The cell scales with the font: jump close, then step down.
    const want = Math.max(MIN_FONT, Math.min(size - 0.5, Math.floor(2 * size * Math.min(d.cols / MIN_COLS, d.rows / MIN_ROWS)) / 2));
    size = want;
  }
  const d = fit.proposeDimensions();
  if (d.cols < MIN_COLS || d.rows < MIN_ROWS) {
    // Still too small: keep the smallest playground, scrolled to.
    const box = $('terminal').getBoundingClientRect();
    if (d.cols < MIN_COLS) el.style.minWidth = Math.ceil(box.width * MIN_COLS / Math.max(d.cols, 1)) + 'px';
    if (d.rows < MIN_ROWS) el.style.minHeight = Math.ceil(box.height * MIN_ROWS / Math.max(d.rows, 1)) + 'px';
  }
  fit.fit();
}
fitTerminal();
term.focus();

// Ctrl+C (and Cmd+C) copy the selection, as everywhere else on a page
// (Shift+drag selects while the playground has the mouse). With nothing
// selected the key goes to the playground, which says it does not quit.
term.attachCustomKeyEventHandler((e) => {
  if (e.type === 'keydown' && (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'c' && term.hasSelection()) {
    navigator.clipboard?.writeText(term.getSelection()).then(() => status('Copied.'), () => {});
    return false;
  }
  return true;
});

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
new ResizeObserver(() => fitTerminal()).observe($('wrap'));
// The moment a key reaches the page, before xterm.js handles it.
addEventListener('keydown', () => { t.keyAt = performance.now(); t.keys++; }, true);

// Frames: the first one ends the loading state; __expect lets the test
// time how long a key takes to show. The first frame is the first render
// with anything on the screen: Bubble Tea writes each frame in one piece,
// and its terminal queries before it draw nothing. (What the frame shows
// depends on the window: a lesson's introduction covers the status line
// in a short window, the playground may say the terminal is too small.)
term.onRender(() => {
  const text = window.__expect !== undefined || t.firstFrame === undefined ? window.bufferText() : '';
  if (t.firstFrame === undefined && text.trim() !== '') {
    t.firstFrame = performance.now();
    overlay.hidden = true;
    term.focus();
    window.goStarted?.(); // the Go side collects garbage from now on
    setTimeout(deliverPending);
    setTimeout(registerWorker);
    setTimeout(showCourse, 50);
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
  if (!lesson && text !== tab.get(TAB_HASH_KEY)) {
    tab.set(TAB_WORLD_KEY, text);
    tab.set(TAB_PREV_KEY, tab.get(TAB_HASH_KEY) || '');
    tab.set(TAB_HASH_KEY, text);
  }
  history.replaceState(null, '', lesson ? '#lesson=' + encodeURIComponent(lesson) : '#s=' + text);
  setTimeout(showCourse);
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
let leaving = false; // Start over: nothing is kept on the way out
function keepNow() {
  if (leaving) return;
  const got = window.goLink?.();
  if (Array.isArray(got) && got[0]) window.onGoWorld(got[0], got[1]);
}
addEventListener('pagehide', keepNow);
document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && keepNow());

// A link pasted into the address bar of the open page.
addEventListener('hashchange', () => {
  const f = fragment();
  if (f.link) {
    if (ownLink(f.link)) return; // our own, written by onGoWorld
    keepNow();
    mineBeforeLink = store.get(WORLD_KEY);
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
// The course. goCourse (Go) says where the learner stands: lessons done,
// the lesson shown and the next one. Lessons opens the lesson picker (the
// L key in a lesson), Next lesson the next one (N).
let inLesson = false;
function showCourse() {
  let c;
  try { c = JSON.parse(window.goCourse?.() || 'null'); } catch { c = null; }
  if (!c) return;
  inLesson = !!c.lesson;
  t.course = c;
  $('course-progress').textContent = `${c.done}/${c.total}`;
  $('lessons').title = `The course: ${c.total} lessons, ${c.done} done. Each has a goal checked on the live world.`;
  $('next').hidden = !(c.lesson && c.next);
  $('new').textContent = inLesson ? 'Restart lesson' : 'Start over';
  $('new').title = inLesson ? 'Put this lesson back at its start (R); your playground world is untouched'
    : 'Forget this world and open the starter world';
}
$('lessons').addEventListener('click', () => { window.goOpenCourse?.(); refocus(); });
$('next').addEventListener('click', () => { window.goNextLesson?.(); refocus(); });

// The header: ☰ shows the world's buttons on a phone, About the
// introduction, ▴ folds the bar into a thin strip (remembered).
const FOLD_KEY = 'gcplay.header.folded';
function fold(on) {
  document.body.classList.toggle('folded', on);
  $('collapse').textContent = on ? '▾' : '▴';
  $('collapse').setAttribute('aria-expanded', String(!on));
  $('collapse').title = on ? 'Show the bar' : 'Hide this bar: the playground gets its rows (the button stays)';
}
fold(store.get(FOLD_KEY) === '1');
$('collapse').addEventListener('click', () => {
  const on = !document.body.classList.contains('folded');
  store.set(FOLD_KEY, on ? '1' : '0');
  fold(on);
  refocus();
});
$('menu').addEventListener('click', () => {
  const open = document.body.classList.toggle('menu-open');
  $('menu').setAttribute('aria-expanded', String(open));
});
$('about-toggle').addEventListener('click', () => {
  const about = $('about');
  about.hidden = !about.hidden;
  $('about-toggle').setAttribute('aria-expanded', String(!about.hidden));
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
// Start over: in a lesson, the lesson's world back at its start (the R
// key); in the playground, the starter world (your world is forgotten).
$('new').addEventListener('click', () => {
  if (inLesson) {
    window.goRestartLesson?.();
    status('The lesson is back at its start; your own playground world is untouched.');
    return refocus();
  }
  if (!confirm('Start over on the starter world? This world is forgotten (copy its share link first to keep it).')) return refocus();
  leaving = true;
  store.remove(WORLD_KEY);
  tab.set(TAB_HASH_KEY, '');
  tab.set(TAB_PREV_KEY, '');
  tab.set(TAB_WORLD_KEY, '');
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
// The language switch: the playground and the lessons in the other
// language. The choice is kept (LANG_KEY) and the page reloads into it,
// keeping the world as any reload does.
const pageLang = window.gcplayBoot.lang.toLowerCase().startsWith('zh') ? 'zh' : 'en';
const langSwitch = $('lang');
if (pageLang === 'zh') {
  langSwitch.textContent = 'English';
  langSwitch.lang = 'en';
  langSwitch.title = 'The playground and the lessons in English (界面和课程改用英文)';
}
langSwitch.addEventListener('click', () => {
  store.set(LANG_KEY, pageLang === 'zh' ? 'en' : 'zh');
  keepNow();
  location.reload();
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
