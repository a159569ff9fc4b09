package scenario

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestPackedDumpsRunAsPlain: every dump of the repository runs (settled,
// then, when it has one, deploy/web deleted in the background and in the
// foreground) to the same steps, records, objects, deletion order and
// events with its objects' maps packed, as the direct decoding reads them
// (fakeapi.PackMap), as with the same objects' fields as plain maps: a
// reader that took a packed value for a missing one would change a step.
func TestPackedDumpsRunAsPlain(t *testing.T) {
	for name, data := range repositoryDumps(t) {
		for _, policy := range []string{"", "Background", "Foreground"} {
			run := func(plain bool) []byte {
				s, err := ParseDump("dump.yaml", data)
				if err != nil {
					return []byte(err.Error())
				}
				if plain {
					for i := range s.Restore {
						s.Restore[i].Object = plainObject(s.Restore[i].Object)
					}
				}
				if policy != "" {
					ref, err := ResolveRef(fakeapi.NewRegistry(), "deploy/web")
					if err != nil {
						t.Fatal(err)
					}
					s.AddCommandSteps(&ref, policy)
				}
				res := Run(s, RunOptions{Records: true})
				b, err := json.Marshal(res)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			packed, plain := run(false), run(true)
			if !bytes.Equal(packed, plain) {
				t.Errorf("%s, %q: packed and plain runs differ:\npacked %.2000s\nplain  %.2000s", name, policy, packed, plain)
			}
			if policy == "" && !strings.Contains(string(packed), "web") {
				break
			}
		}
	}
}
