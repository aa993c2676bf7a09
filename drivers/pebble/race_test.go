//go:build race

package pebble

// raceEnabled: the race detector makes sync.Pool drop items at random, so
// pebble's pooled iterators allocate and allocation budgets do not hold.
const raceEnabled = true
