package workload_test

import (
	"context"
	"fmt"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/memory"
	"github.com/gobench/gobench/workload"
)

// Load 1000 records into an in-process store, run workload A's mix on it
// with 4 workers, and look at the latency histogram of the reads.
func ExampleRun() {
	spec := workload.DefaultSpec()
	spec.RecordCount, spec.OperationCount, spec.Threads = 1000, 10000, 4
	spec.ReadProportion, spec.UpdateProportion = 0.5, 0.5
	spec.RequestDistribution = "zipfian"
	spec.Seed, spec.SeedSet = 1, true

	db := memory.NewDB(spec.Schema())
	ctx := context.Background()

	load := spec
	load.Phase = workload.Load
	if _, err := workload.Run(ctx, load, db); err != nil {
		fmt.Println(err)
		return
	}
	res, err := workload.Run(ctx, spec, db)
	if err != nil {
		fmt.Println(err)
		return
	}
	reads, updates := res.Count(workload.OpRead, drivers.OK), res.Count(workload.OpUpdate, drivers.OK)
	fmt.Println("operations:", res.Ops)
	fmt.Println("all succeeded:", reads+updates == res.Ops)
	fmt.Println("reads timed:", res.Histogram(workload.OpRead).TotalCount() == reads)
	// Output:
	// operations: 10000
	// all succeeded: true
	// reads timed: true
}
