package workload

import (
	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/measure"
)

// Extra measurement names besides the operations.
const (
	nameCleanup = "CLEANUP"
	nameVerify  = "VERIFY"
)

// series maps (operation, outcome) to measurement series, the way Java's
// DBWrapper names them: successes under the operation name, failures under
// <OP>-FAILED (or <OP>-<STATUS> with reportlatencyforeacherror or
// latencytrackederrors), intended-start latencies under Intended-<name>.
// Return codes are always counted against the plain name.
type series struct {
	names    []string
	plain    [NumOps]int
	failed   [NumOps][drivers.NumStatus]int
	intended []int // intended[i] is the Intended- twin of series i, or -1
	cleanup  int
	verify   int
	// latency selection (measurement.interval)
	recordOp, recordIntended bool
	intendedUnderPlain       bool
}

func newSeries(s *Spec) *series {
	t := &series{}
	add := func(name string) int {
		t.names = append(t.names, name)
		return len(t.names) - 1
	}
	tracked := map[string]bool{}
	for _, e := range s.LatencyTrackedErrors {
		tracked[e] = true
	}
	for op := Op(0); op < numOps; op++ {
		t.plain[op] = add(op.String())
		failed := -1
		for st := drivers.Status(0); int(st) < drivers.NumStatus; st++ {
			if st.IsOK() {
				t.failed[op][st] = t.plain[op]
				continue
			}
			if s.ReportLatencyPerError || tracked[st.String()] {
				t.failed[op][st] = add(op.String() + "-" + st.String())
				continue
			}
			if failed < 0 {
				failed = add(op.String() + "-FAILED")
			}
			t.failed[op][st] = failed
		}
	}
	t.cleanup = add(nameCleanup)
	t.verify = add(nameVerify)

	switch s.MeasurementInterval {
	case "intended":
		t.intendedUnderPlain = true
	case "both":
		t.recordOp, t.recordIntended = true, true
	default:
		t.recordOp = true
	}
	t.intended = make([]int, len(t.names))
	for i := range t.intended {
		t.intended[i] = -1
	}
	if t.recordIntended {
		n := len(t.names)
		for i := 0; i < n; i++ {
			t.intended[i] = add("Intended-" + t.names[i])
		}
	}
	return t
}

func (t *series) layout() measure.Layout {
	return measure.Layout{Series: t.names, Codes: drivers.StatusNames()}
}
