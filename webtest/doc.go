// Package webtest drives gcplay's browser page (make web) in real headless
// Chromium: the same playground as the terminal build, compiled to
// WebAssembly, in an xterm.js terminal. Its tests load the page, type into
// it, resize it, reload it, open share links and take a screenshot; with
// -webbench they also measure it for docs/BENCHMARKS.md.
//
// The tests use the site in $GCPLAY_SITE when set (make test builds it
// first) and otherwise build one with make web into a temporary folder.
// They need Debian's chromium (apt-get install -y chromium; .ci/run
// installs it) and are skipped, saying so, when it is not installed.
package webtest
