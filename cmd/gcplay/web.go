package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// WebOptions are the options of gcplay web.
type WebOptions struct {
	// Addr is the address to listen on; loopback by default, so the page
	// is not offered to the network unless asked for.
	Addr string
	// Dir is the built site (make web writes it to site/).
	Dir string
}

// NewCmdWeb returns the web command.
func NewCmdWeb() *cobra.Command {
	o := &WebOptions{}
	cmd := &cobra.Command{
		Use:   "web",
		Short: "Serve the browser page (the playground in WebAssembly) on a local address",
		Long: `Serve the browser page: the same playground, compiled to WebAssembly,
in an xterm.js terminal. Build the page first with make web (it writes
site/); any static file server can host that folder too.`,
		Example: `  make web && gcplay web
  gcplay web --addr 127.0.0.1:9000 --dir /path/to/site`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.Run(cmd)
		},
	}
	cmd.Flags().StringVar(&o.Addr, "addr", "127.0.0.1:8080", "address to listen on (host:port)")
	cmd.Flags().StringVar(&o.Dir, "dir", "site", "the built page (make web writes it)")
	return cmd
}

// Validate checks that Dir holds a built page.
func (o *WebOptions) Validate() error {
	for _, f := range []string{"index.html", "main.wasm", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(o.Dir, f)); err != nil {
			return &ExitError{Code: ExitInvalid, Err: fmt.Errorf("no built page in %s (%s is missing): run make web in a gcplay checkout, which writes site/, or give --dir the folder it wrote", o.Dir, f)}
		}
	}
	return nil
}

// Run serves the page until interrupted.
func (o *WebOptions) Run(cmd *cobra.Command) error {
	if err := o.Validate(); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("cannot listen on %s: %w", o.Addr, err)}
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	srv := &http.Server{Handler: SiteHandler(o.Dir), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(cmd.OutOrStdout(), "gcplay web: serving %s at http://%s/ (ctrl+c stops)\n", o.Dir, ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return &ExitError{Code: ExitFailed, Err: err}
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return &ExitError{Code: ExitFailed, Err: err}
	}
	return nil
}

// SiteHandler serves a built page from dir: files as they are, with the
// content types browsers insist on for WebAssembly and modules, and
// revalidated on every load, so a rebuilt page is picked up at once (the
// page's service worker keeps the offline copy).
func SiteHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		switch {
		case strings.HasSuffix(r.URL.Path, ".wasm"):
			h.Set("Content-Type", "application/wasm")
		case strings.HasSuffix(r.URL.Path, ".mjs"), strings.HasSuffix(r.URL.Path, ".js"):
			h.Set("Content-Type", "text/javascript; charset=utf-8")
		}
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	})
}
