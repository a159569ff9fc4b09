// The gcplay page: an xterm.js terminal, and the playground (Go compiled
// to WebAssembly, wasm/main.go) drawing into it. The page starts first:
// it creates the terminal and the callbacks the Go side uses, then loads
// and runs main.wasm.
//
// Go calls: goTermWrite(bytes), onGoReady(cols, rows), onGoWorld(link, lesson),
// onGoLinkOpened(ok), onGoExit(reason), gcplayDownload(name, bytes), gcplayStore.get/set.
// The page calls: goTermInput(data), goFlush(), goStarted(), goStartInput(), goTermResize(cols, rows),
// goCommand(line), goOpenLink(text), goOpenLesson(name), goOpenCourse(), goNextLesson(),
// goRestartLesson(), goCourse(), goLink(); the tests also call goFramesWritten().
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
const PAGE_LANG = (() => {
  let l = '';
  try { l = localStorage.getItem(LANG_KEY) || ''; } catch { /* storage disabled: the browser's language */ }
  return (l || navigator.language || '').toLowerCase().startsWith('zh') ? 'zh' : 'en';
})();
// T is the page's words in its language: English, or Chinese (the words
// follow docs/GLOSSARY.zh.md, as the playground's do).
const T = (en, zh) => (PAGE_LANG === 'zh' ? zh : en);

// Timing marks (performance.now(), ms since navigation) for the browser
// test and the benchmark.
const t = window.__t; // set by index.html
t.module = performance.now();

const $ = (id) => document.getElementById(id);
const overlay = $('overlay');

// The page's own words in Chinese: each element's text and title (the
// HTML has the English).
if (PAGE_LANG === 'zh') {
  document.documentElement.lang = 'zh-CN';
  document.title = 'gcplay — Kubernetes 垃圾收集器演练场';
  const words = {
    lessons: ['课程', '课程：一课一课，每课都有一个在实时世界上检查的目标'],
    next: ['下一课 →', '打开课程的下一课（N）'],
    menu: [null, '更多'],
    share: ['分享链接', '复制一个指向这个世界及其时间线的链接'],
    save: ['下载', '把世界下载为场景文件（save 命令）'],
    open: ['打开…', '从你的电脑打开一个场景文件（load 命令）'],
    back: ['回到我的世界', '离开分享的世界，重新打开你打开链接之前的世界'],
    new: ['重新开始', '忘掉这个世界，打开入门世界'],
    'about-toggle': ['关于', '这是什么'],
    collapse: [null, '隐藏这一栏：演练场得到这些行（按钮留着）'],
    'overlay-title': ['正在载入演练场…'],
    'overlay-detail': ['只需一次：之后可以离线使用'],
    again: ['重新开始'],
  };
  for (const [id, [text, title]] of Object.entries(words)) {
    const el = $(id);
    if (!el) continue;
    if (text !== null) {
      // Lessons keeps its progress count (a child element).
      const first = el.firstChild;
      if (first && first.nodeType === Node.TEXT_NODE && el.childElementCount) first.textContent = text;
      else el.textContent = text;
    }
    if (title) el.title = title;
  }
  document.querySelector('.tagline').textContent = ' Kubernetes 垃圾收集器演练场';
  $('actions').setAttribute('aria-label', '世界');
  $('terminal').setAttribute('aria-label', 'gcplay 终端');
  $('about').innerHTML = '构建一个由属主和附属对象组成的世界，以 Foreground、Background 或 Orphan 方式删除其中一个，' +
    '然后单步观察 kube-controller-manager 的垃圾收集器做了什么，每个决定都附有原因；可以随意回退。' +
    '这是编译成 WebAssembly 的终端程序：它在这个页面里运行，不向任何地方发送数据，你的世界保存在这个浏览器中。' +
    '按 <kbd>?</kbd> 查看所有按键，按 <kbd>:</kbd> 输入命令，按 <kbd>L</kbd>（或<em>课程</em>）进入课程。';
}

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
  $('overlay-detail').textContent = T(`${MB(f.sent)} (${how}), once: it then works offline`,
    `${MB(f.sent)}（${f.encoding === 'br' ? 'brotli' : f.encoding || '未压缩：这个主机不压缩它'}），只需一次：之后可以离线使用`);
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
const prepareRows = drawChangedRowsOnly(term);
t.rowsOnly = !!prepareRows;

