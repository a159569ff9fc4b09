// Package website builds and serves gcplay's browser page as a static
// site: Pack gives main.wasm a versioned name and writes brotli and gzip
// copies of every file beside it (make web runs it through
// build/sitepack), and Handler serves such a folder the way a static host
// should, choosing the smallest copy the browser accepts.
package website

import (
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// Encodings are the precompressed copies Pack writes and Handler serves,
// best first: the file's name plus the suffix.
var Encodings = []struct{ Name, Suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// versioned matches the name Pack gives main.wasm: its content's hash in
// the name, so it can be cached for good.
var versioned = regexp.MustCompile(`^main\.[0-9a-f]{12,}\.wasm$`)

// Immutable is the Cache-Control of a file whose name changes when its
// content does (main.HASH.wasm): a year, never revalidated.
const Immutable = "public, max-age=31536000, immutable"

// Handler serves a site packed by Pack from dir:
//
//   - a file with a precompressed copy (NAME.br, NAME.gz) is sent as the
//     best copy the request's Accept-Encoding allows, with
//     Content-Encoding, and Vary: Accept-Encoding on every answer for it,
//     so a cache between keeps the copies apart;
//   - main.HASH.wasm is cached for a year (Immutable); everything else is
//     revalidated on each load (no-cache, with an ETag per copy), so a
//     rebuilt page is picked up at once;
//   - WebAssembly and modules get the content types browsers insist on.
//
// The copies themselves are never listed or served by their own names.
func Handler(dir string) http.Handler {
	root := os.DirFS(dir)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" || strings.HasSuffix(r.URL.Path, "/") {
			name = path.Join(name, "index.html")
		}
		for _, e := range Encodings {
			if strings.HasSuffix(name, e.Suffix) {
				http.NotFound(w, r)
				return
			}
		}
		st, err := fs.Stat(root, name)
		if err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", contentType(name))
		h.Set("X-Content-Type-Options", "nosniff")
		if versioned.MatchString(path.Base(name)) {
			h.Set("Cache-Control", Immutable)
		} else {
			h.Set("Cache-Control", "no-cache")
		}
		send, encoding := name, ""
		var have []string
		for _, e := range Encodings {
			if _, err := fs.Stat(root, name+e.Suffix); err == nil {
				have = append(have, e.Name)
			}
		}
		if len(have) > 0 {
			h.Add("Vary", "Accept-Encoding")
			if enc := Negotiate(r.Header.Get("Accept-Encoding"), have); enc != "" {
				encoding = enc
				for _, e := range Encodings {
					if e.Name == enc {
						send = name + e.Suffix
					}
				}
			}
		}
		f, err := root.Open(send)
		if err != nil {
			http.Error(w, "cannot read "+send, http.StatusInternalServerError)
			return
		}
		defer f.Close()
		fst, err := f.Stat()
		if err != nil {
			http.Error(w, "cannot read "+send, http.StatusInternalServerError)
			return
		}
		if encoding != "" {
			// ServeContent leaves out Content-Length for an encoded body
			// (a range would count decoded bytes); the page reads it to
			// say what it fetches. A copy is sent whole, never in ranges.
			h.Set("Content-Encoding", encoding)
			h.Set("Content-Length", strconv.FormatInt(fst.Size(), 10))
			r.Header.Del("Range")
		}
		// A strong ETag per copy: its size and time, and the encoding
		// (two copies of one file must not share one).
		tag := encoding
		if tag == "" {
			tag = "identity"
		}
		h.Set("ETag", fmt.Sprintf(`"%x-%x-%s"`, fst.Size(), fst.ModTime().UnixNano(), tag))
		http.ServeContent(w, r, name, fst.ModTime(), f.(readSeeker))
	})
}

type readSeeker interface {
	Read([]byte) (int, error)
	Seek(int64, int) (int64, error)
}

// contentType is the type of a site file by its name.
func contentType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".wasm":
		return "application/wasm"
	case ".json":
		return "application/json"
	case ".png":
		return "image/png"
	case ".svg":
		return "image/svg+xml"
	}
	return "application/octet-stream"
}

// Negotiate picks the first of have (best first) that an Accept-Encoding
// header allows, or "" for the file as it is. A coding with q=0 is
// refused; "*" stands for every coding not named.
func Negotiate(accept string, have []string) string {
	q := map[string]float64{}
	star := -1.0
	for _, part := range strings.Split(accept, ",") {
		fields := strings.Split(part, ";")
		coding := strings.ToLower(strings.TrimSpace(fields[0]))
		if coding == "" {
			continue
		}
		weight := 1.0
		for _, p := range fields[1:] {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					weight = f
				}
			}
		}
		if coding == "*" {
			star = weight
			continue
		}
		q[coding] = weight
	}
	for _, c := range have {
		w, named := q[c]
		if !named {
			w = star
		}
		if w > 0 {
			return c
		}
	}
	return ""
}

// WasmName returns the name of the versioned main.wasm in a packed site.
func WasmName(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if versioned.MatchString(e.Name()) {
			return e.Name(), nil
		}
	}
	return "", fmt.Errorf("no main.HASH.wasm in %s: build the page with make web", dir)
}
