package workload

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/measure"
)

// Runner runs one phase of a workload against a driver's DB. Build it with
// [New], then call [Runner.Run] once. Its progress accessors are safe to call
// from other goroutines while it runs.
type Runner struct {
	spec   Spec
	db     drivers.DB
	job    Job
	series *Series
	coll   *measure.Collector
	recs   []*measure.Recorder // shared round-robin by workers
	opts   options

	threads int     // after Java's clamp to the op count
	quota   []int64 // per-thread op counts (0 = unbounded)
	tick    time.Duration

	done     []paddedCount // measured operations completed, one slot per recorder
	start    atomic.Int64  // unix ns when measuring began
	measured atomic.Bool   // warm-up is over
}

// Option configures a Runner.
type Option func(*options)

type options struct {
	log        io.Writer
	onInterval func(*measure.Snapshot)
	interval   time.Duration
	drain      time.Duration
	recorders  int
}

// WithLog sets where the runner writes warnings and notices (YCSB prints
// these on stderr). The default discards them.
func WithLog(w io.Writer) Option { return func(o *options) { o.log = w } }

// WithIntervals calls fn with every measurement interval, cut every d (the
// status line, HDR logs and live metrics are fed from it). fn runs on the
// runner's collector goroutine and must not block for long.
func WithIntervals(d time.Duration, fn func(*measure.Snapshot)) Option {
	return func(o *options) { o.interval, o.onInterval = d, fn }
}

// WithDrainTimeout bounds how long operations still in flight may run after
// the run was asked to stop (time limit, cancelled context) before their
// context is cancelled and they count as failed. Default 10 s.
func WithDrainTimeout(d time.Duration) Option { return func(o *options) { o.drain = d } }

// New checks spec and builds YCSB's core workload (the generators) for it.
// It opens no connection.
func New(spec Spec, db drivers.DB, opts ...Option) (*Runner, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	spec = withSeed(spec.ClientSlice())
	c, err := newCore(&spec)
	if err != nil {
		return nil, err
	}
	r, err := NewJob(spec, c, db, opts...)
	if err != nil {
		return nil, err
	}
	c.spec = &r.spec
	return r, nil
}

func withSeed(s Spec) Spec {
	if !s.SeedSet {
		s.Seed, s.SeedSet = rand.Uint64(), true
	}
	return s
}

// NewJob makes a Runner for any Job (dfsio, produce, consume, or a caller's
// own) with spec's driver, pacing and measurement settings; the op count is
// spec.TotalOps().
func NewJob(spec Spec, job Job, db drivers.DB, opts ...Option) (*Runner, error) {
	o := options{log: io.Discard, drain: 10 * time.Second, interval: time.Second}
	for _, f := range opts {
		f(&o)
	}
	spec = withSeed(spec)
	r := &Runner{spec: spec, db: db, job: job, opts: o}
	r.series = NewSeries(job.Ops(), job.Extra(), &r.spec)
	for _, w := range job.Warnings() {
		fmt.Fprintf(o.log, "Warning: %s\n", w)
	}

	total := spec.TotalOps()
	r.threads = spec.Threads
	if total > 0 && int64(r.threads) > total {
		fmt.Fprintf(o.log, "Warning: the threadcount is bigger than recordcount, the threadcount will be recordcount!\n")
		r.threads = int(total)
	}
	r.quota = make([]int64, r.threads)
	if total > 0 {
		for i := range r.quota {
			r.quota[i] = total / int64(r.threads)
			if int64(i) < total%int64(r.threads) {
				r.quota[i]++
			}
		}
	}
	if spec.Target > 0 {
		// Java: per-thread rate = target / threadcount (original count).
		r.tick = time.Duration(float64(time.Second) * float64(spec.Threads) / spec.Target)
	}
	// Recorders are shared by workers (they are multi-writer and
	// lock-free); a few per CPU keep contention low and memory bounded
	// whatever the thread count.
	nrec := o.recorders
	if nrec <= 0 {
		nrec = min(r.threads, 4*runtime.GOMAXPROCS(0))
	}
	r.coll = measure.NewCollector(r.series.Layout(), measure.Options{})
	r.done = make([]paddedCount, nrec)
	r.recs = make([]*measure.Recorder, nrec)
	for i := range r.recs {
		r.recs[i] = r.coll.NewRecorder()
	}
	return r, nil
}

// Spec returns the effective spec (with the seed filled in).
func (r *Runner) Spec() Spec { return r.spec }

// Threads returns the number of workers after Java's clamp to the op count.
func (r *Runner) Threads() int { return r.threads }

// Done returns the operations completed so far in the measured part.
func (r *Runner) Done() int64 {
	var n int64
	for i := range r.done {
		n += r.done[i].n.Load()
	}
	return n
}

// Total returns the operations the run will do (0 = unbounded).
func (r *Runner) Total() int64 {
	var t int64
	for _, q := range r.quota {
		if q == 0 {
			return 0
		}
		t += q
	}
	return t
}

