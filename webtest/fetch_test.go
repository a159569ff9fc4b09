package webtest

import (
	"strings"
	"testing"

	"github.com/gcplay/gcplay/internal/website"
)

// TestWasmFetchedFirst: main.wasm, by far the largest file, is the first
// file a visit asks for after the page itself (index.html's preload link),
// not the seventh, queued behind the page's small files for one of the six
// connections a browser opens to a host; the script that compiles it uses
// that response (one request, no second download).
func TestWasmFetchedFirst(t *testing.T) {
	dir := site(t)
	srv := serve(t, dir)
	wasm, err := website.WasmName(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := newPage(t, 1280, 800)
	p.load(srv.URL)
	type entry struct{ Name, Initiator string }
	got := eval[[]entry](p, `performance.getEntriesByType('resource').map((e) => ({ Name: new URL(e.name).pathname.slice(1), Initiator: e.initiatorType }))`)
	if len(got) == 0 || got[0].Name != wasm {
		t.Errorf("the first file fetched after the page is %v, want %s; all, in order: %v", got[:min(1, len(got))], wasm, got)
	}
	for _, e := range got {
		if e.Name == wasm && e.Initiator != "link" {
			t.Errorf("%s was fetched by %q, want the page's preload link", wasm, e.Initiator)
		}
	}
	if n := srv.count(wasm); n != 1 {
		t.Errorf("%s was requested %d times, want once (the script uses the preloaded response)", wasm, n)
	}
	p.mu.Lock()
	for _, c := range p.console {
		if strings.Contains(c, "preload") {
			t.Errorf("console: %s", c)
		}
	}
	p.mu.Unlock()
	p.checkExceptions()
}
