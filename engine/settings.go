package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gobench/gobench/props"
)

// Settings say how the Runner drives a Job, whatever its kind: YCSB
// Client's threads, op count, target rate and time limit, gobench's warm-up
// and seed, and how outcomes are named in the measurements.
type Settings struct {
	Threads int // threadcount
	// Ops is the number of operations over all workers (0 = until the job
	// ends or a limit stops the run). It counts every operation, the
	// warm-up's included: a load of N records inserts exactly N keys.
	Ops              int64
	Target           float64       // target: total ops/s over all threads; 0 = unthrottled
	MaxExecutionTime time.Duration // maxexecutiontime; 0 = no limit
	Warmup           time.Duration // gobench.warmup: run, but left out of the report
	Seed             uint64        // gobench.seed
	SeedSet          bool          // whether Seed was given (else New draws one)
	SpinSleep        bool          // spin.sleep: busy-wait between paced operations
	// Arrival is gobench.arrival: "" runs Java's closed loop (each worker
	// issues its next operation when the previous one ends, paced by its
	// share of Target when one is set); ArrivalConstant and ArrivalPoisson
	// run an open loop, where operations arrive at Target per second over
	// the whole run whatever the completions, Threads bound the operations
	// in flight, and arrivals that find every worker busy queue (their
	// latency counts from their arrival). See [OpenLoop].
	Arrival string

	// How outcomes map onto measurement series (see [SeriesMap]).
	MeasurementInterval   string   // measurement.interval: op, intended, both
	ReportLatencyPerError bool     // reportlatencyforeacherror
	LatencyTrackedErrors  []string // latencytrackederrors
	// ScanLatencyPerRecord records YCSB master's SCAN-LATENCY-PER-RECORD
	// (a scan's latency divided by the rows it returned) for jobs that
	// scan (gobench.scanlatencyperrecord; off, as in YCSB 0.17.0).
	ScanLatencyPerRecord bool
	// Buckets is the number of 1 ms buckets each series counts besides its
	// HDR histogram (measurementtype=histogram: histogram.buckets); 0 =
	// none. Raw keeps every sample (measurementtype=raw). See
	// measure.Options.
	Buckets int
	Raw     bool
	// Clock is gobench.clock: what every Meter reads the time from.
	// "" or ClockAuto: the CPU's time-stamp counter where the kernel
	// itself keeps time with it, else the system's monotonic clock;
	// ClockTSC insists on the counter, ClockSystem refuses it.
	Clock string
}

// Arrival processes of the open loop (Settings.Arrival).
const (
	ArrivalConstant = "constant" // one arrival every 1/Target seconds
	ArrivalPoisson  = "poisson"  // exponential gaps of mean 1/Target seconds
)

// OpenLoop reports whether the settings ask for an open loop.
func (s *Settings) OpenLoop() bool { return s.Arrival != "" }

// DefaultSettings are Java YCSB Client's defaults.
func DefaultSettings() Settings {
	return Settings{Threads: 1, MeasurementInterval: "op"}
}

// Validate reports every problem at once, naming the property of each.
func (s *Settings) Validate() error {
	var errs []error
	bad := func(key string, val any, why string) {
		errs = append(errs, &props.Error{Key: key, Value: fmt.Sprint(val), Err: errors.New(why)})
	}
	if s.Threads < 1 {
		bad("threadcount", s.Threads, "must be at least 1")
	}
	if s.Ops < 0 {
		bad("operationcount", s.Ops, "must be >= 0 (0 = no limit)")
	}
	if s.Target < 0 {
		bad("target", s.Target, "must be >= 0 (0 = unthrottled)")
	}
	if s.MaxExecutionTime < 0 {
		bad("maxexecutiontime", s.MaxExecutionTime, "must be >= 0")
	}
	if s.Warmup < 0 {
		bad("gobench.warmup", s.Warmup, "must be >= 0")
	}
	switch s.Arrival {
	case "":
	case ArrivalConstant, ArrivalPoisson:
		if s.Target <= 0 {
			bad("target", s.Target, "gobench.arrival="+s.Arrival+" needs -target (the arrival rate in operations per second over all threads)")
		}
	default:
		bad("gobench.arrival", s.Arrival, "allowed: constant, poisson (or leave it unset for YCSB's closed loop)")
	}
	if s.Buckets < 0 {
		bad("histogram.buckets", s.Buckets, "must be >= 0")
	}
	switch s.Clock {
	case "", ClockAuto, ClockSystem:
	case ClockTSC:
		if _, err := systemTSC(); err != nil {
			bad("gobench.clock", s.Clock, "this machine has no time-stamp counter clock ("+err.Error()+"); allowed here: auto, system")
		}
	default:
		bad("gobench.clock", s.Clock, "allowed: auto, tsc, system")
	}
	switch s.MeasurementInterval {
	case "op", "intended", "both":
	default:
		bad("measurement.interval", s.MeasurementInterval, "allowed: op, intended, both")
	}
	return errors.Join(errs...)
}

// withSeed fills in a random seed when none was given.
func (s Settings) withSeed() Settings {
	if !s.SeedSet {
		s.Seed, s.SeedSet = rand.Uint64(), true
	}
	return s
}
