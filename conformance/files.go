package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/gcplay/gcplay/scenario"
)

// collect expands the command-line arguments: a file is taken as is; a
// directory is walked for *.yaml, *.yml and *.txtar files; a path that
// does not exist is reported and skipped.
//
// A YAML member of a txtar archive (the CLI tests keep their scenarios
// there) is named "path#member"; those are test fixtures, some invalid or
// failing on purpose, so only the ones gcplay itself passes are run.
func collect(args []string) (inputs []job, missing []string, err error) {
	for _, a := range args {
		st, statErr := os.Stat(a)
		if statErr != nil {
			if os.IsNotExist(statErr) {
				missing = append(missing, a)
				continue
			}
			return nil, nil, statErr
		}
		var paths []string
		if st.IsDir() {
			err := filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if d.IsDir() {
					return nil
				}
				switch strings.ToLower(filepath.Ext(p)) {
				case ".yaml", ".yml", ".txtar":
					paths = append(paths, p)
				}
				return nil
			})
			if err != nil {
				return nil, nil, err
			}
			sort.Strings(paths)
		} else {
			paths = []string{a}
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				return nil, nil, err
			}
			if strings.EqualFold(filepath.Ext(p), ".txtar") {
				ar := txtar.Parse(data)
				for _, f := range ar.Files {
					switch strings.ToLower(filepath.Ext(f.Name)) {
					case ".yaml", ".yml":
						inputs = append(inputs, job{Name: fmt.Sprintf("%s#%s", p, f.Name), Data: f.Data, FromArchive: true})
					}
				}
				continue
			}
			if scenario.IsDump(data) {
				// A cluster dump: each what-if question in its comments
				// becomes a scenario of gcplay's answer, played here.
				for _, q := range scenario.WhatIfQuestions(data) {
					q.Controllers = allControllers // those this runner has
					name := fmt.Sprintf("%s#what-if delete %s --cascade=%s", p, q.Target, q.Cascade)
					s, err := scenario.WhatIfScenario(p, data, q)
					if err != nil {
						return nil, nil, fmt.Errorf("%s: %w", name, err)
					}
					inputs = append(inputs, job{Name: name, S: s})
				}
				continue
			}
			inputs = append(inputs, job{Name: p, Data: data})
		}
	}
	return inputs, missing, nil
}
