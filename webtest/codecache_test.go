package webtest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// TestRevisitStartsFromCompiledCode: a learner uses the playground, leaves,
// and comes back: that second visit, answered by the service worker,
// starts from the machine code the browser kept from the first (V8's
// "wasm.Deserialize" in a trace of the load) instead of compiling every
// function again. The browser keeps that code beside the cache entry of
// the response it was compiled from, and only for a module compiled from
// the fetched response itself, with its URL (a Response the page builds
// around the body has none): the worker must answer the second visit from
// the entry the first visit's code went to, the HTTP cache's, not from its
// own copy of main.wasm, which has no code until a visit compiles from it.
func TestRevisitStartsFromCompiledCode(t *testing.T) {
	// V8 keeps a module's code once enough of it is optimised
	// (--wasm-caching-threshold; 20 KB here, so a few keys make
	// enough) and nothing more has been for a while: keys, and then a
	// pause, as a learner reads the screen (useUntilKept). What is
	// tested (where the kept code lives, and that the second visit is
	// answered from there) does not depend on the amounts.
	p := newPage(t, 1280, 800, chromedp.Flag("js-flags", "--wasm-caching-threshold=20000"))
	srv := serve(t, site(t))
	tr := traceEvents(t, p)

	// The first visit, used until the browser keeps its code.
	tr.start()
	p.load(srv.URL)
	t.Logf("the code was kept after %d seconds", useUntilKept(t, p, tr))
	fetched := srv.count(".wasm")

	// The second visit, answered by the worker from the HTTP cache (the
	// resource timing's "cache"; its own copy would be "cache-storage").
	// The browser's code cache is a best effort: on a busy machine a
	// visit now and then is answered from the right entry, with the code
	// there, and compiles again all the same (docs/BENCHMARKS.md, issue
	// 19, eighteenth session), so the learner comes back up to five
	// times. A worker that answers from anywhere but the entry the code
	// went to gives no visit the code: every one compiles.
	var misses []string
	for visit := 2; visit <= 6; visit++ {
		p.do(chromedp.Navigate("about:blank"))
		tr.start()
		p.load(srv.URL)
		seen := tr.end()
		if !eval[bool](p, `navigator.serviceWorker.controller !== null`) {
			t.Fatalf("visit %d is not answered by the service worker", visit)
		}
		if n := srv.count(".wasm"); n != fetched {
			t.Fatalf("visit %d fetched main.wasm from the host again (%d requests, %d before it)", visit, n, fetched)
		}
		delivery := eval[string](p, wasmDelivery)
		if !strings.Contains(delivery, `"deliveryType":"cache"`) {
			t.Fatalf("visit %d's main.wasm did not come from the HTTP cache's entry, where the first visit's code went: %s", visit, delivery)
		}
		if seen["wasm.Deserialize"] {
			misses = nil
			break
		}
		misses = append(misses, fmt.Sprintf("visit %d: %s", visit, delivery))
		t.Logf("visit %d compiled main.wasm again (no wasm.Deserialize in its trace)", visit)
	}
	if misses != nil {
		t.Errorf("no later visit started from the first visit's compiled code (no wasm.Deserialize in their traces), though it was kept (the code cache holds %s) and each visit's main.wasm came from the HTTP cache's entry: %s",
			codeCacheListing(p.profile), strings.Join(misses, "; "))
	}

	// Offline, with the HTTP cache emptied (the browser may evict it), the
	// worker's own copy still starts the page.
	if _, err := chromedp.Call(p.ctx, network.ClearBrowserCache, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	p.load(srv.URL)
	p.checkExceptions()
}

// useUntilKept uses a first visit as a learner would, until the browser
// has kept the page's compiled code in its code cache, and returns the
// seconds it paused. tr must be tracing (since the page loaded, or later).
func useUntilKept(t *testing.T, p *page, tr *tracer) int {
	t.Helper()
	// Its busy functions get optimised.
	p.waitJS(`navigator.serviceWorker.controller !== null`, 20*time.Second)
	p.command("delete deploy/web --cascade=foreground")
	p.waitText("terminating")
	p.press("s", "s", "s", "s", "ArrowLeft", "ArrowLeft", "ArrowRight")
	// The learner pauses until the trace shows the code kept (V8's
	// "wasm.SerializeModule"). V8 keeps it once enough is optimised
	// (--wasm-caching-threshold) and then nothing new has been for a
	// while (--wasm-caching-timeout-ms, two seconds by default): keys
	// during the pause would put it off, so more keys come only after a
	// quiet spell longer than V8's without it (too little optimised
	// yet); on a busy machine the optimising threads finish late, and
	// the pause lasts. The deadline only bounds a browser that never
	// keeps anything.
	deadline := time.Now().Add(4 * time.Minute)
	seconds := 0
	for !tr.end()["wasm.SerializeModule"] {
		if time.Now().After(deadline) {
			t.Fatalf("the first visit's compiled code was never kept (no wasm.SerializeModule in its traces for %d seconds)", seconds)
		}
		tr.start()
		if seconds++; seconds%4 == 0 {
			p.press("s", "s", "s", "ArrowLeft", "ArrowLeft", "ArrowLeft")
		}
		time.Sleep(time.Second)
	}
	// V8 hands the code over; the browser then writes it to its code
	// cache, from another thread and process. The learner leaves once it
	// is there: a write still on its way when the page goes could be
	// dropped with it, and then no visit would find the code.
	if size := waitCodeCacheEntry(t, p.profile, 4*time.Minute); size == 0 {
		t.Fatalf("the kept code never reached the browser's code cache: %s", codeCacheListing(p.profile))
	}
	return seconds
}

// tracer records the trace events of a page, one trace at a time.
type tracer struct {
	t         *testing.T
	p         *page
	mu        sync.Mutex
	recording bool
	events    []traceEvent
	done      chan struct{}
}

func traceEvents(t *testing.T, p *page) *tracer {
	tr := &tracer{t: t, p: p}
	err := chromedp.Listen(p.ctx, func(ev any) {
		tr.mu.Lock()
		defer tr.mu.Unlock()
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			for _, v := range ev.Value {
				b, _ := json.Marshal(v)
				var e traceEvent
				if json.Unmarshal(b, &e) == nil && tr.recording {
					tr.events = append(tr.events, e)
				}
			}
		case *tracing.EventTracingComplete:
			if tr.done != nil {
				close(tr.done)
				tr.done = nil
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// start starts a trace of the categories given, v8.wasm if none.
func (tr *tracer) start(categories ...string) {
	tr.t.Helper()
	if len(categories) == 0 {
		categories = []string{"v8.wasm"}
	}
	tr.mu.Lock()
	tr.recording, tr.events = true, nil
	tr.mu.Unlock()
	if _, err := chromedp.Call(tr.p.ctx, tracing.Start, tracing.StartParams{TraceConfig: &tracing.TraceConfig{IncludedCategories: categories}}); err != nil {
		tr.t.Fatal(err)
	}
}

// endEvents stops the trace and returns its events.
func (tr *tracer) endEvents() []traceEvent {
	tr.t.Helper()
	done := make(chan struct{})
	tr.mu.Lock()
	tr.done = done
	tr.mu.Unlock()
	if _, err := chromedp.Call(tr.p.ctx, tracing.End, cdp.Empty{}); err != nil {
		tr.t.Fatal(err)
	}
	<-done
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.recording = false
	return tr.events
}

// end stops the trace and returns the names of the events it held.
func (tr *tracer) end() map[string]bool {
	tr.t.Helper()
	seen := map[string]bool{}
	for _, e := range tr.endEvents() {
		seen[e.Name] = true
	}
	return seen
}

// wasmDelivery says where the page's main.wasm came from, by its
// resource timing: "cache" is the HTTP cache, and a worker start means
// the service worker answered.
const wasmDelivery = `JSON.stringify(performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).map((e) => ({deliveryType: e.deliveryType, workerStart: Math.round(e.workerStart), responseEnd: Math.round(e.responseEnd)})))`

// keptCodeSize is the least size of a code cache entry that holds
// main.wasm's optimised code: the code of even a few hundred of its
// functions is larger, and the other WebAssembly entries the browser
// keeps for the page are far smaller.
const keptCodeSize = 256 << 10

// waitCodeCacheEntry waits until the browser's WebAssembly code cache in
// the profile holds an entry of at least keptCodeSize bytes, and returns
// its size (0 if none came before the timeout). The folder is Chromium's
// ("Code Cache/wasm" in the profile's user folder).
func waitCodeCacheEntry(t *testing.T, profile string, timeout time.Duration) int64 {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		for _, e := range codeCacheEntries(profile) {
			if e.size >= keptCodeSize {
				return e.size
			}
		}
		if time.Now().After(deadline) {
			return 0
		}
		time.Sleep(100 * time.Millisecond)
	}
}

type cacheEntry struct {
	name string
	size int64
}

// codeCacheEntries lists the files of the profile's WebAssembly code
// cache.
func codeCacheEntries(profile string) []cacheEntry {
	var out []cacheEntry
	_ = filepath.WalkDir(profile, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(filepath.Dir(path)) != "wasm" ||
			filepath.Base(filepath.Dir(filepath.Dir(path))) != "Code Cache" {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			out = append(out, cacheEntry{d.Name(), fi.Size()})
		}
		return nil
	})
	return out
}

func codeCacheListing(profile string) string {
	es := codeCacheEntries(profile)
	if len(es) == 0 {
		return "no WebAssembly entries"
	}
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = fmt.Sprintf("%s (%d bytes)", e.name, e.size)
	}
	return strings.Join(parts, ", ")
}
