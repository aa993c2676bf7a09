//go:build !linux

package saturation

// threadWaits is Linux-only; elsewhere the run-queue wait is unknown.
func threadWaits(map[int]int64) (map[int]int64, bool) { return nil, false }
