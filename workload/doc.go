// Package workload is the one way in to a gobench run, for every command of
// the CLI and for Go programs and tests: [Prepare] turns layered properties
// (YCSB's names: workload files, -p overrides, flags) into a [Plan] — the
// phase (dotransactions), the workload kind (the workload property), the
// common settings (threads, target, op count, time limit, warm-up, seed,
// measurement and output), the kind's job and the configured driver, with
// every capability the kind needs checked and every problem reported at
// once, before anything opens — and [Plan.Run] runs it and returns the
// engine.Result in memory.
//
// The kinds are packages of their own, listed in one table here (kinds.go):
// workload/core (YCSB's CoreWorkload, the default), workload/dfsio
// (TestDFSIO), workload/kafkaperf (Kafka's producer and consumer perf
// tools). The runner that drives them is package engine.
//
// Running workload A's mix from Go against any driver (a registered one,
// one of your own with WithDriver, or a configured DB with WithDB):
//
//	set := &props.Set{}
//	set.Add(props.FromMap(map[string]string{
//		"recordcount": "1000", "operationcount": "10000", "threadcount": "8",
//		"readproportion": "0.5", "updateproportion": "0.5", "requestdistribution": "zipfian",
//	}, "my test")...)
//	plan, err := workload.Prepare(set, workload.WithDB("memory", db))
//	if err != nil { ... }               // every configuration problem at once
//	res, err := plan.Run(ctx)
//	p99 := res.Percentile("READ", 99)   // µs, the rank rule of every gobench report
//
// Loading is the same with dotransactions=false (what `gobench load` sets).
//
// It may import engine, the kinds packages, drivers, measure and props, and
// the standard library. It never reads flags or the environment, never
// prints to stdout and never exits: the CLI (cmd/gobench) does that.
package workload
