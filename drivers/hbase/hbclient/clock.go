package hbclient

import "time"

// clockBase anchors now and monoNanos: a time read once, with its monotonic
// reading.
var clockBase = time.Now()

// now is time.Now for the per-call bookkeeping (operation deadlines, write
// deadlines) at one clock read instead of two: time.Now reads the wall clock
// and the monotonic clock, now only the monotonic one (time.Since of a time
// that has a monotonic reading reads nothing else). Its times carry a
// monotonic reading, so Sub, Until, Before and the contexts and socket
// deadlines made from them behave as with time.Now's; only their wall clock
// part can differ from time.Now's, by however far the wall clock was stepped
// since the process started, and nothing here prints it.
func now() time.Time { return clockBase.Add(time.Since(clockBase)) }

// monoNanos is the monotonic clock in nanoseconds since clockBase, one read:
// the watchdog's expiry times.
func monoNanos() int64 { return int64(time.Since(clockBase)) }
