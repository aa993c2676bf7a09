//go:build race

package engine

// raceEnabled: the race detector allocates, so allocation checks skip
// under it (make test-unit runs them again without it).
const raceEnabled = true
