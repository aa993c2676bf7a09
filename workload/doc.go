// Package workload turns properties into a typed, validated [Spec] and runs it
// against a driver: YCSB's CoreWorkload (key choice, operation mix, field
// values, data integrity) and the Runner (workers, Java's op division, target
// pacing with intended start times, time limit, warm-up, graceful stop).
//
// The workload property picks the kind, and every kind is a [Job] that the
// same Runner drives and measures:
//
//   - core (alias site.ycsb.workloads.CoreWorkload): YCSB's CoreWorkload;
//   - dfsio: Hadoop's TestDFSIO (write, read, random/backward/skip reads,
//     append, truncate) over files of a driver with drivers.FileSystem;
//   - produce and consume: Kafka's ProducerPerformance and
//     ConsumerPerformance over a driver with drivers.Producer/Consumer.
//
// It may import generator, measure, drivers and props, and the standard
// library. It never reads flags or the environment, never prints to stdout
// and never exits: the CLI (cmd/gobench) does that.
//
// Running a workload from Go, against any driver (a registered one or your
// own drivers.DB):
//
//	spec := workload.DefaultSpec()
//	spec.RecordCount, spec.OperationCount, spec.Threads = 1000, 10000, 8
//	spec.RequestDistribution = "zipfian"
//	res, err := workload.Run(ctx, spec, db) // db: any drivers.DB
//	if err != nil { ... }
//	h := res.Histogram(workload.OpRead)     // HDR histogram of successful reads
//	fmt.Println(h.ValueAtQuantile(99))      // p99 in microseconds
//
// Faithfulness to Java YCSB, and deliberate differences, are listed in the
// README's "Compatibility" section; each difference is noted where it is
// implemented.
package workload
