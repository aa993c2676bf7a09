package saturation

import (
	"math"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// Metric names read from runtime/metrics.
var metricNames = []string{
	"/sched/latencies:seconds",
	"/sched/gomaxprocs:threads",
	"/cpu/classes/total:cpu-seconds",
	"/cpu/classes/gc/total:cpu-seconds",
	"/cpu/classes/gc/mark/idle:cpu-seconds",
}

// reading is one look at the process's cumulative counters.
type reading struct {
	at    time.Time
	cpu   time.Duration // process CPU; -1 = unknown
	wait  time.Duration // run-queue wait summed over threads since the monitor started; -1 = unknown
	procs int           // GOMAXPROCS
	sched []uint64      // /sched/latencies:seconds bucket counts (nil = unknown)
	// /cpu/classes in seconds, as of the end of the last GC (the runtime
	// updates them only then): available to GOMAXPROCS, GC total, GC
	// idle-priority marking.
	cpuTotal, gcTotal, gcIdle float64
}

// runtimeMetrics reads runtime/metrics into readings; buckets are the
// scheduler-latency histogram's bounds (seconds), fixed for the process.
type runtimeMetrics struct {
	s       []metrics.Sample
	buckets []float64
}

func newRuntimeMetrics() *runtimeMetrics {
	m := &runtimeMetrics{}
	for _, n := range metricNames {
		m.s = append(m.s, metrics.Sample{Name: n})
	}
	return m
}

func (m *runtimeMetrics) read(r *reading) {
	metrics.Read(m.s)
	if v := m.s[0].Value; v.Kind() == metrics.KindFloat64Histogram {
		h := v.Float64Histogram()
		r.sched = append([]uint64(nil), h.Counts...)
		m.buckets = h.Buckets
	}
	if v := m.s[1].Value; v.Kind() == metrics.KindUint64 {
		r.procs = int(v.Uint64())
	}
	f := func(i int) float64 {
		if m.s[i].Value.Kind() == metrics.KindFloat64 {
			return m.s[i].Value.Float64()
		}
		return 0
	}
	r.cpuTotal, r.gcTotal, r.gcIdle = f(2), f(3), f(4)
}

// schedBetween returns the wake-ups sampled between two readings of a
// cumulative latency histogram with the given bucket bounds, how many of
// them waited at least slow (buckets whose lower bound is at least slow),
// and their median (the upper bound of its bucket; -1 when none).
func schedBetween(a, b []uint64, buckets []float64, slow time.Duration) (n, slowN uint64, p50 time.Duration) {
	if len(a) != len(b) || len(b) == 0 || len(buckets) != len(b)+1 {
		return 0, 0, -1
	}
	for i := range b {
		c := b[i] - a[i]
		n += c
		if buckets[i] >= slow.Seconds() {
			slowN += c
		}
	}
	p50 = -1
	if n == 0 {
		return n, slowN, p50
	}
	rank := (n + 1) / 2
	var cum uint64
	for i := range b {
		cum += b[i] - a[i]
		if cum >= rank {
			ub := buckets[i+1]
			if math.IsInf(ub, 1) {
				ub = buckets[i]
			}
			p50 = time.Duration(ub * float64(time.Second))
			break
		}
	}
	return n, slowN, p50
}

// parseSchedstat returns the run-queue wait (ns) of a schedstat line
// "<on-cpu ns> <waiting ns> <timeslices>".
func parseSchedstat(s string) (int64, bool) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return 0, false
	}
	w, err := strconv.ParseInt(f[1], 10, 64)
	return w, err == nil && w >= 0
}
