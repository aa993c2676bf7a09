package engine

import _ "unsafe" // for go:linkname

// nanotime is the runtime's monotonic clock, the one time.Now and
// time.Since read (CLOCK_MONOTONIC through the vDSO on Linux, as Java's
// System.nanoTime), without time.Since's wrapping: its check for a
// testing/synctest bubble and its subtraction of the process's start. A
// closed-loop operation reads it twice, and the wrapping was about 6 ns a
// read, 2 % of an operation on the basic driver (BenchmarkMeterNow).
// Where the kernel keeps time with the CPU's time-stamp counter, a Meter
// reads nanotime from that counter instead (tscClock, tsc.go).
// runtime.nanotime is one of the runtime's functions that stay reachable
// by go:linkname because widely used modules pull it.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64
