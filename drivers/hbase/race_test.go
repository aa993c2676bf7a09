//go:build race

package hbase

// The race detector allocates on its own; allocation tests skip under it.
const raceEnabled = true
