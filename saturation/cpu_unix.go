//go:build unix

package saturation

import (
	"syscall"
	"time"
)

// processCPU returns the user + system CPU time of this process, threads
// that exited included; -1 when unknown.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
