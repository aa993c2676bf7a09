// Package engine drives workloads: the Runner starts one worker per thread,
// divides the operations among them as Java YCSB does, paces them to a
// target rate with intended start times, runs a warm-up, enforces the time
// limit, stops gracefully (draining the operations in flight, bounded) and
// records every operation through lock-free measure recorders.
//
// Two loops drive the workers. Java's closed loop (the default): each
// worker issues its next operation when its last one ends, paced by its
// share of the target; unthrottled it reads no clock of its own (an
// operation's intended start is its actual start) and counts an
// operation's completion in the same recorder critical section as its
// first measurement. The open loop (Settings.Arrival constant or poisson):
// operations arrive at the target rate over the whole run, at times fixed
// by the seed ([ArrivalTimes]), whatever the completions; workers claim
// arrivals in order (one atomic add for constant arrivals, a mutex for
// Poisson ones), so arrivals that find every worker busy queue FIFO and
// their latency counts from their arrival; [OpenLoopStats] reports the
// offered and achieved rates, the queue (peak, and mean by Little's law)
// and the late starts, and the run warns when it fell short.
//
// Pacing sleeps end on time (pacer.go): on Linux each paced worker waits
// with a timerfd in the runtime's poller, which a stop interrupts, because
// Go's timers alone end up to 1 ms late on an idle process, and that
// lateness would count into every intended-start latency.
//
// The clock (tsc.go): every Meter reads the runtime's monotonic clock, the
// one Java's System.nanoTime reads, but where the kernel itself keeps time
// with the CPU's invariant time-stamp counter (linux/amd64), from that
// counter, anchored to the monotonic clock every 2 ms and its rate measured
// against it every second: a read costs 26 ns instead of 41 ns on the x86
// virtual machines we measure on, and a closed-loop operation reads it
// twice. Settings.Clock (gobench.clock) can insist on either.
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
// environment, never prints to stdout and never exits; the one file it
// reads is the kernel's clock source in /sys, once, to decide whether to
// trust the time-stamp counter.
package engine