// Result is what a run measured.
type Result struct {
	Spec     Spec
	Threads  int
	Start    time.Time
	RunTime  time.Duration // measured part: after warm-up until all workers ended
	Ops      int64         // operations completed (YCSB's count for throughput)
	Snapshot *measure.Snapshot
	// Stopped says why the run ended early: "" (completed),
	// "maxexecutiontime", or "interrupted" (the context was cancelled).
	Stopped string
	// OpenErrors are errors opening connections (those workers did no work).
	OpenErrors []error
}

// Throughput returns operations per second over RunTime.
func (r *Result) Throughput() float64 {
	if r.RunTime <= 0 {
		return 0
	}
	return float64(r.Ops) / r.RunTime.Seconds()
}

// Run executes the phase. A cancelled ctx stops the run gracefully: workers
// finish their operation in flight (bounded by the drain timeout) and the
// Result covers what ran. Run returns an error only when nothing could run
// (every connection failed to open).
func (r *Runner) Run(ctx context.Context) (*Result, error) {
	s := &r.spec
	base := time.Now()
	// stop asks workers to issue no more operations; opCtx cancels the
	// operations in flight once the drain timeout has passed.
	stop := make(chan struct{})
	opCtx, cancelOps := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelOps()
	var stopOnce sync.Once
	var stopped atomic.Value
	stopped.Store("")
	doStop := func(why string) {
		stopOnce.Do(func() {
			stopped.Store(why)
			close(stop)
			time.AfterFunc(r.opts.drain, cancelOps)
		})
	}
	go func() {
		select {
		case <-ctx.Done():
			doStop("interrupted")
		case <-stop:
		}
	}()

	measureStart := base
	if s.Warmup <= 0 {
		r.measured.Store(true)
	}
	r.start.Store(base.UnixNano())
	if s.MaxExecutionTime > 0 {
		t := time.AfterFunc(s.Warmup+s.MaxExecutionTime, func() {
			fmt.Fprintln(r.opts.log, "Maximum time elapsed. Requesting stop for the workload.")
			doStop("maxexecutiontime")
		})
		defer t.Stop()
	}

	var wg sync.WaitGroup
	var openMu sync.Mutex
	var openErrs []error
	for i := 0; i < r.threads; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			conn, err := r.db.Open(opCtx)
			if err != nil {
				openMu.Lock()
				openErrs = append(openErrs, fmt.Errorf("worker %d: open: %w", id, err))
				openMu.Unlock()
				return
			}
			m := &Meter{t: r.series, rec: r.recs[id%len(r.recs)], base: base}
			task, err := r.job.NewTask(id, conn, generatorRand(s.Seed, id), m)
			if err == nil {
				r.loop(opCtx, task, m, &r.done[id%len(r.done)], r.quota[id], stop)
				if tc, ok := task.(TaskCloser); ok {
					if err := tc.Close(opCtx); err != nil {
						fmt.Fprintf(r.opts.log, "Warning: worker %d: %v\n", id, err)
					}
				}
			} else {
				openMu.Lock()
				openErrs = append(openErrs, fmt.Errorf("worker %d: %w", id, err))
				openMu.Unlock()
			}
			cstart := m.Now()
			m.intended, m.on = cstart, true
			if err := conn.Close(opCtx); err != nil {
				m.Count(r.series.cleanup, drivers.Classify(err))
			}
			m.Sample(r.series.cleanup, cstart)
		}(i)
	}

	// The collector: ends warm-up and cuts intervals.
	collDone := make(chan struct{})
	allDone := make(chan struct{})
	go func() {
		defer close(collDone)
		var tick <-chan time.Time
		if r.opts.onInterval != nil && r.opts.interval > 0 {
			t := time.NewTicker(r.opts.interval)
			defer t.Stop()
			tick = t.C
		}
		var warm <-chan time.Time
		if s.Warmup > 0 {
			wt := time.NewTimer(s.Warmup)
			defer wt.Stop()
			warm = wt.C
		}
		for {
			select {
			case now := <-warm:
				r.coll.Reset(now)
				for i := range r.done {
					r.done[i].n.Store(0)
				}
				measureStart = now
				r.start.Store(now.UnixNano())
				r.measured.Store(true)
			case now := <-tick:
				if r.measured.Load() {
					r.opts.onInterval(r.coll.Cut(now))
				}
			case <-allDone:
				return
			}
		}
	}()
	wg.Wait()
	end := time.Now()
	close(allDone)
	<-collDone
	last := r.coll.Cut(end)
	if r.opts.onInterval != nil {
		r.opts.onInterval(last)
	}
	doStop("")
	res := &Result{
		Spec: r.spec, Threads: r.threads, Start: measureStart, RunTime: end.Sub(measureStart),
		Ops: r.Done(), Snapshot: r.coll.Total(), Stopped: stopped.Load().(string), OpenErrors: openErrs,
	}
	if len(openErrs) == r.threads {
		return res, fmt.Errorf("no worker could open a connection: %w", errors.Join(openErrs...))
	}
	return res, nil
}
