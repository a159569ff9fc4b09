// Command sitepack finishes a site built by make web: it gives main.wasm a
// versioned name and writes brotli and gzip copies of the page's files
// beside them (internal/website.Pack), so gcplay web, or any static host
// set up as the README says, serves them compressed.
//
//	go run ./build/sitepack [-cache DIR] SITE
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gcplay/gcplay/internal/website"
)

func main() {
	cache := flag.String("cache", "build/wasm/compressed", "keep the slow brotli copy of main.wasm here, by content hash (\"\" keeps none)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: sitepack [-cache DIR] SITE")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := website.Pack(flag.Arg(0), *cache, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sitepack:", err)
		os.Exit(1)
	}
}