// xterm.js's DOM renderer redraws every row from the first to the last one
// a frame wrote to: a key that changes the status line and the key bar
// rebuilds the elements of the whole screen, and the browser then lays out
// and paints them all; when the frame scrolls a region, xterm draws the
// whole screen a second time for the (empty) selection. The playground's
// frames change a third to a half of the rows. This redraws only the rows
// whose cells differ from what their element shows (each row element
// remembers the cells it was drawn from), and the cursor's row.
// Anything that changes how a row is drawn without changing its cells (the
// cell size, the selection, the renderer itself) draws every row again.
// It returns the function that builds a key's changed rows ahead (below).
// It reaches into xterm's renderer (pinned in package.json): should that
// change shape, it does nothing, returns null, and xterm draws as it
// always did.
function drawChangedRowsOnly(term) {
  const core = term._core;
  const r = core?._renderService?._renderer?.value;
  if (!r || typeof r.renderRows !== 'function' || !Array.isArray(r._rowElements) || !r._rowFactory || !r.dimensions) return null;
  const line0 = core.buffer?.lines?.get(0);
  if (!(line0?._data instanceof Uint32Array) || typeof line0._combined !== 'object' || typeof line0._extendedAttrs !== 'object') return null;
  const drawn = new WeakMap(); // row element -> { how, cells } it was drawn from
  const draw = r.renderRows.bind(r);
  const empty = (o) => { for (const _ in o) return false; return true; };
  // sameCells says whether cells (a copy of a line's) are the line's now.
  const sameCells = (cells, line) => {
    const now = line._data, n = line.length * 3;
    if (cells.length !== n) return false;
    for (let i = 0; i < n; i++) if (cells[i] !== now[i]) return false;
    return true;
  };
  let cursorWas = -1;
  const measure = measureFirst(term, r);
  // How rows are drawn apart from their cells.
  const howNow = () => {
    const f = r._rowFactory;
    return `${r.dimensions.css.cell.width}x${r.dimensions.css.cell.height} ${f._selectionStart} ${f._selectionEnd} ${f._columnSelectMode} ${r._coreBrowserService?.isFocused}`;
  };
  // The cursor's row (Bubble Tea hides the cursor; shown, it is drawn
  // where it is and removed where it was).
  const cursorNow = () => {
    const buf = core.buffer;
    return r._coreService?.isCursorHidden === true ? -1 : buf.ybase + buf.y - buf.ydisp;
  };
  // Each row element's children change only through its replaceChildren
  // (xterm's renderer draws a row with it): made here to count the
  // changes, and, while rows are built ahead, to take the spans built
  // instead.
  const changes = new WeakMap(); // row element -> how often its children changed
  let taken = null;
  const own = (el) => {
    if (changes.has(el)) return;
    changes.set(el, 0);
    el.replaceChildren = (...spans) => {
      if (taken) return void (taken.spans = spans);
      changes.set(el, changes.get(el) + 1);
      Element.prototype.replaceChildren.apply(el, spans);
    };
  };
  // Rows built ahead (prepare): row element -> { how, cells, changes, k, j, add }.
  const ahead = new WeakMap();
  r.renderRows = (start, end) => {
    const buf = core.buffer;
    const how = howNow();
    const cursor = cursorNow();
    const todo = []; // rows to draw
    const built = []; // row elements and what was built ahead for them
    for (let y = start; y <= end; y++) {
      const el = r._rowElements[y];
      const line = buf.lines.get(y + buf.ydisp);
      if (el) own(el);
      const was = el && drawn.get(el);
      const plain = !!line && y !== cursor && y !== cursorWas && empty(line._combined) && empty(line._extendedAttrs);
      if (plain && was && was.how === how && sameCells(was.cells, line)) continue;
      if (el && line) drawn.set(el, { how, cells: line._data.slice(0, line.length * 3) });
      const a = el && ahead.get(el);
      if (a) ahead.delete(el);
      if (plain && a && a.how === how && a.changes === changes.get(el) && sameCells(a.cells, line)) built.push(el, a);
      else todo.push(y);
    }
    const runs = [];
    for (const y of todo) {
      if (runs.length && runs[runs.length - 1] === y - 1) runs[runs.length - 1] = y;
      else runs.push(y, y);
    }
    // Characters are measured before any row changes (measureFirst).
    if (measure && runs.length) measure(runs);
    // Rows built ahead from these cells: only the spans that change.
    for (let i = 0; i < built.length; i += 2) {
      const el = built[i], a = built[i + 1], old = el.childNodes;
      for (let x = old.length - a.j - 1; x >= a.k; x--) old[x].remove();
      if (a.add.length) {
        const next = old[a.k];
        if (next) next.before(...a.add);
        else el.append(...a.add);
      }
      changes.set(el, changes.get(el) + 1);
    }
    t.rowsAhead = (t.rowsAhead || 0) + built.length / 2; // for the browser test
    for (let i = 0; i < runs.length; i += 2) draw(runs[i], runs[i + 1]);
    cursorWas = cursor;
  };
  // A link's underline is drawn into the row elements apart from renderRows.
  if (typeof r._setCellUnderline === 'function') {
    const underline = r._setCellUnderline.bind(r);
    r._setCellUnderline = (...args) => {
      for (const el of r._rowElements) drawn.delete(el);
      return underline(...args);
    };
  }
  // prepare builds, for each row whose cells differ from what its element
  // shows, the spans xterm's renderer will put into it, and finds which of
  // its children stay (sameEnds); the animation frame that draws the rows
  // then only replaces the spans that change, in each row whose cells are
  // still those it was built from. The page calls it once a key's frame is
  // written, in the key's task: the animation frame that draws it comes at
  // the display's next frame, after the key's task, and what it does
  // before the frame can be shown is the smaller (figures in
  // docs/BENCHMARKS.md, issue 19, nineteenth session).
  return () => {
    const buf = core.buffer;
    const how = howNow();
    const cursor = cursorNow();
    const rows = [];
    for (let y = 0; y < r._rowElements.length; y++) {
      const el = r._rowElements[y];
      const line = buf.lines.get(y + buf.ydisp);
      if (!line || y === cursor || y === cursorWas || !empty(line._combined) || !empty(line._extendedAttrs)) continue;
      own(el);
      const was = drawn.get(el);
      if (was && was.how === how && sameCells(was.cells, line)) continue;
      const a = ahead.get(el);
      if (a && a.how === how && a.changes === changes.get(el) && sameCells(a.cells, line)) continue;
      rows.push(y, y);
    }
    if (rows.length === 0) return;
    if (measure) measure(rows);
    for (let i = 0; i < rows.length; i += 2) {
      const y = rows[i], el = r._rowElements[y], line = buf.lines.get(y + buf.ydisp);
      taken = { spans: null };
      let spans;
      try {
        draw(y, y);
        spans = taken.spans;
      } finally {
        taken = null;
      }
      if (!spans) continue;
      const [k, j] = sameEnds(el.childNodes, spans);
      ahead.set(el, { how, cells: line._data.slice(0, line.length * 3), changes: changes.get(el), k, j, add: spans.slice(k, spans.length - j) });
    }
  };
}

