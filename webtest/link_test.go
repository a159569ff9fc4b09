package webtest

import (
	"fmt"
	"net/http"
	"sync"
	"time"
)

// The link of issue 19's first-frame goal: 20 Mbit/s down, 40 ms of
// latency on each request.
const (
	linkBytesPerSecond = 20e6 / 8
	linkLatencyMs      = 40
)

// Chromium's network emulation (Network.emulateNetworkConditions) does not
// give one download the rate it is set to. It lets a body be read 1,500
// bytes at a time and releases a read at the end of a tick (1,500 bytes'
// time at the rate: 600 µs at 20 Mbit/s), and the next read is asked for
// only once the network stack has handled the last one (written it to the
// HTTP cache, decoded it, passed it on to the renderer). That time, which
// a real link overlaps with its transfer, is added to the link's here, so
// a lone download gets well under the set rate (the more so the faster
// the link), while several downloads at once fill each other's gaps. The
// bench therefore also times the page over a link its own server makes
// (figures: docs/BENCHMARKS.md, "Issue 19, seventeenth session: the
// throttled link").

// pacer is a link shared by every response of a server: each chunk leaves
// once every chunk before it, of any response, has had its time at rate.
type pacer struct {
	rate float64 // bytes a second

	mu   sync.Mutex
	next time.Time // when the link is free
}

// wait returns when n more bytes may leave.
func (l *pacer) wait(n int) {
	l.mu.Lock()
	now := time.Now()
	// A sleep that overslept has not left the link idle: up to 20 ms
	// behind, the next chunks catch up.
	if floor := now.Add(-20 * time.Millisecond); l.next.Before(floor) {
		l.next = floor
	}
	l.next = l.next.Add(time.Duration(float64(n) / l.rate * float64(time.Second)))
	at := l.next
	l.mu.Unlock()
	time.Sleep(time.Until(at))
}

// pacedWriter sends a response's body through the link, in chunks.
type pacedWriter struct {
	http.ResponseWriter
	link *pacer
}

func (w pacedWriter) Write(p []byte) (int, error) {
	const chunk = 8192
	n := 0
	for len(p) > 0 {
		c := min(len(p), chunk)
		w.link.wait(c)
		m, err := w.ResponseWriter.Write(p[:c])
		n += m
		if err != nil {
			return n, err
		}
		if f, ok := w.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
		p = p[c:]
	}
	return n, nil
}

// paced serves h over one link of rate bytes a second shared by all its
// responses, each answered latency after its request came (as Chromium's
// emulation delays each request once, not each round trip).
func paced(h http.Handler, rate float64, latency time.Duration) http.Handler {
	link := &pacer{rate: rate}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(latency)
		h.ServeHTTP(pacedWriter{w, link}, r)
	})
}

// withBare adds to a site's handler a bare page, /bench-bare.html, that
// fetches main.wasm (named wasm) as the page does, from the same server
// with the same headers and encoding, reads its body to the end and does
// nothing else, and sets window.__t.firstFrame when its last byte is in:
// the control for the page's download.
func withBare(h http.Handler, wasm string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/bench-bare.html" {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprintf(w, `<!doctype html><link rel="icon" href="data:,"><script>
window.__t = {};
fetch(%q).then((r) => r.arrayBuffer()).then(() => { window.__t.firstFrame = performance.now(); });
</script>`, wasm)
	})
}
