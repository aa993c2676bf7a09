package netperf

import (
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/props"
)

// Property keys.
const (
	KeyReverse = "net.reverse" // the server sends (iperf3 -R)
	KeyLen     = "net.len"     // bytes per write or read (iperf3 -l)
)

// DefaultLen is iperf3's TCP block size.
const DefaultLen = 128 * 1024

// runnerSlack is how much longer than the test the runner may run.
const runnerSlack = 10 * time.Second

// DefaultTime is iperf3's test time.
const DefaultTime = 10 * time.Second

// Kind is iperf3's TCP test as a workload kind (workload=net), for example
// `gobench run -db iperf3 -p iperf3.host=10.0.0.1 -p workload=net -p
// threadcount=4 -p maxexecutiontime=10`; `gobench net -c HOST` takes
// iperf3's own flags. threadcount is the number of streams and
// maxexecutiontime the test's time (default 10 s); the phase does not
// matter.
var Kind = engine.Kind{
	Name:    "net",
	Summary: "iperf3's TCP test: N streams send (or, reversed, receive) blocks for a time; sender and receiver throughput",
	Command: "net",
	Needs:   drivers.CapNet,
	Keys:    Keys(),
	Build:   build,
}

// Keys lists the net properties.
func Keys() []props.Key {
	return []props.Key{
		{Name: KeyReverse, Default: "false", Usage: "the server sends and the client receives (iperf3 -R)", Show: true},
		{Name: KeyLen, Default: "128KB", Usage: "bytes per write or read (iperf3 -l; binary units)", Show: true},
	}
}

// Config is one test.
type Config struct {
	Streams  int
	Duration time.Duration
	Len      int
	Reverse  bool
}

// Spec is the test as the driver's streams are told it.
func (c Config) Spec() drivers.NetSpec {
	return drivers.NetSpec{Streams: c.Streams, Duration: c.Duration, BlockSize: c.Len, Reverse: c.Reverse}
}

func build(b *engine.Build) (engine.Job, error) {
	d := b.Props
	before := len(d.Errs())
	c := Config{Streams: b.Settings.Threads, Len: DefaultLen, Duration: DefaultTime}
	c.Reverse = d.Bool(KeyReverse, false)
	if n := d.Bytes(KeyLen, DefaultLen); n < 1 || n > math.MaxInt32 {
		d.Failf(KeyLen, "want 1 byte to 2 GiB")
	} else {
		c.Len = int(n)
	}
	if _, ok := d.Lookup("maxexecutiontime"); ok {
		c.Duration = b.Settings.MaxExecutionTime
		if c.Duration <= 0 {
			d.Failf("maxexecutiontime", "the net test needs a time > 0 (seconds; iperf3 -t)")
		}
	}
	if c.Streams < 1 || c.Streams > 128 {
		d.Fail(&props.Error{Key: "threadcount", Value: strconv.Itoa(c.Streams), Err: errors.New("the net test takes 1 to 128 streams (iperf3 -P)")})
	}
	// The streams stop at the test's time counted from its start (after
	// the handshake), as iperf3 times it; the runner's limit only guards.
	b.Settings.MaxExecutionTime = c.Duration + runnerSlack
	b.Settings.Ops = 0
	if errs := d.Errs()[before:]; len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return NewJob(c), nil
}