// sameEnds returns how many of a row's spans at its start (k) and at its end
// (j) are equal to the nodes it has (isEqualNode: the same element,
// attributes and text). A changed row mostly differs in a few of its
// spans, and each span replaced is styled, laid out and painted again
// before the frame is shown (figures in docs/BENCHMARKS.md, issue 19,
// nineteenth session).
function sameEnds(old, spans) {
  const m = old.length, n = spans.length;
  let k = 0;
  while (k < m && k < n && old[k].isEqualNode(spans[k])) k++;
  let j = 0;
  while (j < m - k && j < n - k && old[m - 1 - j].isEqualNode(spans[n - 1 - j])) j++;
  return [k, j];
}

// xterm.js's DOM renderer gives each run of characters the letter spacing
// that makes it fill its cells, from the character's width in the font,
// which its width cache measures the first time the character is drawn. A
// measure is a forced layout, and one made while drawing comes after the
// rows drawn before it were replaced: the browser lays out the changed
// rows again for each new character. An English frame's characters were
// measured at the start (warmCharWidths); a Chinese frame brings new
// ideographs on most keys (the step's sentences), each another layout
// (docs/BENCHMARKS.md, issue 19, fifteenth session). measureFirst returns
// a function that measures what the rows about to be drawn hold and the
// cache lacks, in one layout, before any row changes. It reaches into
// xterm's renderer (pinned in package.json): should that change shape, it
// returns null and xterm measures as it always did.
function measureFirst(term, r) {
  const Cell = r._rowFactory?._workCell?.constructor;
  if (!widthCacheKnown(r._widthCache) || typeof Cell !== 'function') return null;
  const cell = new Cell();
  if (typeof cell.getChars !== 'function' || typeof cell.isBold !== 'function' || typeof cell.isItalic !== 'function') return null;
  return (runs) => {
    const buf = term._core.buffer;
    const todo = [];
    for (let i = 0; i < runs.length; i += 2) {
      for (let y = runs[i]; y <= runs[i + 1]; y++) {
        const line = buf.lines.get(y + buf.ydisp);
        if (!line || typeof line.loadCell !== 'function') continue;
        const d = line._data;
        for (let x = 0; x < line.length; x++) {
          const c = d[x * 3];
          // A code point below 256 (and not a combined character, flag
          // 0x200000), neither bold (fg 0x8000000) nor italic (bg
          // 0x4000000): the cache's flat part, measured at the start.
          if ((c & 0x3fffff) < 256 && !(d[x * 3 + 1] & 0x8000000) && !(d[x * 3 + 2] & 0x4000000)) continue;
          if (c >> 22 === 0) continue; // the right half of a wide character
          line.loadCell(x, cell);
          todo.push([cell.getChars() || ' ', cell.isBold(), cell.isItalic()]);
        }
      }
    }
    if (widthCacheKnown(r._widthCache)) measureWidths(r._widthCache, todo);
  };
}

