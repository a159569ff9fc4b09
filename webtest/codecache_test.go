package webtest

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// TestRevisitStartsFromCompiledCode: once the playground has run for a
// while, a later visit starts from the machine code the browser kept
// beside main.wasm's cached copy (V8's "wasm.Deserialize" in a trace of
// the load), instead of compiling every function again on its first call.
// The browser keeps that code only for a module compiled from the fetched
// response itself, with its URL: a Response the page builds around the
// body has none.
func TestRevisitStartsFromCompiledCode(t *testing.T) {
	p := newPage(t, 1280, 800)
	srv := serve(t, site(t))
	p.load(srv.URL)
	p.waitJS(`navigator.serviceWorker.controller !== null`, 20*time.Second)
	// Run the playground, so its busy functions get optimised: the browser
	// keeps the code once there is optimised code to keep.
	p.command("delete deploy/web --cascade=foreground")
	p.waitText("terminating")
	p.press("s", "s", "s", "s", "ArrowLeft", "ArrowLeft", "ArrowRight")
	time.Sleep(3 * time.Second)

	var (
		mu           sync.Mutex
		deserialized bool
		done         chan struct{}
	)
	err := chromedp.Listen(p.ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			for _, v := range ev.Value {
				b, _ := json.Marshal(v)
				var e struct{ Name string }
				if json.Unmarshal(b, &e) == nil && e.Name == "wasm.Deserialize" {
					deserialized = true
				}
			}
		case *tracing.EventTracingComplete:
			close(done)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// The code is written to the cache a while after it is made: a few
	// visits, each traced.
	for visit := 1; visit <= 4 && !deserialized; visit++ {
		mu.Lock()
		done = make(chan struct{})
		mu.Unlock()
		p.do(chromedp.Navigate("about:blank"))
		if _, err := chromedp.Call(p.ctx, tracing.Start, tracing.StartParams{TraceConfig: &tracing.TraceConfig{IncludedCategories: []string{"v8.wasm"}}}); err != nil {
			t.Fatal(err)
		}
		p.load(srv.URL)
		if _, err := chromedp.Call(p.ctx, tracing.End, cdp.Empty{}); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		ch := done
		mu.Unlock()
		<-ch
		// Each visit is used, as a learner uses it: the browser keeps
		// a visit's code once enough of it is optimised, which a visit
		// that only draws its first frame may not reach.
		p.press("s", "s", "s", "ArrowLeft", "ArrowRight")
		time.Sleep(2 * time.Second)
	}
	mu.Lock()
	defer mu.Unlock()
	if !deserialized {
		t.Errorf("four later visits compiled main.wasm again: none started from the code the browser keeps (no wasm.Deserialize in their traces)")
	}
	p.checkExceptions()
}
