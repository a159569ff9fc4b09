package tui

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/gcplay/gcplay/internal/framelines"
)

// BenchmarkStarterKeyParts splits one key on the starter world (after a
// foreground delete, as BenchmarkStarterKey) into the phases a frame goes
// through in Bubble Tea's renderer: the model's Update, its View (the
// frame as a styled string), drawing that string into the renderer's cell
// buffer (parsing its escape sequences), and diffing the cells against the
// last frame into the bytes written to the terminal. Each phase is
// reported per key, with the garbage collections and bytes allocated, so
// the same code can be timed natively and under GOOS=js GOARCH=wasm.
//
// The "lines" runs draw as the browser build does (internal/framelines):
// only the frame's changed lines are parsed into the cell buffer.
func BenchmarkStarterKeyParts(b *testing.B) {
	for _, run := range []string{"s", "left", "s-lines", "left-lines"} {
		k, byLines := strings.CutSuffix(run, "-lines")
		b.Run(run, func(b *testing.B) {
			var lines framelines.Lines
			var m *Model
			var cells uv.ScreenBuffer
			var scr *uv.TerminalRenderer
			var out bytes.Buffer
			var upd, view, draw, diff time.Duration
			var keys, outBytes int
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			i := 0
			for b.Loop() {
				if i%10 == 0 {
					b.StopTimer()
					m = starterKeyModel(b, "", k)
					cells = uv.NewScreenBuffer(140, 45)
					scr = uv.NewTerminalRenderer(&out, []string{"TERM=xterm-256color", "COLORTERM=truecolor"})
					scr.SetColorProfile(colorprofile.TrueColor)
					scr.SetFullscreen(true)
					scr.SetRelativeCursor(false)
					scr.SetTabStops(-1)
					scr.SetScrollOptim(true)
					v := m.View().Content
					uv.NewStyledString(v).Draw(cells, cells.Bounds())
					lines.Drawn(v, cells.Height())
					scr.Render(cells.RenderBuffer)
					_ = scr.Flush()
					out.Reset()
					b.StartTimer()
				}
				t0 := time.Now()
				press(b, m, k)
				t1 := time.Now()
				v := m.View()
				t2 := time.Now()
				if !byLines || !lines.Draw(cells, v.Content) {
					cells.Clear()
					uv.NewStyledString(v.Content).Draw(cells, cells.Bounds())
					lines.Drawn(v.Content, cells.Height())
				}
				t3 := time.Now()
				scr.Render(cells.RenderBuffer)
				_ = scr.Flush()
				t4 := time.Now()
				upd += t1.Sub(t0)
				view += t2.Sub(t1)
				draw += t3.Sub(t2)
				diff += t4.Sub(t3)
				outBytes += out.Len()
				out.Reset()
				keys++
				i++
			}
			runtime.ReadMemStats(&ms1)
			n := float64(keys)
			b.ReportMetric(float64(upd.Microseconds())/n, "update-µs/key")
			b.ReportMetric(float64(view.Microseconds())/n, "view-µs/key")
			b.ReportMetric(float64(draw.Microseconds())/n, "draw-µs/key")
			b.ReportMetric(float64(diff.Microseconds())/n, "diff-µs/key")
			b.ReportMetric(float64(outBytes)/n, "out-B/key")
			b.ReportMetric(float64(ms1.NumGC-ms0.NumGC)/n, "gc/key")
			b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/n/1e6, "alloc-MB/key")
			b.ReportMetric(float64(ms1.PauseTotalNs-ms0.PauseTotalNs)/n/1e3, "gcpause-µs/key")
		})
	}
}
