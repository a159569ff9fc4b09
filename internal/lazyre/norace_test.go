//go:build !race

package lazyre

const raceEnabled = false
