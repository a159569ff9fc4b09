#!/usr/bin/env bash
# build.sh OUT.wasm — build gcplay's browser entry point (./wasm) for
# GOOS=js GOARCH=wasm, with Bubble Tea's four missing platform functions
# added from bubbletea_js.go, three libraries trimmed of what the page
# cannot use (x/ansi's kitty images, colorprofile's tmux probe, terminfo's
# database loader) and yaml v2's and v3's two regexps matched by gcplay's
# own code, so that the page links no regexp (see below).
#
# Each is applied to a private copy of the pinned module in the
# git-ignored build/wasm/ area, selected by a go.work file there with
# replace directives: the repository's go.mod is untouched (go install keeps
# working, the native binary links the libraries as they are) and no
# third-party source is committed.
#
# build.sh --check only checks that go.mod pins the versions PINNED names.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
GO="${GO:-go}"
# Workspace mode refuses -mod=mod (the Makefile's default GOFLAGS).
export GOFLAGS=-buildvcs=false

# Every module the browser build copies, edits or stands in for is pinned
# in PINNED (the edits below were checked against those versions).
while read -r mod want; do
  case "$mod" in ''|'#'*) continue ;; esac
  have="$(GOWORK=off "$GO" list -m -f '{{.Version}}' "$mod")"
  if [ "$have" != "$want" ]; then
    cat >&2 <<MSG
build/wasm-shim: go.mod pins $mod $have, but the browser build's
shim or edit for it (build/wasm-shim/build.sh, PINNED) was written for $want.
For charm.land/bubbletea/v2: check whether $have compiles for GOOS=js on its
own (GOOS=js GOARCH=wasm go build ./wasm): if it does, drop the shim; if not,
compare bubbletea_js.go with the new tty_unix.go and signals_unix.go and fix
it. For the others: check that the edit below still applies and still only
leaves out what the page cannot use. Then change the version in PINNED.
MSG
    exit 1
  fi
done < "$here/PINNED"
[ "${1:-}" = "--check" ] && exit 0

out="${1:?usage: build.sh OUT.wasm | --check}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac

work="$root/build/wasm"
mkdir -p "$work"
replaces=""
# copy MODULE NAME: a private, writable copy of MODULE at its pinned version
# in $work/NAME, which the browser build uses instead of the module cache's.
copy() {
  local mod="$1" name="$2" ver dir
  ver="$(awk -v m="$mod" '$1 == m {print $2}' "$here/PINNED")"
  dir="$(GOWORK=off "$GO" mod download -json "$mod@$ver" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -d "$dir" ] || { echo "build/wasm-shim: cannot find $mod@$ver in the module cache" >&2; exit 1; }
  rm -rf "${work:?}/$name"
  cp -R "$dir" "$work/$name"
  chmod -R u+w "$work/$name"
  replaces="${replaces}replace $mod $ver => ./$name
"
}
# edit FILE SED-SCRIPT CHECK: apply a sed script to a copied file and make
# sure it took (CHECK, a fixed string, must then be in the file).
edit() {
  sed -e "$2" "$1" > "$1.new" && mv "$1.new" "$1"
  grep -qF -- "$3" "$1" || { echo "build/wasm-shim: the edit of $1 no longer applies" >&2; exit 1; }
}

# Bubble Tea: its four missing platform functions for js.
copy charm.land/bubbletea/v2 bubbletea
cp "$here/bubbletea_js.go" "$work/bubbletea/zz_gcplay_shim_js.go"
# Run starts the input reader when the page asks (Program.StartInput, in
# bubbletea_js.go), after its first frame: until then the page holds its
# input, and making the reader was code compiled before the first frame.
edit "$work/bubbletea/tea.go" '/Init the input reader and initial model/,/initInputReader(false)/s/p\.initInputReader(false)/p.initInputReaderLater()/' 'p.initInputReaderLater()'

# x/ansi: the kitty graphics package's encoder, decoder and image writer
# are left out for js. The page uses only kitty's keyboard flags (through
# ultraviolet's key events) and never draws an image, but those files'
# imports linked image/png (and its init, which keeps its decoder and
# compress/zlib) into every build.
copy github.com/charmbracelet/x/ansi ansi
for f in decoder encoder writer; do
  edit "$work/ansi/kitty/$f.go" '1i\
//go:build !js\

