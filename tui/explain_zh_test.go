package tui

import (
	"strings"
	"testing"
)

// TestExplainInChinese: in zh the explain overlay's detail lines (upstream,
// call, enqueue, note) have Chinese labels and a note its Chinese words,
// through a ReplicaSet scaling down (its expectations, the ranking of the
// Pods it deletes, its status note).
func TestExplainInChinese(t *testing.T) {
	m, err := New(Options{Width: 120, Height: 40, NoColor: true, Theme: ThemeDark, Lang: "zh", Files: NewMemFiles(nil)})
	if err != nil {
		t.Fatal(err)
	}
	runLine(t, m, "scale deploy/web --replicas=1")
	runLine(t, m, "run")
	var all strings.Builder
	for i := range m.s.h.Len() {
		m.overlays.explainIdx = i
		for _, l := range m.overlays.explainLines(m, 200, nil).body {
			all.WriteString(l + "\n")
		}
	}
	text := all.String()
	for _, en := range []string{"upstream: ", "call: ", "enqueue: ", "note: ", "expectations fulfilled", "ranked before", "status: replicas"} {
		if strings.Contains(text, en) {
			t.Errorf("zh explain overlay has English %q", en)
		}
	}
	for _, zh := range []string{"上游函数：", "调用：", "入队：", "（30s 后）", "注：expectations 已满足", "（第一个保留的 Pod）之前", "注：状态：replicas "} {
		if !strings.Contains(text, zh) {
			t.Errorf("zh explain overlay lacks %q", zh)
		}
	}
}