// widthCacheKnown says whether xterm's width cache has the shape
// measureWidths relies on (xterm.js 6.0.0's WidthCache).
function widthCacheKnown(cache) {
  return !!cache && typeof cache.get === 'function' && typeof cache._measure === 'function' &&
    cache._container instanceof HTMLElement && Array.isArray(cache._measureElements) && cache._measureElements.length === 4;
}

// measureWidths puts into xterm's width cache the widths of the characters
// it lacks (each of todo is [chars, bold, italic], as the renderer asks),
// measured as the cache measures them (the text 32 times in a copy of its
// measuring element for the font variant, each absolutely placed, in its
// container) but all placed first and then read: one layout for all.
function measureWidths(cache, todo) {
  const measure = cache._measure;
  const want = new Map(); // `${variant}:${chars}` → [chars, variant]
  cache._measure = (c, v) => { want.set(`${v}:${c}`, [c, v]); return 0; }; // 0: not kept
  try {
    for (const [c, bold, italic] of todo) cache.get(c, bold, italic);
  } finally {
    cache._measure = measure;
  }
  if (want.size === 0) return;
  const els = new Map();
  const box = document.createElement('div');
  for (const [key, [c, v]] of want) {
    const el = cache._measureElements[v].cloneNode(false);
    el.textContent = c.repeat(32);
    box.appendChild(el);
    els.set(key, el);
  }
  cache._container.appendChild(box);
  const widths = new Map();
  for (const [key, el] of els) widths.set(key, el.offsetWidth / 32);
  box.remove();
  cache._measure = (c, v) => widths.get(`${v}:${c}`) ?? measure.call(cache, c, v);
  try {
    for (const [c, bold, italic] of todo) cache.get(c, bold, italic);
  } finally {
    cache._measure = measure;
  }
}

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
  $('wrap').classList.toggle('scrolls', d.cols < MIN_COLS || d.rows < MIN_ROWS);
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
warmCharWidths();

