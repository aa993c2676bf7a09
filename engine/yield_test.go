package engine

import (
	"context"
	"io"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
)

// clockJob's one task measures every operation as lasting step on a clock
// of its own, which jumps by wait after each yield of the worker (the time a
// yielded worker waits for a CPU), so the loop's yields can be counted
// without reading a real clock.
type clockJob struct {
	step, wait time.Duration
	now        time.Duration
	yielded    bool
	ops        int
	yieldsAt   []int // the operations after which the worker yielded
}

func (j *clockJob) Ops() []string          { return []string{"OP"} }
func (j *clockJob) Extra() []string        { return nil }
func (j *clockJob) Warnings() []string     { return nil }
func (j *clockJob) Schema() drivers.Schema { return drivers.Schema{Table: "t"} }
func (j *clockJob) NewTask(_ int, _ drivers.Conn, _ *rand.Rand, m *Meter) (Task, error) {
	return clockTask{j: j, m: m}, nil
}

type clockTask struct {
	j *clockJob
	m *Meter
}

func (t clockTask) Step(context.Context) bool {
	j := t.j
	if j.yielded {
		j.now += j.wait
		j.yielded = false
	}
	start := j.now
	j.now += j.step
	j.ops++
	t.m.MeasureSpan(0, start, j.now, t.m.Intended(), nil)
	return true
}

// An unpaced worker yields its goroutine once it has run yieldEvery of
// operations, so that the Go runtime does not preempt it inside a timed
// call or its recorder's critical section; neither the time before its
// first operation (the clock here starts 1 s into the run: a worker that
// got a CPU late) nor the time it waits for a CPU after a yield counts
// towards the next yield (else, with more workers than CPUs, every worker
// would yield after each operation).
func TestUnpacedWorkerYieldsEveryPeriodOfItsRun(t *testing.T) {
	for _, wait := range []time.Duration{0, time.Second} {
		j := &clockJob{step: 100 * time.Microsecond, wait: wait, now: time.Second}
		saved := yield
		yield = func() { j.yielded = true; j.yieldsAt = append(j.yieldsAt, j.ops) }
		set := DefaultSettings()
		set.Threads, set.Ops = 1, 1000
		r, err := New(set, j, driverstest.NopDB{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Run(context.Background(), WithLog(io.Discard))
		yield = saved
		if err != nil {
			t.Fatal(err)
		}
		// 100 us per operation: a yield after every 21 (one to mark
		// the run's start, 20 to fill 2 ms).
		if len(j.yieldsAt) != 47 || j.yieldsAt[0] != 21 {
			t.Fatalf("wait %v: yields after operations %v, want after 21, 42, 63, ... 987 (47 of them)", wait, j.yieldsAt)
		}
		for i := 1; i < len(j.yieldsAt); i++ {
			if d := j.yieldsAt[i] - j.yieldsAt[i-1]; d != 21 {
				t.Fatalf("wait %v: yields after operations %d and %d, want 21 apart", wait, j.yieldsAt[i-1], j.yieldsAt[i])
			}
		}
	}
}

// A paced worker sleeps between its operations and never yields.
func TestPacedWorkerDoesNotYield(t *testing.T) {
	calls := 0
	saved := yield
	yield = func() { calls++ }
	defer func() { yield = saved }()
	set := DefaultSettings()
	set.Threads, set.Ops, set.Target = 2, 40, 2000 // 20 ms
	runLogged(t, set, &countJob{})
	if calls != 0 {
		t.Fatalf("%d yields in a paced run, want none", calls)
	}
}
