package lessons

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// bigProgress returns progress whose JSON is tens of kilobytes, so that a
// slow save of it takes long enough to be killed in the middle.
func bigProgress(tag string) *Progress {
	p := NewProgress()
	for i := 0; i < 400; i++ {
		lp := p.Lesson(fmt.Sprintf("lesson-%s-%03d", tag, i))
		lp.Done = true
		lp.DoneAt = "2026-01-01T00:00:00Z"
		lp.Hints = i % 4
		lp.Prediction = "3 of 4 right"
	}
	return p
}

// slowWrite writes in small chunks with a pause between them, saying
// "writing" on stdout when it starts, so the parent knows when to kill.
func slowWrite(f *os.File, data []byte) error {
	fmt.Println("writing")
	for len(data) > 0 {
		n := min(256, len(data))
		if _, err := f.Write(data[:n]); err != nil {
			return err
		}
		data = data[n:]
		time.Sleep(200 * time.Microsecond)
	}
	return nil
}

// TestSaveKilledMidway kills a process with SIGKILL while it saves
// progress, again and again, and checks each time that the file holds the
// old progress or the new, never a broken mix. The child is this test
// binary, re-run with GCPLAY_PROGRESS_CHILD set.
func TestSaveKilledMidway(t *testing.T) {
	if path := os.Getenv("GCPLAY_PROGRESS_CHILD"); path != "" {
		s := &FileStore{Path: path, write: slowWrite}
		if _, err := s.Load(); err != nil {
			fmt.Println("load:", err)
			os.Exit(2)
		}
		tags := []string{"b", "c"}
		for i := 0; ; i++ {
			if err := s.Save(bigProgress(tags[i%2])); err != nil {
				fmt.Println("save:", err)
				os.Exit(2)
			}
		}
	}
	if testing.Short() {
		t.Skip("kills child processes")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "progress.json")
	if err := (&FileStore{Path: path}).Save(bigProgress("a")); err != nil {
		t.Fatal(err)
	}
	valid := map[string]bool{}
	for _, tag := range []string{"a", "b", "c"} {
		b, _ := bigProgress(tag).Marshal()
		valid[string(b)] = true
	}
	midway := 0
	for round := 0; round < 8; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSaveKilledMidway$", "-test.count=1")
		cmd.Env = append(os.Environ(), "GCPLAY_PROGRESS_CHILD="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Let it start a few saves, then kill it at a random moment
		// within one.
		sc := bufio.NewScanner(out)
		saves := 1 + round%3
		for i := 0; i < saves && sc.Scan(); i++ {
			if line := sc.Text(); line != "writing" {
				t.Fatalf("child: %s", line)
			}
		}
		time.Sleep(time.Duration(rand.IntN(20000)) * time.Microsecond)
		if err := cmd.Process.Kill(); err != nil { // SIGKILL on Unix
			t.Fatal(err)
		}
		go func() {
			for sc.Scan() {
			}
		}()
		_ = cmd.Wait()

		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("round %d: the progress file is gone: %v", round, err)
		}
		if !valid[string(data)] {
			t.Fatalf("round %d: the progress file is neither the old nor the new progress (%d bytes): %.200q", round, len(data), data)
		}
		if _, err := ParseProgress(data); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		temps, _ := filepath.Glob(path + ".tmp-*")
		if len(temps) > 0 {
			midway++ // killed while a temporary file was being written
		}
		for _, tmp := range temps {
			os.Remove(tmp)
		}
	}
	if midway == 0 {
		t.Errorf("no kill landed in the middle of a write: the test proves nothing; slow the writer down")
	}
	t.Logf("%d of 8 kills landed in the middle of a write", midway)
}

