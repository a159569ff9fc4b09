package lessons

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ProgressVersion is the version of the progress format this gcplay
// writes. A file with a higher version was written by a newer gcplay: it
// is read but never overwritten.
const ProgressVersion = 1

// Progress is a learner's progress through the course: per lesson, by id.
type Progress struct {
	Version int                        `json:"version"`
	Lessons map[string]*LessonProgress `json:"lessons"`
}

// LessonProgress is the progress in one lesson.
type LessonProgress struct {
	// Done is set once the goal was reached.
	Done bool `json:"done,omitempty"`
	// DoneAt is when, in RFC 3339.
	DoneAt string `json:"doneAt,omitempty"`
	// Hints is how many hints were revealed.
	Hints int `json:"hints,omitempty"`
	// SolutionSeen is set once the solution was shown.
	SolutionSeen bool `json:"solutionSeen,omitempty"`
	// Prediction is the last prediction's score, "3 of 4 right".
	Prediction string `json:"prediction,omitempty"`
}

// NewProgress returns empty progress.
func NewProgress() *Progress {
	return &Progress{Version: ProgressVersion, Lessons: map[string]*LessonProgress{}}
}

// Lesson returns the progress of lesson id, creating it.
func (p *Progress) Lesson(id string) *LessonProgress {
	if p.Lessons == nil {
		p.Lessons = map[string]*LessonProgress{}
	}
	lp := p.Lessons[id]
	if lp == nil {
		lp = &LessonProgress{}
		p.Lessons[id] = lp
	}
	return lp
}

// Of returns the progress of lesson id, or a zero value (never nil).
func (p *Progress) Of(id string) LessonProgress {
	if lp := p.Lessons[id]; lp != nil {
		return *lp
	}
	return LessonProgress{}
}

// MarkDone records that lesson id's goal was reached at now, keeping the
// first time.
func (p *Progress) MarkDone(id string, now time.Time) {
	lp := p.Lesson(id)
	if !lp.Done {
		lp.Done = true
		lp.DoneAt = now.UTC().Format(time.RFC3339)
	}
}

// Done counts the lessons done among ids.
func (p *Progress) Done(ids []string) int {
	n := 0
	for _, id := range ids {
		if p.Of(id).Done {
			n++
		}
	}
	return n
}

// Merge adds other's progress to p: a lesson done in either is done (at
// the earlier time), the larger hint count and any solution seen are
// kept, and p's prediction score unless it has none.
func (p *Progress) Merge(other *Progress) {
	for id, o := range other.Lessons {
		if o == nil {
			continue
		}
		lp := p.Lesson(id)
		switch {
		case o.Done && !lp.Done:
			lp.Done, lp.DoneAt = true, o.DoneAt
		case o.Done && lp.Done && o.DoneAt != "" && (lp.DoneAt == "" || o.DoneAt < lp.DoneAt):
			lp.DoneAt = o.DoneAt
		}
		lp.Hints = max(lp.Hints, o.Hints)
		lp.SolutionSeen = lp.SolutionSeen || o.SolutionSeen
		if lp.Prediction == "" {
			lp.Prediction = o.Prediction
		}
	}
}

// Marshal returns the progress as JSON, lessons sorted by id, for a file
// or an export.
func (p *Progress) Marshal() ([]byte, error) {
	c := *p
	if c.Version == 0 {
		c.Version = ProgressVersion
	}
	if c.Lessons == nil {
		c.Lessons = map[string]*LessonProgress{}
	}
	b, err := json.MarshalIndent(&c, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// ParseProgress reads progress JSON (a progress file or an export). It is
// strict: unknown fields and trailing data are errors, so a damaged file
// is not mistaken for progress.
func ParseProgress(data []byte) (*Progress, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var p Progress
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("not gcplay progress: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("not gcplay progress: data after the JSON object")
	}
	if p.Version < 1 {
		return nil, fmt.Errorf("not gcplay progress: no version")
	}
	if p.Lessons == nil {
		p.Lessons = map[string]*LessonProgress{}
	}
	for id := range p.Lessons {
		if !idRE.Get().MatchString(id) {
			return nil, fmt.Errorf("not gcplay progress: %q is not a lesson id", id)
		}
	}
	return &p, nil
}

// Store keeps progress between runs: a file in the user's config
// directory, the browser's localStorage, or memory.
type Store interface {
	// Load returns the stored progress, or empty progress when there is
	// none. When the stored data is damaged, Load sets it aside (it is
	// never overwritten), and returns empty progress together with a
	// *SetAsideError that says where it went; callers report it and go on.
	Load() (*Progress, error)
	// Save stores p, atomically: afterwards the store holds either the
	// old or the new progress, never a mix.
	Save(p *Progress) error
	// Where says where the progress is kept, for messages.
	Where() string
}

// SetAsideError reports damaged progress that was moved out of the way.
type SetAsideError struct {
	// Path is where the progress was; Moved is where it is now.
	Path, Moved string
	// Cause is what was wrong with it.
	Cause error
}

func (e *SetAsideError) Error() string {
	return fmt.Sprintf("the progress in %s could not be read (%v); it was kept as %s, and progress starts afresh", e.Path, e.Cause, e.Moved)
}

func (e *SetAsideError) Unwrap() error { return e.Cause }

// ErrNewerProgress is returned when progress was written by a newer
// gcplay: it is read as far as possible, and not overwritten.
var ErrNewerProgress = errors.New("the progress was written by a newer gcplay")

// FileStore keeps progress in a JSON file, written atomically: the new
// content goes to a temporary file in the same directory, which is synced
// and then renamed over the old file, and the directory is synced. A kill
// at any moment leaves the old file or the new one, and at worst a
// temporary file beside it.
type FileStore struct {
	Path string

	// blocked is set when the file could be neither read nor set aside:
	// saving would destroy what is there.
	blocked error
	// write writes data to f; tests replace it with a slow one.
	write func(f *os.File, data []byte) error
}

// DefaultProgressPath is os.UserConfigDir()/gcplay/progress.json.
func DefaultProgressPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no config directory to keep progress in: %w", err)
	}
	return filepath.Join(dir, "gcplay", "progress.json"), nil
}

