// Package saturation decides whether a load generator's own process was
// short of CPU during a run, so that its figures may understate the
// system under test ("the client itself may be the bottleneck"). A
// [Monitor] reads the process's counters at the edges of each window; the
// pure [Judge] turns the window's [Signals] into a [Verdict] whose
// findings each name the signal and its value.
//
// It may import only the standard library. It knows nothing about
// workloads, drivers or the measure package: callers pass operation counts
// and durations.
//
// # What it looks at, and what it ignores
//
// Only signals that mean CPU contention:
//
//   - Process CPU time (getrusage) against the CPUs the process may use:
//     the least of GOMAXPROCS, the CPUs of its affinity mask
//     (runtime.NumCPU) and its cgroup v1/v2 CPU quota (quota/period,
//     ancestors included). Go rounds a quota up to at least 2 for
//     GOMAXPROCS, so a 1-CPU container runs with GOMAXPROCS=2 and only the
//     quota says the truth.
//   - The time the process's threads spent runnable on a run queue waiting
//     for a CPU (Linux /proc/self/task/*/schedstat, second field). CPU time
//     plus that wait is what the process was ready to run; when it reaches
//     its allowance the process wanted every CPU it may use, whether it got
//     them (its own CPU at the allowance) or not (a CPU hog beside it).
//   - Go scheduler latency of goroutines that became runnable
//     (runtime/metrics /sched/latencies:seconds), as the share of
//     wake-ups in the window that waited 5 ms or more. Not the number of
//     runnable goroutines sampled at a moment: goroutines waking from
//     sleeps and network waits become runnable in bursts (a timer tick
//     readies many at once, and a sampling goroutine woken by a timer sees
//     exactly those bursts), so a mostly idle client with 64 sleeping
//     threads averaged "26.9 goroutines waiting for a CPU". Not a p99
//     either: one wake-up in a hundred waits 40 ms whenever another
//     process starts beside a throttled run that lacks nothing.
//   - The garbage collector's compulsory CPU (/cpu/classes/gc/total minus
//     /cpu/classes/gc/mark/idle, which uses only Ps that had nothing else
//     to do) against /cpu/classes/total. The runtime updates these at the
//     end of each GC cycle only, so they span the cycles that ended inside
//     the window, and it counts them on the Ps the collector holds, not in
//     CPU time: a collector whose threads the OS keeps waiting looks busy.
//     So the GC share is judged only over a span of at least half the
//     window and in a process that was busy itself.
//   - A -target rate the run did not reach. On its own that says the run
//     fell behind, not why: with CPU to spare, too few threads or a slow
//     server set the pace, and the verdict carries a note, not saturation.
//
// "The machine is busy but this process got what it needed" shows as
// small CPU and small wait: a throttled run or a sleeping driver beside
// other busy processes waits a little for each wake-up, but what it was
// ready to run stays a small share of its CPUs.
//
// # Why the thresholds are what they are
//
// Measured on a 2-core machine shared with HBase, HDFS, Kafka and other
// builds (basic driver, workload C; shares are of the CPUs the process may
// use):
//
//	run                                      CPU   wait  wake-ups ≥5 ms  ops/s
//	full speed, GOMAXPROCS=1, 4 threads      98 %    3 %      90 %     3.2 M
//	full speed, 4 threads, machine busy      55 %   49 %      79 %     2.7 M
//	full speed, 4 threads, 2 CPU hogs        16 %   96 %      79 %     0.9 M
//	sleep 2 ms, 16 threads                    3 %    3 %       0 %     6.9 k
//	sleep 2 ms, 64 threads                    6 %    8 %       0 %      26 k
//	sleep 2 ms, 64 threads, 4 CPU hogs        4 %   19 %       0 %      24 k
//	sleep 2 ms, 1000 threads                 48 %    9 %       0 %     401 k
//	sleep 2 ms, 1000 threads, 1 CPU hog      33 %   61 %       3 %     263 k
//	sleep 2 ms, 1000 threads, 2 CPU hogs     15 %   92 %      11 %     114 k
//	-target 500, 2 threads, 4 CPU hogs        2 %   14 %       0 %     500
//
// BusyShare (85 %) for CPU, and for CPU plus wait: a CPU-bound client
// reaches 92-100 % of its allowance when it has the CPUs and 100-110 %
// CPU plus wait when it does not; the busiest client that lacks nothing
// (1000 sleeping threads, 400 k ops/s) is ready to run 57 %. 85 % leaves
// the rest for the monitor's window edges and Go's spinning threads. Its
// cost: a client that needs half the machine is starved, and warns, as
// soon as other processes take half of it (the 1000-thread rows with
// hogs) — rightly, since its throughput then falls by a third or more.
//
// SlowWakeup (5 ms) and SlowShare (25 %): 5 ms is several kernel time
// slices and half of Go's 10 ms preemption quantum, so a wake-up waiting
// that long waited behind other running work, not for a thread to wake.
// Clients that lack nothing have under 1 % of wake-ups that slow, a
// starved 1000-thread one 11 %, CPU-bound ones 67-100 %. MinWakeups (25
// sampled, about 200 real: the runtime samples one in eight) keeps a
// handful of preemptions from deciding.
//
// GCShare (25 %): the GC pacer budgets 25 % of GOMAXPROCS while marking;
// spending that much on average means the collector runs without pause
// and the workload has three quarters of the client at most (GOGC=1 with
// a pointer-rich heap: 34-38 %). HalfBusy (50 %) guards it: a 64-thread
// sleeping client (4-7 % of its CPUs) on a machine at load 25 once showed
// 37 % "GC", because the collector's Ps were held while the OS ran other
// processes.
//
// TargetShort (90 %) allows for the runner's pacing, which catches up
// after a stall. HalfBusy again: a run behind its -target with more than
// half its CPUs busy or wanted may be held back by its own CPU; with less,
// it had at least one CPU in two idle and the cause lies elsewhere.
//
// MinWindow (10 ms): CPU time and run-queue wait are counted in
// nanoseconds, and their sum does not depend on whose time slice a window
// fell in, so even a short run is judged (gobench sweep with
// operationcount=20000 runs steps of 12-70 ms at full speed); below 10 ms
// the start of the run (workers starting, connections opening) is most of
// the window. [LiveWindow] (2 s) is longer because live windows are cut
// from a run that goes on: a one-second burst of another process or one
// GC should not print the warning; the whole run is judged at the end.
package saturation
