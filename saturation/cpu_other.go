//go:build !unix

package saturation

import "time"

// processCPU is unknown outside Unix.
func processCPU() time.Duration { return -1 }
