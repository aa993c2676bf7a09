package engine

import (
	"context"
	"errors"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/measure"
)

// TestRunCountsExactlyWithPooledRecorders: with more workers than
// recorders, workers claim pooled recorders per operation; every operation
// and failure is still counted once.
func TestRunCountsExactlyWithPooledRecorders(t *testing.T) {
	set := DefaultSettings()
	threads := 4*runtime.GOMAXPROCS(0) + 5
	set.Ops, set.Threads, set.MeasurementInterval = 20000, threads, "both"
	j := &countJob{fail: 7}
	r, err := New(set, j, driverstest.NopDB{})
	if err != nil {
		t.Fatal(err)
	}
	if r.pool == nil || r.pool.Len() >= threads {
		t.Fatalf("%d workers: pool %v; want a pool of fewer recorders", threads, r.pool)
	}
	res, err := r.Run(context.Background(), WithLog(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	if res.Ops != 20000 || res.Failed() != 20000/7 {
		t.Errorf("ops %d, failed %d; want 20000, %d", res.Ops, res.Failed(), 20000/7)
	}
	if got := res.Series("OP").Count() + res.Series("OP-FAILED").Count(); got != 20000 {
		t.Errorf("OP and OP-FAILED latencies: %d, want 20000", got)
	}
	if got := res.Series("Intended-OP").Count() + res.Series("Intended-OP-FAILED").Count(); got != 20000 {
		t.Errorf("intended latencies: %d, want 20000", got)
	}
}

// TestMeterAllocs: measuring an operation allocates nothing, with a
// recorder of the worker's own or one claimed from a pool.
func TestMeterAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates; make test-unit runs this without it")
	}
	set := DefaultSettings()
	set.MeasurementInterval = "both"
	job := &countJob{}
	own := NewMeter(set, job)
	pooled := NewMeter(set, job)
	pooled.pool, pooled.rec = measure.NewCollector(pooled.t.Layout(), measure.Options{}).NewPool(2), nil
	fail := errors.New("boom")
	for name, m := range map[string]*Meter{"own": own, "pooled": pooled} {
		// The first sample of a series allocates its histogram.
		m.Measure(0, m.Now(), nil)
		m.Measure(0, m.Now(), fail)
		m.Sample(0, m.Now())
		steps := map[string]func(){
			"Measure":     func() { m.pending = true; m.Measure(0, m.Now(), nil) },
			"MeasureFail": func() { m.Measure(0, m.Now(), fail) },
			"Count":       func() { m.Count(0, drivers.Error) },
			"Sample":      func() { m.Sample(0, m.Now()-time.Millisecond) },
			"SampleValue": func() { m.SampleValue(0, time.Millisecond) },
			"done":        func() { m.done(1) },
		}
		for step, fn := range steps {
			if n := testing.AllocsPerRun(500, fn); n != 0 {
				t.Errorf("%s recorder: %s: %v allocs per run, want 0", name, step, n)
			}
		}
	}
}
