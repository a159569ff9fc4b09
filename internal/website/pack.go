package website

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// BrotliOptions are the settings of the brotli copies: the best quality
// (11) with an 8 MB window (LGWin 23), which every brotli decoder must
// accept (RFC 7932 allows up to 16 MB). For main.wasm it is the smallest
// of 22, 23 and 24 (docs/BENCHMARKS.md).
var BrotliOptions = brotli.WriterOptions{Quality: 11, LGWin: 23}

// compressible are the kinds of file Pack writes copies of.
var compressible = map[string]bool{".html": true, ".js": true, ".mjs": true, ".css": true, ".wasm": true, ".json": true, ".svg": true}

var (
	wasmLine  = regexp.MustCompile(`(?m)^const WASM = \{[^\n]*\};[^\n]*$`)
	cacheLine = regexp.MustCompile(`(?m)^const CACHE = '[^']*';`)
)

// wasmPreload is how index.html's preload link names main.wasm.
const wasmPreload = `href="main.wasm"`

// Pack turns a freshly built site in dir into what Handler serves:
//
//   - main.wasm is renamed main.HASH.wasm (HASH from its content), and
//     the line `const WASM = {...};` of index.html and the file list and
//     cache name of sw.js are rewritten to name it, and so is the preload
//     link (href="main.wasm") of index.html; index.html also learns
//     main.wasm's size, for its loading bar;
//   - every page file gets a brotli (NAME.br, quality 11) and a gzip copy
//     (NAME.gz, level 9) beside it, when that copy is smaller.
//
// Compressing main.wasm at brotli's best quality takes about a minute, so
// its copies are kept in cacheDir by content hash (cacheDir "" keeps none).
// What Pack does is written to log.
func Pack(dir, cacheDir string, log io.Writer) error {
	wasm, err := os.ReadFile(filepath.Join(dir, "main.wasm"))
	if err != nil {
		return fmt.Errorf("pack %s: %w (build main.wasm first)", dir, err)
	}
	sum := sha256.Sum256(wasm)
	hash := hex.EncodeToString(sum[:])[:16]
	name := "main." + hash + ".wasm"

	// Old versions of main.wasm, from an earlier build into the same folder.
	olds, _ := filepath.Glob(filepath.Join(dir, "main.*.wasm*"))
	for _, o := range olds {
		if err := os.Remove(o); err != nil {
			return err
		}
	}
	if err := os.Rename(filepath.Join(dir, "main.wasm"), filepath.Join(dir, name)); err != nil {
		return err
	}
	if err := rewrite(filepath.Join(dir, "index.html"), func(s string) (string, error) {
		if !wasmLine.MatchString(s) {
			return "", fmt.Errorf("no line `const WASM = {...};` to name main.wasm in")
		}
		if !strings.Contains(s, wasmPreload) {
			return "", fmt.Errorf("no %s to start fetching main.wasm with the page", wasmPreload)
		}
		s = strings.ReplaceAll(s, wasmPreload, `href="`+name+`"`)
		return wasmLine.ReplaceAllLiteralString(s, fmt.Sprintf("const WASM = { url: '%s', bytes: %d }; // written by make web (internal/website.Pack)", name, len(wasm))), nil
	}); err != nil {
		return err
	}
	if err := rewrite(filepath.Join(dir, "sw.js"), func(s string) (string, error) {
		if !cacheLine.MatchString(s) || !strings.Contains(s, "'main.wasm'") {
			return "", fmt.Errorf("no `const CACHE = '...';` line or no 'main.wasm' in its file list")
		}
		s = cacheLine.ReplaceAllLiteralString(s, "const CACHE = 'gcplay-"+hash+"';")
		return strings.ReplaceAll(s, "'main.wasm'", "'"+name+"'"), nil
	}); err != nil {
		return err
	}

	var files []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && compressible[filepath.Ext(p)] {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for _, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := compressFile(f, cacheDir); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	br, _ := os.Stat(filepath.Join(dir, name+".br"))
	gz, _ := os.Stat(filepath.Join(dir, name+".gz"))
	if br != nil && gz != nil {
		fmt.Fprintf(log, "%s: %d bytes, brotli %d, gzip %d\n", name, len(wasm), br.Size(), gz.Size())
	}
	return nil
}

// rewrite changes a file's text with edit.
func rewrite(path string, edit func(string) (string, error)) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s, err := edit(string(b))
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return os.WriteFile(path, []byte(s), 0o644)
}

// compressFile writes path.br and path.gz, each only when it is smaller
// than the file.
func compressFile(path, cacheDir string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	key := hex.EncodeToString(sum[:])
	for _, e := range Encodings {
		name := key + e.Suffix
		if e.Name == "br" { // a copy kept with other settings is not this one
			name = fmt.Sprintf("%s-q%d-w%d%s", key, BrotliOptions.Quality, BrotliOptions.LGWin, e.Suffix)
		}
		out, err := cached(cacheDir, name, len(data) > 1<<20, func() ([]byte, error) { return compress(e.Name, data) })
		if err != nil {
			return fmt.Errorf("%s: %s: %w", path, e.Name, err)
		}
		if len(out) >= len(data) {
			continue
		}
		if err := os.WriteFile(path+e.Suffix, out, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// cached returns make's result, kept under name in cacheDir when keep is
// set (and cacheDir is not "").
func cached(cacheDir, name string, keep bool, make func() ([]byte, error)) ([]byte, error) {
	if !keep || cacheDir == "" {
		return make()
	}
	p := filepath.Join(cacheDir, name)
	if b, err := os.ReadFile(p); err == nil {
		return b, nil
	}
	b, err := make()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cacheDir, 0o755); err == nil {
		// Written whole, then renamed: a build stopped halfway leaves no
		// half copy to be taken for a whole one.
		tmp := p + ".tmp"
		if os.WriteFile(tmp, b, 0o644) == nil {
			os.Rename(tmp, p)
		}
	}
	return b, nil
}

// compress returns data in an encoding of Encodings.
func compress(encoding string, data []byte) ([]byte, error) {
	var buf bytes.Buffer
	var w io.WriteCloser
	switch encoding {
	case "br":
		w = brotli.NewWriterOptions(&buf, BrotliOptions)
	case "gzip":
		zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			return nil, err
		}
		w = zw
	default:
		return nil, fmt.Errorf("unknown encoding %q", encoding)
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
