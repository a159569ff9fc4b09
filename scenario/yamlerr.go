package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	yaml2 "go.yaml.in/yaml/v2"

	"github.com/gcplay/gcplay/internal/lazyre"
)

var yamlMsgRE = lazyre.New(`^yaml: (?:line (\d+): )?(.*)$`)

// parserProblems are the messages of YAML's parser stage (as opposed to its
// scanner). The YAML libraries count a parser problem's line from 0 and a
// scanner problem's from 1.
var parserProblems = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"did not find expected <document start>",
	"did not find expected <stream-start>",
	"did not find expected key",
	"did not find expected node content",
	"found duplicate %TAG directive",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// readerProblems are the messages of YAML's reader, which checks each
// character before the scanner sees it, and gives no line.
var readerProblems = []string{
	"invalid leading UTF-8 octet",
	"incomplete UTF-8 octet sequence",
	"invalid trailing UTF-8 octet",
	"invalid length of a UTF-8 sequence",
	"invalid Unicode character",
	"control characters are not allowed",
}

func readerProblem(msg string) bool {
	for _, p := range readerProblems {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// YAMLError turns a YAML syntax error in data into an Error on the line of
// the fault.
//
// go.yaml.in/yaml/v3 names the line where the enclosing block began,
// counted from 0, which reads as the line before the fault (or earlier).
// Its v2 reports where the parser met the problem, so the same bytes are
// read again with v2 to find the line; err's text is the fallback.
func YAMLError(file string, data []byte, err error) *Error {
	msg := err.Error()
	line := 0
	if m := yamlMsgRE.Get().FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	if l, m, ok := locateYAMLError(data); ok {
		line, msg = l, m
	}
	if line == 0 && readerProblem(msg) {
		// A character yaml.v3 would not read: its line, and the byte.
		if i := readerFault(data); i >= 0 {
			line = 1 + bytes.Count(data[:i], []byte("\n"))
			col := i - (bytes.LastIndexByte(data[:i], '\n') + 1)
			msg = fmt.Sprintf("%s (column %d, byte 0x%02x)", msg, col+1, data[i])
		}
	}
	if line < 1 {
		line = 1
	}
	if n := bytes.Count(data, []byte("\n")); len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		line = min(line, n+1)
	} else {
		line = min(line, max(n, 1))
	}
	return &Error{File: file, Line: line, Message: "invalid YAML: " + msg}
}

// locateYAMLError reads every document of data with YAML v2 and returns the
// 1-based line and message of the first syntax error.
func locateYAMLError(data []byte) (int, string, bool) {
	dec := yaml2.NewDecoder(bytes.NewReader(data))
	for {
		var v yaml2.MapSlice
		err := dec.Decode(&v)
		if err == nil {
			continue
		}
		if errors.Is(err, io.EOF) {
			return 0, "", false
		}
		m := yamlMsgRE.Get().FindStringSubmatch(err.Error())
		if m == nil {
			// A type error (a document that is not a mapping): not
			// syntax; read the next one.
			if _, ok := err.(*yaml2.TypeError); ok {
				continue
			}
			return 0, "", false
		}
		line, _ := strconv.Atoi(m[1])
		problem := m[2]
		for _, p := range parserProblems {
			if strings.HasPrefix(problem, p) {
				line++
				break
			}
		}
		return line, problem, true
	}
}