' '//go:build !js'
done

# colorprofile: its tmux probe runs `tmux info`, linking os/exec. The page
# never reaches it (its output is not a TTY, and it sets the profile
# itself), and on js exec fails anyway; the probe gets the failure the
# command would give (colorprofile/colorprofile_js.go) and the profile it falls back to.
copy github.com/charmbracelet/colorprofile colorprofile
edit "$work/colorprofile/env.go" '/^	"context"$/d
/^	"os\/exec"$/d
s/^	cmd := exec\.CommandContext(context\.Background(), "tmux", "info")$/	var cmd noTmux/' '	var cmd noTmux'
cp "$here/colorprofile/colorprofile_js.go" "$work/colorprofile/zz_gcplay_shim_js.go"

# yaml v2 and v3: their two package-level regexps (a float-looking plain
# scalar's check in resolve.go, a base 60 float's in encode.go) become
# gcplay's own matchers (yaml/floats.go, held to the regexps by
# floats_test.go), and neither package imports regexp: the page then links
# no regexp at all. Each edit names the whole line, expression and all, so
# an expression changed upstream stops the build.
for v in 2 3; do
  copy go.yaml.in/yaml/v$v yaml$v
  edit "$work/yaml$v/resolve.go" '/^	"regexp"$/d
s/^var yamlStyleFloat = regexp\.MustCompile(`\^\[-+\]?(\\\.\[0-9\]+|\[0-9\]+(\\\.\[0-9\]\*)?)(\[eE\]\[-+\]?\[0-9\]+)?\$`)$/var yamlStyleFloat gcplayYAMLStyleFloat/' 'var yamlStyleFloat gcplayYAMLStyleFloat'
  edit "$work/yaml$v/encode.go" '/^	"regexp"$/d
s/^var base60float = regexp\.MustCompile(`\^\[-+\]?\[0-9\]\[0-9_\]\*(?::\[0-5\]?\[0-9\])+(?:\\\.\[0-9_\]\*)?\$`)$/var base60float gcplayBase60Float/' 'var base60float gcplayBase60Float'
  cp "$here/yaml/floats.go" "$work/yaml$v/zz_gcplay_floats.go"
done

# xo/terminfo: a stand-in whose Load fails, as the library's does in the
# browser (no file system); see terminfo/terminfo_js.go.
tver="$(awk '$1 == "github.com/xo/terminfo" {print $2}' "$here/PINNED")"
rm -rf "$work/terminfo"
mkdir -p "$work/terminfo"
cp "$here/terminfo/terminfo_js.go" "$work/terminfo/"
printf 'module github.com/xo/terminfo\n\ngo 1.19\n' > "$work/terminfo/go.mod"
replaces="${replaces}replace github.com/xo/terminfo $tver => ./terminfo
"

gover="$(awk '$1 == "go" {print $2; exit}' go.mod)"
cat > "$work/go.work" <<WORK
// Generated by build/wasm-shim/build.sh: the browser build only.
go $gover

use ../..

$replaces
WORK

# -s -w drops the symbol table and DWARF. Inlining is off (-l): the
# binary's code and its function tables then compress to about 15% less
# (see docs/BENCHMARKS.md, Browser), at a small cost in speed the page
# does not feel. WASM_GCFLAGS= builds with the compiler's defaults.
gcflags="${WASM_GCFLAGS-all=-l}"
GOWORK="$work/go.work" GOOS=js GOARCH=wasm "$GO" build -trimpath -ldflags='-s -w' -gcflags="$gcflags" -o "$out" ./wasm
# Join the linker's data segments (wasm/wasmpack): the same memory image,
# about 7% smaller gzipped; and clear the runtime's file and line tables
# and the names of other modules' functions, which only stack traces read
# (about 8% of the brotli copy). WASM_TRACES=1 keeps them, for a build whose
# panics print whole traces in the browser's console. A host tool, built
# for this machine.
packflags=()
[ -n "${WASM_TRACES:-}" ] && packflags=(-traces)
GOWORK=off GOFLAGS=-mod=mod "$GO" run ./wasm/wasmpack "${packflags[@]}" "$out"
