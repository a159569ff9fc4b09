// Package locale picks the language gcplay speaks, and lays out text that
// mixes Latin and CJK script.
//
// The language comes from --lang when given, else from the POSIX locale
// variables in their order of precedence (LC_ALL, then LC_MESSAGES, then
// LANG: the first that is set decides), else English. Only the language
// part of a locale name counts: zh_CN.UTF-8, zh_TW and zh-Hans all mean
// zh, the only Chinese gcplay has (Simplified).
package locale

import (
	"fmt"
	"slices"
	"strings"
)

// Default is the language every text has, and the fallback.
const Default = "en"

// Vars are the environment variables that name the locale, in order of
// precedence.
var Vars = []string{"LC_ALL", "LC_MESSAGES", "LANG"}

// Language returns the language part of a locale name, lower case:
// "zh_CN.UTF-8" → "zh", "en-US" → "en", "C" and "POSIX" → "" (no
// language: the default).
func Language(name string) string {
	name = strings.TrimSpace(name)
	if i := strings.IndexAny(name, ".@"); i >= 0 {
		name = name[:i]
	}
	if i := strings.IndexAny(name, "_-"); i >= 0 {
		name = name[:i]
	}
	name = strings.ToLower(name)
	if name == "c" || name == "posix" {
		return ""
	}
	return name
}

// FromEnv returns the language the environment asks for ("" for none):
// the first of LC_ALL, LC_MESSAGES and LANG that is set and not empty
// decides, as in POSIX.
func FromEnv(getenv func(string) string) string {
	for _, v := range Vars {
		if s := getenv(v); s != "" {
			return Language(s)
		}
	}
	return ""
}

// Pick returns the language to speak, one of have (which holds Default):
// flag when given (an error when have lacks it), else the environment's
// language when have has it, else Default.
func Pick(flag string, getenv func(string) string, have []string) (string, error) {
	if flag != "" {
		if l := Language(flag); slices.Contains(have, l) {
			return l, nil
		}
		return "", fmt.Errorf("--lang %s: gcplay speaks %s", flag, strings.Join(have, ", "))
	}
	if l := FromEnv(getenv); slices.Contains(have, l) {
		return l, nil
	}
	return Default, nil
}
