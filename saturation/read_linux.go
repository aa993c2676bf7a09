//go:build linux

package saturation

import (
	"os"
	"strconv"
)

// threadWaits returns, per thread of this process, the nanoseconds it has
// spent runnable on a run queue waiting for a CPU (the second field of
// /proc/self/task/<tid>/schedstat); ok is false where the kernel does not
// provide them.
func threadWaits(into map[int]int64) (map[int]int64, bool) {
	d, err := os.Open("/proc/self/task")
	if err != nil {
		return nil, false
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, false
	}
	clear(into)
	if into == nil {
		into = make(map[int]int64, len(names))
	}
	var buf [128]byte
	for _, n := range names {
		tid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		f, err := os.Open("/proc/self/task/" + n + "/schedstat")
		if err != nil {
			continue // the thread exited
		}
		k, _ := f.Read(buf[:])
		f.Close()
		if w, ok := parseSchedstat(string(buf[:k])); ok {
			into[tid] = w
		}
	}
	return into, len(into) > 0
}