// xterm.js's DOM renderer measures a character's width the first time it
// draws it, with a forced layout each time, which slowed the first frame
// (figures in docs/BENCHMARKS.md, issue 19, eighth session). The
// characters the playground draws are measured now, while the page is
// otherwise still (in the shadow of main.wasm's download on a slow link),
// all in one layout (measureWidths, rather than a layout each: figures in
// docs/BENCHMARKS.md, issue 19, fifteenth session); others are measured
// before the frame that first draws them (measureFirst). It reaches into xterm's width cache (pinned
// in package.json): should that change shape, it does nothing.
function warmCharWidths() {
  const cache = term._core?._renderService?._renderer?.value?._widthCache;
  if (!cache || typeof cache.get !== 'function') return;
  const todo = [];
  for (let c = 32; c < 127; c++) {
    const ch = String.fromCharCode(c);
    todo.push([ch, false, false], [ch, true, false], [ch, false, true]);
  }
  for (const ch of '─│╭╮╰╯├└┌┐┘┬┴┼▸▶▷•◇◆◷●○…—←→↑↓·✓✗▾▴⏵') todo.push([ch, false, false], [ch, true, false]);
  const start = performance.now();
  if (widthCacheKnown(cache)) measureWidths(cache, todo);
  else for (const args of todo) cache.get(...args);
  t.widthsWarmed = performance.now() - start;
}

