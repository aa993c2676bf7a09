package workload_test

import (
	"context"
	"fmt"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/memory"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
	"github.com/gobench/gobench/workload/core"
)

// Load 1000 records into an in-process store, run workload A's mix on it
// with 4 workers, and look at the latency of the reads.
func ExamplePrepare() {
	base := map[string]string{
		"recordcount": "1000", "operationcount": "10000", "threadcount": "4",
		"readproportion": "0.5", "updateproportion": "0.5", "requestdistribution": "zipfian",
		"gobench.seed": "1",
	}
	db := memory.NewDB(core.DefaultSpec().Schema()) // usertable, field0..field9
	ctx := context.Background()
	for _, phase := range []string{"false", "true"} { // load, then run
		set := &props.Set{}
		set.Add(props.FromMap(base, "example")...)
		set.Add(props.Value{Key: "dotransactions", Value: phase, Source: "example"})
		plan, err := workload.Prepare(set, workload.WithDB("memory", db))
		if err != nil {
			fmt.Println(err)
			return
		}
		res, err := plan.Run(ctx)
		if err != nil {
			fmt.Println(err)
			return
		}
		if phase == "true" {
			reads, updates := res.Count("READ", drivers.OK), res.Count("UPDATE", drivers.OK)
			fmt.Println("operations:", res.Ops)
			fmt.Println("all succeeded:", reads+updates == res.Ops, res.Failed() == 0)
			fmt.Println("reads timed:", res.Series("READ").Count() == reads)
			fmt.Println("p99 at least p50:", res.Percentile("READ", 99) >= res.Percentile("READ", 50))
		}
	}
	// Output:
	// operations: 10000
	// all succeeded: true true
	// reads timed: true
	// p99 at least p50: true
}
