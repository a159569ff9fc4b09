package website

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

// packed writes a small site and packs it as make web does.
func packed(t *testing.T) (dir, wasm string) {
	t.Helper()
	dir = t.TempDir()
	files := map[string]string{
		"index.html":      "<!doctype html><link rel=\"preload\" href=\"main.wasm\" as=\"fetch\" crossorigin><script>\nconst WASM = { url: 'main.wasm', bytes: 0 };\n</script>" + strings.Repeat("<p>gcplay</p>", 200),
		"sw.js":           "const CACHE = 'gcplay-v1';\nconst FILES = ['main.wasm'];\n" + strings.Repeat("// x\n", 300),
		"main.wasm":       "\x00asm\x01\x00\x00\x00" + strings.Repeat("\x00\x01\x02\x03", 5000),
		"xterm/xterm.mjs": "export {}\n" + strings.Repeat("const a = 1;\n", 300),
		"tiny.js":         "1",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Pack(dir, "", io.Discard); err != nil {
		t.Fatal(err)
	}
	wasm, err := WasmName(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, wasm
}

func TestPackNamesTheVersionedWasm(t *testing.T) {
	dir, wasm := packed(t)
	if _, err := os.Stat(filepath.Join(dir, "main.wasm")); err == nil {
		t.Errorf("main.wasm is still there beside %s", wasm)
	}
	index, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	if !strings.Contains(string(index), "const WASM = { url: '"+wasm+"', bytes: 20008 };") {
		t.Errorf("index.html does not name %s and its size:\n%s", wasm, index[:120])
	}
	if !strings.Contains(string(index), `<link rel="preload" href="`+wasm+`"`) {
		t.Errorf("index.html's preload link does not name %s:\n%s", wasm, index[:120])
	}
	sw, _ := os.ReadFile(filepath.Join(dir, "sw.js"))
	if !strings.Contains(string(sw), "['"+wasm+"']") || strings.Contains(string(sw), "gcplay-v1") {
		t.Errorf("sw.js does not list %s or keeps its old cache name:\n%s", wasm, sw[:80])
	}
	if _, err := os.Stat(filepath.Join(dir, "tiny.js.br")); err == nil {
		t.Errorf("a copy larger than its file was written (tiny.js.br)")
	}
	// Packing again (a rebuild into the same folder) leaves one version.
	os.WriteFile(filepath.Join(dir, "main.wasm"), []byte("\x00asm\x01\x00\x00\x00 another"), 0o644)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<link rel=\"preload\" href=\"main.wasm\">\nconst WASM = { url: 'main.wasm', bytes: 0 };\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "sw.js"), []byte("const CACHE = 'gcplay-v1';\n['main.wasm']\n"), 0o644)
	if err := Pack(dir, "", io.Discard); err != nil {
		t.Fatal(err)
	}
	olds, _ := filepath.Glob(filepath.Join(dir, "main.*.wasm*"))
	if len(olds) != 1 {
		t.Errorf("after a second pack: %v, want one main.HASH.wasm (too small for copies)", olds)
	}
}

func TestHandlerServesTheCopies(t *testing.T) {
	dir, wasm := packed(t)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	raw, _ := os.ReadFile(filepath.Join(dir, wasm))
	for _, c := range []struct {
		path, accept, encoding, ctype, cache string
	}{
		{"/" + wasm, "gzip, deflate, br, zstd", "br", "application/wasm", Immutable},
		{"/" + wasm, "gzip", "gzip", "application/wasm", Immutable},
		{"/" + wasm, "br;q=0, gzip;q=0.5", "gzip", "application/wasm", Immutable},
		{"/" + wasm, "identity", "", "application/wasm", Immutable},
		{"/" + wasm, "*", "br", "application/wasm", Immutable},
		{"/" + wasm, "*, br;q=0", "gzip", "application/wasm", Immutable},
		{"/", "br", "br", "text/html; charset=utf-8", "no-cache"},
		{"/index.html", "", "", "text/html; charset=utf-8", "no-cache"},
		{"/xterm/xterm.mjs", "gzip, br", "br", "text/javascript; charset=utf-8", "no-cache"},
	} {
		req, _ := http.NewRequest("GET", srv.URL+c.path, nil)
		req.Header.Set("Accept-Encoding", c.accept) // set: the client adds none then
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		h := resp.Header
		if resp.StatusCode != 200 || h.Get("Content-Encoding") != c.encoding || h.Get("Content-Type") != c.ctype ||
			h.Get("Cache-Control") != c.cache || h.Get("Vary") != "Accept-Encoding" {
			t.Errorf("GET %s (Accept-Encoding %q): %d, Content-Encoding %q, Content-Type %q, Cache-Control %q, Vary %q; want 200, %q, %q, %q, Accept-Encoding",
				c.path, c.accept, resp.StatusCode, h.Get("Content-Encoding"), h.Get("Content-Type"), h.Get("Cache-Control"), h.Get("Vary"), c.encoding, c.ctype, c.cache)
			continue
		}
		var r io.Reader = bytes.NewReader(body)
		switch c.encoding {
		case "br":
			r = brotli.NewReader(r)
		case "gzip":
			if r, err = gzip.NewReader(r); err != nil {
				t.Fatal(err)
			}
		}
		got, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("GET %s: decoding %s: %v", c.path, c.encoding, err)
		}
		if c.path == "/"+wasm && !bytes.Equal(got, raw) {
			t.Errorf("GET %s as %q: the decoded body is not the file", c.path, c.encoding)
		}
		if c.encoding != "" && len(body) >= len(got) {
			t.Errorf("GET %s as %s: %d bytes sent for %d", c.path, c.encoding, len(body), len(got))
		}
	}

	// A revalidation: the copy's own ETag answers 304; another copy's
	// does not match.
	get := func(path, accept, etag string) *http.Response {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", accept)
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	br := get("/index.html", "br", "").Header.Get("ETag")
	gz := get("/index.html", "gzip", "").Header.Get("ETag")
	if br == "" || br == gz {
		t.Errorf("ETags: brotli %q, gzip %q; want two different ones", br, gz)
	}
	if r := get("/index.html", "br", br); r.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match with the brotli copy's ETag: %d, want 304", r.StatusCode)
	}
	if r := get("/index.html", "gzip", br); r.StatusCode != 200 {
		t.Errorf("If-None-Match with the brotli copy's ETag, asking for gzip: %d, want 200", r.StatusCode)
	}
	// The copies are not files of the site; nor is anything outside it.
	for _, p := range []string{"/index.html.br", "/" + wasm + ".gz", "/../serve.go", "/nosuch.js"} {
		if r := get(p, "", ""); r.StatusCode != 404 {
			t.Errorf("GET %s: %d, want 404", p, r.StatusCode)
		}
	}
}

func TestNegotiate(t *testing.T) {
	have := []string{"br", "gzip"}
	for accept, want := range map[string]string{
		"":                        "",
		"gzip, deflate, br, zstd": "br",
		"gzip":                    "gzip",
		"GZIP;Q=1":                "gzip",
		"br;q=0":                  "",
		"br;q=0, *":               "gzip",
		"identity;q=1, br;q=0.1":  "br",
		"deflate":                 "",
	} {
		if got := Negotiate(accept, have); got != want {
			t.Errorf("Negotiate(%q) = %q, want %q", accept, got, want)
		}
	}
}

func TestHandlerSendsTheCopysLength(t *testing.T) {
	dir, wasm := packed(t)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	br, _ := os.Stat(filepath.Join(dir, wasm+".br"))
	req, _ := http.NewRequest("GET", srv.URL+"/"+wasm, nil)
	req.Header.Set("Accept-Encoding", "br")
	req.Header.Set("Range", "bytes=0-9")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.ContentLength != br.Size() || int64(len(body)) != br.Size() {
		t.Errorf("GET with a range, as brotli: %d, Content-Length %d, %d bytes; want 200 and the whole copy, %d bytes", resp.StatusCode, resp.ContentLength, len(body), br.Size())
	}
}