// Ctrl+C (and Cmd+C) copy the selection, as everywhere else on a page
// (Shift+drag selects while the playground has the mouse). With nothing
// selected the key goes to the playground, which says it does not quit.
term.attachCustomKeyEventHandler((e) => {
  if (e.type === 'keydown' && (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'c' && term.hasSelection()) {
    navigator.clipboard?.writeText(term.getSelection()).then(() => status(T('Copied.', '已复制。')), () => {});
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
// firstWrite is the last write before the first frame is drawn, the
// frame itself (for the bench: what of the time to the first frame is
// Go's and what is xterm's).
// xterm.js parses a write in a later task, in short time slices, unless
// a key came just before it; the first frame, parsed by code not yet
// compiled, took more than one slice, with Go's start work between them.
// Until the first frame the page waits for nothing else: writes are
// parsed as they come (figures in docs/BENCHMARKS.md, issue 19,
// fifteenth session).
// Answers to Bubble Tea's terminal queries come back while Go writes and
// wait in the page's input queue (below) until that frame. writeSync is
// xterm's (6.0.0, pinned in package.json; marked deprecated there): should
// it go, writes are parsed as before.
const writeNow = term._core?._writeBuffer;
window.goTermWrite = (u8) => {
  if (t.firstFrame === undefined) {
    t.firstWrite = performance.now();
    if (typeof writeNow?.writeSync === 'function') return writeNow.writeSync(u8);
  }
  term.write(u8);
};

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
  prepareRows?.();
};
function deliverPending() {
  if (!window.goTermInput) return;
  window.goStartInput?.(); // the program reads its input from the first frame on
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
// The moment a key reached the browser (the event's time stamp, taken
// before it waited for the page's main thread), for the bench.
addEventListener('keydown', (e) => { t.keyAt = e.timeStamp; t.keys++; }, true);

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
    // The browser lays out, paints and presents that frame after this: by
    // the next animation frame it has (for the bench).
    requestAnimationFrame(() => { t.firstFrameShown = performance.now(); });
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
  if (!store.set(key, text)) status(T('This browser would not store the world (storage full or disabled); the address bar still links to it.',
    '这个浏览器不肯保存这个世界（存储已满或被禁用）；地址栏仍然链接到它。'));
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
    fail(T('gcplay stopped on an error', 'gcplay 因错误而停止'), reason + T('\n\nYour world up to the last change is kept in this browser.', '\n\n你的世界（直到最后一次改动）保存在这个浏览器中。'));
  } else {
    showOverlay('exited', T('gcplay has quit', 'gcplay 已退出'), T('Your world is kept in this browser: start again to go on where you were.', '你的世界保存在这个浏览器中：重新开始即可从原处继续。'), true);
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
  status(T(`Downloaded ${name}.`, `已下载 ${name}。`));
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
    status(T('Share link copied: it opens this world and its timeline.', '分享链接已复制：它打开这个世界及其时间线。'));
  } catch {
    status(T('The share link is in the address bar: copy it from there.', '分享链接在地址栏中：请从那里复制。'));
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
  $('lessons').title = T(`The course: ${c.total} lessons, ${c.done} done. Each has a goal checked on the live world.`,
    `课程：共 ${c.total} 课，已完成 ${c.done} 课。每课都有一个在实时世界上检查的目标。`);
  $('next').hidden = !(c.lesson && c.next);
  $('new').textContent = inLesson ? T('Restart lesson', '重新开始本课') : T('Start over', '重新开始');
  $('new').title = inLesson ? T('Put this lesson back at its start (R); your playground world is untouched', '把这一课恢复到开始时（R）；你在演练场的世界不受影响')
    : T('Forget this world and open the starter world', '忘掉这个世界，打开入门世界');
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
  $('collapse').title = on ? T('Show the bar', '显示这一栏') : T('Hide this bar: the playground gets its rows (the button stays)', '隐藏这一栏：演练场得到这些行（按钮留着）');
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
    status(T(`Could not keep ${name} in this browser's storage.`, `无法把 ${name} 保存在这个浏览器的存储中。`));
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
    status(T('The lesson is back at its start; your own playground world is untouched.', '这一课已恢复到开始时；你自己在演练场的世界不受影响。'));
    return refocus();
  }
  if (!confirm(T('Start over on the starter world? This world is forgotten (copy its share link first to keep it).', '从入门世界重新开始？这个世界会被忘掉（要保留它，请先复制它的分享链接）。'))) return refocus();
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
    status(T('Your own world is back. The shared one stays in its link.', '你自己的世界回来了。分享的世界留在它的链接里。'));
  }
  showBack();
  refocus();
});
// The language switch: the playground and the lessons in the other
// language. The choice is kept (LANG_KEY) and the page reloads into it,
// keeping the world as any reload does.
const pageLang = PAGE_LANG;
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
    return fail(T('This browser cannot run WebAssembly', '这个浏览器不能运行 WebAssembly'), T('gcplay runs as WebAssembly in the page. Use a current Firefox, Chrome, Edge or Safari, or run it in a terminal: go install github.com/gcplay/gcplay/cmd/gcplay@latest', 'gcplay 以 WebAssembly 在页面中运行。请使用较新的 Firefox、Chrome、Edge 或 Safari，或在终端中运行：go install github.com/gcplay/gcplay/cmd/gcplay@latest'));
  }
  if (typeof Go !== 'function') {
    return fail(T('wasm_exec.js did not load', 'wasm_exec.js 没有载入'), T('The page is incomplete: rebuild it with make web.', '页面不完整：请用 make web 重新构建。'));
  }
  const go = new Go();
  let instance;
  try {
    if (!window.gcplayWasm) throw new Error('index.html did not start loading main.wasm');
    instance = await WebAssembly.instantiate(await window.gcplayWasm, go.importObject);
  } catch (err) {
    return fail(T('The playground could not be loaded', '无法载入演练场'), `${err.message || err}\n\n` + T('Check the connection and reload; once loaded, the page also works offline.', '请检查网络连接并重新载入；载入一次之后，页面也可以离线使用。'));
  }
  t.wasmLoaded = performance.now();
  $('overlay-title').textContent = T('Starting…', '正在启动…');
  try {
    await go.run(instance);
  } catch (err) {
    fail(T('gcplay stopped on an error', 'gcplay 因错误而停止'), String(err.message || err));
  }
}
run();
