package webtest

import (
	"encoding/json"
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
	// V8 keeps a module's code once it has optimised 1 MB of it, which
	// takes a learner's keys: more of them on a busy machine, or when a key
	// runs less code. At 20 KB the first keys do it, and every little new
	// optimised code after them keeps it again, so a keeping that falls
	// between two of the traces below is followed by another (at 100 KB a
	// run at load 8 used up its rounds once). What is tested (where the
	// kept code lives, and that the second visit is answered from there)
	// is the same.
	p := newPage(t, 1280, 800, chromedp.Flag("js-flags", "--wasm-caching-threshold=20000"))
	srv := serve(t, site(t))
	tr := traceEvents(t, p)

	// The first visit, used: its busy functions get optimised, and the
	// browser keeps the code once there is optimised code to keep.
	tr.start()
	p.load(srv.URL)
	p.waitJS(`navigator.serviceWorker.controller !== null`, 20*time.Second)
	p.command("delete deploy/web --cascade=foreground")
	p.waitText("terminating")
	p.press("s", "s", "s", "s", "ArrowLeft", "ArrowLeft", "ArrowRight")
	// The code is written a while after it is made: the learner stays
	// until the trace shows it kept (V8's "wasm.SerializeModule").
	rounds := 0
	for ; !tr.end()["wasm.SerializeModule"]; rounds++ {
		if rounds == 60 {
			t.Fatal("the first visit's compiled code was never kept (no wasm.SerializeModule in its traces)")
		}
		tr.start()
		// V8 keeps the code once enough of it is optimised, which takes
		// keys, not time: a key that runs less code (the renderer parsing
		// only the changed lines) needs more of them.
		p.press("s", "s", "s", "ArrowLeft", "ArrowLeft", "ArrowLeft")
		time.Sleep(time.Second)
	}
	t.Logf("the code was kept after %d more rounds of keys", rounds)
	// The browser writes the kept code to its cache after V8 hands it
	// over: the learner uses the page a moment longer before leaving.
	p.press("s", "ArrowLeft")
	time.Sleep(time.Second)
	fetched := srv.count(".wasm")

	// The second visit.
	p.do(chromedp.Navigate("about:blank"))
	tr.start()
	p.load(srv.URL)
	seen := tr.end()
	if !eval[bool](p, `navigator.serviceWorker.controller !== null`) {
		t.Errorf("the second visit is not answered by the service worker")
	}
	if n := srv.count(".wasm"); n != fetched {
		t.Errorf("the second visit fetched main.wasm from the host again (%d requests, %d before it)", n, fetched)
	}
	if !seen["wasm.Deserialize"] {
		t.Errorf("the second visit compiled main.wasm again: no wasm.Deserialize in its trace (the first visit's code was kept, but not where the second visit's response came from)")
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

// tracer records the names of the v8.wasm trace events of a page, one
// trace at a time.
type tracer struct {
	t    *testing.T
	p    *page
	mu   sync.Mutex
	seen map[string]bool
	done chan struct{}
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
				var e struct{ Name string }
				if json.Unmarshal(b, &e) == nil && tr.seen != nil {
					tr.seen[e.Name] = true
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

func (tr *tracer) start() {
	tr.t.Helper()
	tr.mu.Lock()
	tr.seen = map[string]bool{}
	tr.mu.Unlock()
	if _, err := chromedp.Call(tr.p.ctx, tracing.Start, tracing.StartParams{TraceConfig: &tracing.TraceConfig{IncludedCategories: []string{"v8.wasm"}}}); err != nil {
		tr.t.Fatal(err)
	}
}

// end stops the trace and returns the names of the events it held.
func (tr *tracer) end() map[string]bool {
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
	return tr.seen
}
