package workload

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/props"
)

// Plan is a prepared run: everything decoded and checked, the driver
// configured, nothing opened. Run it once with [Plan.Run].
type Plan struct {
	Phase      engine.Phase
	Kind       engine.Kind
	Settings   engine.Settings // effective: after the kind's Build, with the seed filled in
	Output     Output
	DriverName string
	// MaxErrorRatio is gobench.maxerrorratio: the share of failed
	// operations above which Run reports the run as failed (default 0:
	// any failed operation fails the run).
	MaxErrorRatio float64
	// Warnings and Notes are set-up messages for the user: properties of
	// other drivers that are ignored, Java properties that have no effect.
	Warnings []string
	Notes    []string

	set        *props.Set
	driverKeys []props.Key
	job        engine.Job
	db         drivers.DB
	ownDB      bool
	runner     *engine.Runner
	ran        bool
}

// Job returns the kind's job, for its own accessors (a dfsio summary, the
// producer's acknowledged bytes).
func (p *Plan) Job() engine.Job { return p.job }

// Threads returns the number of workers the run will start.
func (p *Plan) Threads() int { return p.runner.Threads() }

// Total returns the operations the run will do (0 = unbounded).
func (p *Plan) Total() int64 { return p.runner.Total() }

// Done returns the operations completed so far; safe while Run runs.
func (p *Plan) Done() int64 { return p.runner.Done() }

// WithLog sets where the run writes warnings and notices (YCSB prints
// these on stderr). Default: nowhere. (The options of [Plan.Run] are the
// engine's; these three are here so that library users need not import
// engine.)
func WithLog(w io.Writer) engine.Option { return engine.WithLog(w) }

// OnInterval calls fn with every measurement interval, cut every d, on the
// run's collector goroutine (fn must not block for long).
func OnInterval(d time.Duration, fn func(*measure.Snapshot)) engine.Option {
	return engine.WithIntervals(d, fn)
}

// WithDrainTimeout bounds how long operations in flight may run after the
// run was asked to stop before they are cancelled and counted as failed
// (default 10 s).
func WithDrainTimeout(d time.Duration) engine.Option { return engine.WithDrainTimeout(d) }

// Run runs the plan once and returns what it measured, even when it also
// returns an error (then the Result covers what ran), except when nothing
// could run: the job's set-up failed or no worker could open a connection
// (then the Result is nil, or has no operations). The error is a
// [*FailedError] when more operations failed than MaxErrorRatio allows.
// Run closes the DB the plan configured (not one given WithDB).
func (p *Plan) Run(ctx context.Context, opts ...engine.Option) (*engine.Result, error) {
	if p.ran {
		return nil, errors.New("workload: a Plan runs once; Prepare another")
	}
	p.ran = true
	res, err := p.runner.Run(ctx, opts...)
	if res != nil {
		if n, ok := p.db.(drivers.Noter); ok {
			res.Notes = append(res.Notes, n.Notes()...)
		}
	}
	if cerr := p.Close(); cerr != nil {
		err = errors.Join(err, fmt.Errorf("closing %s: %w", p.DriverName, cerr))
	}
	if err == nil && res != nil {
		if f, a := res.Failed(), res.Attempted(); f > 0 && float64(f) > p.MaxErrorRatio*float64(a) {
			err = &FailedError{Failed: f, Attempted: a, MaxRatio: p.MaxErrorRatio, First: res.FirstError}
		}
	}
	return res, err
}

// Close releases the DB the plan configured, if it was not run. It is safe
// to call more than once.
func (p *Plan) Close() error {
	if !p.ownDB || p.db == nil {
		return nil
	}
	db := p.db
	p.db, p.ownDB = nil, false
	return db.Close()
}

// FailedError says that more operations failed than gobench.maxerrorratio
// allows.
type FailedError struct {
	Failed, Attempted int64
	MaxRatio          float64
	First             *engine.OpError
}

func (e *FailedError) Error() string {
	msg := fmt.Sprintf("%d of %d operations failed (%.2f %%; gobench.maxerrorratio=%s)", e.Failed, e.Attempted,
		100*float64(e.Failed)/float64(max(e.Attempted, 1)), measure.FormatJavaDouble(e.MaxRatio))
	if e.First != nil {
		msg += "; the first: " + e.First.Error()
	}
	return msg
}

// Setting is one line of the effective configuration.
type Setting struct {
	Key, Value string // the value is redacted when the key names a secret
	Origin     string // "file:line", "-p", "-threads", ... or "default"
}

// Effective lists the effective configuration, sorted by key: every
// property given, and the defaults that decide where the data goes and
// what is measured (the driver, its location, the workload kind, threads,
// the measurement type, the clock), marked "default". Secrets are redacted.
func (p *Plan) Effective() []Setting {
	var out []Setting
	for _, k := range p.set.Keys() {
		v, _ := p.set.Get(k)
		out = append(out, Setting{Key: k, Value: props.Redact(k, v.Value), Origin: v.Where()})
	}
	def := func(k, v string) {
		if _, ok := p.set.Get(k); !ok {
			out = append(out, Setting{Key: k, Value: v, Origin: "default"})
		}
	}
	def("db", p.DriverName)
	def("workload", p.Kind.Name)
	def("threadcount", fmt.Sprint(p.Settings.Threads))
	def("measurementtype", p.Output.MeasurementType)
	def("measurement.interval", p.Settings.MeasurementInterval)
	def("gobench.clock", p.Settings.ClockInUse())
	for _, k := range append(append([]props.Key{}, p.driverKeys...), p.Kind.Keys...) {
		if k.Show {
			def(k.Name, k.Default)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Config returns the effective configuration as key/value pairs, secrets
// redacted, with the seed, for the JSON result document.
func (p *Plan) Config() map[string]string {
	m := map[string]string{}
	for _, s := range p.Effective() {
		if s.Origin != "default" {
			m[s.Key] = s.Value
		}
	}
	m["gobench.seed"] = fmt.Sprint(p.Settings.Seed)
	return m
}

// SeedGiven reports whether gobench.seed was set (else it was drawn).
func (p *Plan) SeedGiven() bool {
	_, ok := p.set.Get("gobench.seed")
	return ok
}

// Props returns the properties the plan was prepared from.
func (p *Plan) Props() *props.Set { return p.set }
