package timeseries

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/engine"
)

// TestStepAllocatesNothing: once its buffers have grown, a worker's
// operations (every kind of the mix, data integrity's verification too)
// allocate nothing.
func TestStepAllocatesNothing(t *testing.T) {
	s := DefaultSpec()
	s.NumKeys, s.KeyLength, s.RecordCount, s.StartTimestamp, s.StartSet = 4, 6, 1000, 1483228800, true
	s.TagCardinality = []int{1, 2, 4, 8}
	s.RandomTimeseriesOrder, s.DataIntegrity, s.ValueType = false, true, "integers"
	s.ReadProportion, s.UpdateProportion, s.InsertProportion, s.ScanProportion, s.DeleteProportion = 1, 1, 1, 1, 1
	for _, phase := range []engine.Phase{engine.Load, engine.Transactions} {
		s.Phase = phase
		j, err := newJob(s, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		db := driverstest.NopDB{}
		conn, _ := db.Open(context.Background())
		set := engine.DefaultSettings()
		task, err := j.NewTask(0, conn, rand.New(rand.NewPCG(1, 2)), engine.NewMeter(set, j))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		for range 2000 { // every key and tag combination, the buffers grown
			task.Step(ctx)
		}
		if n := testing.AllocsPerRun(2000, func() { task.Step(ctx) }); n != 0 {
			t.Errorf("%s: Step allocates %v per operation", phase, n)
		}
	}
}
