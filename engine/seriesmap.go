package engine

import (
	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/measure"
)

// NameCleanup is the measurement of closing a worker's connection.
const NameCleanup = "CLEANUP"

// NameScanLatencyPerRecord is YCSB master's measurement of a scan's
// latency divided by the rows it returned (integer microseconds). A job
// that scans records it under [Meter.Extra] of this name, which exists
// only with Settings.ScanLatencyPerRecord (off by default, so that reports
// keep YCSB 0.17.0's shape).
const NameScanLatencyPerRecord = "SCAN-LATENCY-PER-RECORD"

// SeriesMap maps (operation, outcome) to measurement series the way Java's
// DBWrapper names them: successes under the operation name, failures under
// <OP>-FAILED (or <OP>-<STATUS> with reportlatencyforeacherror or
// latencytrackederrors), intended-start latencies under Intended-<name>.
// Return codes are always counted against the plain name. Build it once per
// run with [NewSeriesMap]; it is immutable and shared by all workers.
type SeriesMap struct {
	ops      []string // operation names, by id
	names    []string
	plain    []int
	failed   [][drivers.NumStatus]int
	extra    map[string]int
	intended []int // intended[i] is the Intended- twin of series i, or -1
	cleanup  int

	// measurement.interval
	recordIntended     bool
	intendedUnderPlain bool
}

// NewSeriesMap lays out the measurements of a job whose operations are named
// ops (index = operation id) and which records extra plain measurements
// (such as VERIFY), under spec's measurement settings.
func NewSeriesMap(ops, extra []string, spec *Settings) *SeriesMap {
	t := &SeriesMap{extra: map[string]int{}, ops: ops}
	add := func(name string) int {
		t.names = append(t.names, name)
		return len(t.names) - 1
	}
	tracked := map[string]bool{}
	for _, e := range spec.LatencyTrackedErrors {
		tracked[e] = true
	}
	t.plain = make([]int, len(ops))
	t.failed = make([][drivers.NumStatus]int, len(ops))
	for op, name := range ops {
		t.plain[op] = add(name)
		failed := -1
		for st := drivers.Status(0); int(st) < drivers.NumStatus; st++ {
			switch {
			case st.IsOK():
				t.failed[op][st] = t.plain[op]
			case spec.ReportLatencyPerError || tracked[st.String()]:
				t.failed[op][st] = add(name + "-" + st.String())
			default:
				if failed < 0 {
					failed = add(name + "-FAILED")
				}
				t.failed[op][st] = failed
			}
		}
	}
	t.cleanup = add(NameCleanup)
	for _, e := range extra {
		t.extra[e] = add(e)
	}
	if _, ok := t.extra[NameScanLatencyPerRecord]; spec.ScanLatencyPerRecord && !ok {
		t.extra[NameScanLatencyPerRecord] = add(NameScanLatencyPerRecord)
	}
	switch spec.MeasurementInterval {
	case "intended":
		t.intendedUnderPlain = true
	case "both":
		t.recordIntended = true
	}
	t.intended = make([]int, len(t.names))
	n := len(t.names)
	for i := 0; i < n; i++ {
		t.intended[i] = -1
		if t.recordIntended {
			t.intended[i] = add("Intended-" + t.names[i])
		}
	}
	return t
}

func (t *SeriesMap) opName(op int) string { return t.ops[op] }

// Plain returns the series of operation op's successes (and its Return=
// counts).
func (t *SeriesMap) Plain(op int) int { return t.plain[op] }

// Extra returns the series of the extra measurement name, or -1 when there
// is none.
func (t *SeriesMap) Extra(name string) int {
	if i, ok := t.extra[name]; ok {
		return i
	}
	return -1
}

// Layout is the measure layout of these series.
func (t *SeriesMap) Layout() measure.Layout {
	return measure.Layout{Series: t.names, Codes: drivers.StatusNames()}
}
