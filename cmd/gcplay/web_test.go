package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

func TestSiteHandler(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"index.html": "<!doctype html>", "main.wasm": "\x00asm", "xterm/xterm.mjs": "export {}"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(SiteHandler(dir))
	defer srv.Close()
	for path, ctype := range map[string]string{"/": "text/html; charset=utf-8", "/main.wasm": "application/wasm", "/xterm/xterm.mjs": "text/javascript; charset=utf-8"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != ctype || resp.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("GET %s: %d, Content-Type %q, Cache-Control %q; want 200, %q, no-cache", path, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"), ctype)
		}
	}
}
