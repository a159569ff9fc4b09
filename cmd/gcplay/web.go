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
	"time"

	"github.com/spf13/cobra"

	"github.com/gcplay/gcplay/internal/website"
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
site/). Each file is sent as the brotli or gzip copy make web wrote beside
it, as the browser accepts; the versioned main.HASH.wasm is cached for a
year, everything else revalidated on each load. Any static host can serve
site/ too (the README says how to match this).`,
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
	missing := ""
	for _, f := range []string{"index.html", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(o.Dir, f)); err != nil && missing == "" {
			missing = f
		}
	}
	if _, err := website.WasmName(o.Dir); err != nil && missing == "" {
		missing = "main.HASH.wasm"
	}
	if missing != "" {
		return &ExitError{Code: ExitInvalid, Err: fmt.Errorf("no built page in %s (%s is missing): run make web in a gcplay checkout, which writes site/, or give --dir the folder it wrote", o.Dir, missing)}
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
	srv := &http.Server{Handler: website.Handler(o.Dir), ReadHeaderTimeout: 10 * time.Second}
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
