//go:build race

package lazyre

// raceEnabled: under the race detector the tests compare fewer texts.
const raceEnabled = true
