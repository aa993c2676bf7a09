//go:build race

package generator

// raceEnabled: the race detector slows plain arithmetic loops about
// sevenfold, so the longest exactness sweeps run shorter under it.
const raceEnabled = true
