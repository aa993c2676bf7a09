//go:build race

package hbclient

// The race detector allocates on its own; allocation tests skip under it.
const raceEnabled = true