// TestLoadSetsCorruptFileAside: a damaged file is renamed, never
// overwritten, and reported; the next save starts afresh beside it.
func TestLoadSetsCorruptFileAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "progress.json")
	for n, junk := range []string{`{"version":1,"lessons":{"owners-and`, "\x00\x01 not json", `{"version":1,"lessons":{},"extra":1}`} {
		if err := os.WriteFile(path, []byte(junk), 0o644); err != nil {
			t.Fatal(err)
		}
		s := &FileStore{Path: path}
		p, err := s.Load()
		var sa *SetAsideError
		if !errors.As(err, &sa) {
			t.Fatalf("%q: Load error %v, want a SetAsideError", junk, err)
		}
		want := path + ".corrupt-" + strconv.Itoa(n+1)
		if sa.Moved != want {
			t.Errorf("%q: moved to %s, want %s", junk, sa.Moved, want)
		}
		if !strings.Contains(err.Error(), "could not be read") || !strings.Contains(err.Error(), want) {
			t.Errorf("the report does not say what happened: %v", err)
		}
		if got, _ := os.ReadFile(want); string(got) != junk {
			t.Errorf("the set-aside copy is %q, want the damaged file unchanged", got)
		}
		if len(p.Lessons) != 0 {
			t.Errorf("progress after a damaged file should be empty")
		}
		p.MarkDone("owners-and-dependents", time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC))
		if err := s.Save(p); err != nil {
			t.Fatal(err)
		}
		again, err := (&FileStore{Path: path}).Load()
		if err != nil || !again.Of("owners-and-dependents").Done {
			t.Fatalf("reload after set-aside: %v %+v", err, again)
		}
	}
}

// TestUnreadablePathIsSetAside: a progress path that cannot be read as a
// file (here a directory) is moved aside with its content, not destroyed.
func TestUnreadablePathIsSetAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "progress.json")
	// A directory where the file should be cannot be read as a file.
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "keep"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &FileStore{Path: path}
	_, err := s.Load()
	var sa *SetAsideError
	if !errors.As(err, &sa) {
		t.Fatalf("Load: %v, want the directory set aside", err)
	}
	if _, err := os.Stat(filepath.Join(sa.Moved, "keep")); err != nil {
		t.Errorf("the set-aside directory lost its content: %v", err)
	}
	if err := s.Save(NewProgress()); err != nil {
		t.Fatalf("save after set-aside: %v", err)
	}
}

// TestNewerProgressIsNotOverwritten: a file from a newer gcplay is read,
// and Save refuses to replace it.
func TestNewerProgressIsNotOverwritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.json")
	newer := `{"version":2,"lessons":{"owners-and-dependents":{"done":true}}}`
	if err := os.WriteFile(path, []byte(newer), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &FileStore{Path: path}
	p, err := s.Load()
	if !errors.Is(err, ErrNewerProgress) || !p.Of("owners-and-dependents").Done {
		t.Fatalf("Load: %v, %+v", err, p)
	}
	if err := s.Save(NewProgress()); !errors.Is(err, ErrNewerProgress) {
		t.Fatalf("Save over a newer file: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != newer {
		t.Errorf("the newer file was changed: %s", got)
	}
}

// TestKVStore: the browser's store sets damaged progress aside under
// another key.
func TestKVStore(t *testing.T) {
	kv := MemKV{"gcplay.progress": "garbage"}
	s := &KVStore{KV: kv, Key: "gcplay.progress"}
	_, err := s.Load()
	var sa *SetAsideError
	if !errors.As(err, &sa) || kv["gcplay.progress.corrupt-1"] != "garbage" {
		t.Fatalf("Load: %v; keys %v", err, kv.Keys())
	}
	p := NewProgress()
	p.Lesson("two-owners").Hints = 2
	if err := s.Save(p); err != nil {
		t.Fatal(err)
	}
	back, err := s.Load()
	if err != nil || back.Of("two-owners").Hints != 2 {
		t.Fatalf("round trip: %v %+v", err, back)
	}
}

// TestMerge: importing progress keeps the best of both.
func TestMerge(t *testing.T) {
	a := NewProgress()
	a.MarkDone("one", time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	a.Lesson("two").Hints = 1
	b := NewProgress()
	b.MarkDone("one", time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC))
	b.MarkDone("two", time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC))
	b.Lesson("two").Hints = 3
	b.Lesson("three").SolutionSeen = true
	a.Merge(b)
	if got := a.Of("one").DoneAt; got != "2026-02-01T00:00:00Z" {
		t.Errorf("one done at %s, want the earlier time", got)
	}
	if lp := a.Of("two"); !lp.Done || lp.Hints != 3 {
		t.Errorf("two: %+v", lp)
	}
	if !a.Of("three").SolutionSeen {
		t.Errorf("three: solution seen lost")
	}
	data, _ := a.Marshal()
	back, err := ParseProgress(data)
	if err != nil || len(back.Lessons) != 3 {
		t.Fatalf("export round trip: %v", err)
	}
}
