// Package engine drives workloads: the Runner starts one worker per thread,
// divides the operations among them as Java YCSB does, paces them to a
// target rate with intended start times, runs a warm-up, enforces the time
// limit, stops gracefully (draining the operations in flight, bounded) and
// records every operation through lock-free measure recorders.
//
// What one operation is belongs to a [Job]; every workload kind is one
// (workload/core, workload/dfsio, workload/kafkaperf, or a caller's own),
// described by a [Kind] that says how to build it from properties and which
// driver capabilities it needs. Package workload is the one way in: it
// decodes properties, picks the kind and the driver, checks capabilities
// and hands engine a Job, [Settings] and a drivers.DB.
//
// It may import drivers, generator (for each worker's random stream),
// measure and props, and the standard library. It never reads flags or the
// environment, never prints to stdout and never exits.
package engine