// Where returns the file's path.
func (s *FileStore) Where() string { return s.Path }

// Load reads the file. A missing file is empty progress. A file that
// cannot be read or parsed is renamed to progress.json.corrupt-<n> and
// reported with a *SetAsideError.
func (s *FileStore) Load() (*Progress, error) {
	s.blocked = nil
	data, err := os.ReadFile(s.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return NewProgress(), nil
	case err != nil:
		return s.setAside(err)
	}
	p, err := ParseProgress(data)
	if err != nil {
		return s.setAside(err)
	}
	if p.Version > ProgressVersion {
		s.blocked = fmt.Errorf("%w (format %d; this gcplay writes %d): it is not overwritten", ErrNewerProgress, p.Version, ProgressVersion)
		return p, s.blocked
	}
	return p, nil
}

// setAside moves the damaged file out of the way.
func (s *FileStore) setAside(cause error) (*Progress, error) {
	for n := 1; n < 1000; n++ {
		moved := fmt.Sprintf("%s.corrupt-%d", s.Path, n)
		if _, err := os.Lstat(moved); err == nil {
			continue
		}
		if err := os.Rename(s.Path, moved); err != nil {
			s.blocked = fmt.Errorf("the progress in %s could not be read (%v) nor set aside (%v): it is left as it is, and nothing will be saved over it", s.Path, cause, err)
			return NewProgress(), s.blocked
		}
		return NewProgress(), &SetAsideError{Path: s.Path, Moved: moved, Cause: cause}
	}
	s.blocked = fmt.Errorf("the progress in %s could not be read (%v), and there are too many set-aside copies beside it", s.Path, cause)
	return NewProgress(), s.blocked
}

// Save writes p atomically.
func (s *FileStore) Save(p *Progress) error {
	if s.blocked != nil {
		return s.blocked
	}
	data, err := p.Marshal()
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot save progress: %w", err)
	}
	s.cleanTemps(dir)
	f, err := os.CreateTemp(dir, filepath.Base(s.Path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("cannot save progress: %w", err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("cannot save progress to %s: %w", s.Path, err)
	}
	write := s.write
	if write == nil {
		write = func(f *os.File, data []byte) error { _, err := f.Write(data); return err }
	}
	if err := write(f, data); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot save progress to %s: %w", s.Path, err)
	}
	if err := os.Rename(tmp, s.Path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot save progress to %s: %w", s.Path, err)
	}
	// The rename is durable once the directory is synced. Some systems
	// cannot sync a directory; the rename is still atomic there.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// cleanTemps removes temporary files that a killed save left behind, once
// they are old enough not to belong to a save in progress.
func (s *FileStore) cleanTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := filepath.Base(s.Path) + ".tmp-"
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Hour {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// KV is a string key-value store with atomic writes of one key, such as
// the browser's localStorage.
type KV interface {
	Get(key string) (value string, ok bool, err error)
	Set(key, value string) error
}

// KVStore keeps progress under one key of a KV: the browser build stores
// it in localStorage. Damaged progress is copied to <key>.corrupt-<n>
// before anything is written over it.
type KVStore struct {
	KV  KV
	Key string
}

// Where names the key.
func (s *KVStore) Where() string { return "localStorage[" + s.Key + "]" }

// Load reads and parses the key.
func (s *KVStore) Load() (*Progress, error) {
	v, ok, err := s.KV.Get(s.Key)
	if err != nil {
		return nil, err
	}
	if !ok {
		return NewProgress(), nil
	}
	p, perr := ParseProgress([]byte(v))
	if perr == nil {
		return p, nil
	}
	for n := 1; n < 1000; n++ {
		moved := fmt.Sprintf("%s.corrupt-%d", s.Key, n)
		if _, taken, _ := s.KV.Get(moved); taken {
			continue
		}
		if err := s.KV.Set(moved, v); err != nil {
			return nil, fmt.Errorf("the progress in %s could not be read (%v) nor set aside (%v)", s.Where(), perr, err)
		}
		return NewProgress(), &SetAsideError{Path: s.Where(), Moved: moved, Cause: perr}
	}
	return nil, fmt.Errorf("the progress in %s could not be read (%v)", s.Where(), perr)
}

// Save writes the key.
func (s *KVStore) Save(p *Progress) error {
	data, err := p.Marshal()
	if err != nil {
		return err
	}
	return s.KV.Set(s.Key, string(data))
}

// MemKV is a KV in memory, for tests and builds without storage.
type MemKV map[string]string

// Get returns the value of key.
func (m MemKV) Get(key string) (string, bool, error) { v, ok := m[key]; return v, ok, nil }

// Set stores value under key.
func (m MemKV) Set(key, value string) error { m[key] = value; return nil }

// Keys returns the keys, sorted.
func (m MemKV) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
