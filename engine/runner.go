package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/measure"
)

// Runner runs a Job against a driver's DB under Settings. Build it with
// [New], then call [Runner.Run] once. Its progress accessors are safe to call
// from other goroutines while it runs.
type Runner struct {
	set    Settings
	db     drivers.DB
	job    Job
	series *SeriesMap
	coll   *measure.Collector
	recs   []*measure.Recorder // one per worker, when there are few workers
	pool   *measure.Pool       // claimed per operation, when there are many
	opts   options

	threads int     // after Java's clamp to the op count
	quota   []int64 // per-thread op counts (0 = unbounded)
	tick    time.Duration

	done     []paddedCount // operations completed (warm-up included), one slot per recorder
	measured atomic.Bool   // warm-up is over
	stopping atomic.Bool   // no more operations may start
	first    firstError
	noFine   sync.Once // warned that a worker has no fine timer (pacer.go)
	fine     fineSet   // the paced workers' fine timers, woken by a stop

	// The open loop (Settings.Arrival): the arrival process, and when its
	// arrivals began (time since the run's base).
	arr    *arrivals
	origin time.Duration
}

// Option configures a run.
type Option func(*options)

type options struct {
	log        io.Writer
	onInterval func(*measure.Snapshot)
	interval   time.Duration
	drain      time.Duration
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

// New checks the settings and lays out the measurements of job. It opens
// no connection.
func New(set Settings, job Job, db drivers.DB) (*Runner, error) {
	if err := set.Validate(); err != nil {
		return nil, err
	}
	set = set.withSeed()
	r := &Runner{set: set, db: db, job: job}
	r.series = NewSeriesMap(job.Ops(), job.Extra(), &r.set)

	total := set.Ops
	r.threads = set.Threads
	if total > 0 && int64(r.threads) > total {
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
	switch {
	case set.OpenLoop():
		r.arr = newArrivals(&r.set)
	case set.Target > 0:
		// Java: per-thread rate = target / threadcount (original count).
		r.tick = time.Duration(float64(time.Second) * float64(set.Threads) / set.Target)
	}
	// With no more workers than a few per CPU, each worker has a recorder
	// of its own, written without atomic adds. With more, the workers share
	// a pool of that many, claiming one for each operation's measurements
	// (two atomic instructions, where a recorder shared through atomic adds
	// cost five to seven and most of them contended: 24 % of the CPU at
	// 1000 threads on the basic driver; bench/README.md). Memory stays
	// bounded whatever the thread count.
	nrec := min(r.threads, 4*runtime.GOMAXPROCS(0))
	r.coll = measure.NewCollector(r.series.Layout(), measure.Options{Buckets: set.Buckets, Raw: set.Raw})
	r.done = make([]paddedCount, nrec)
	if nrec == r.threads {
		r.recs = make([]*measure.Recorder, nrec)
		for i := range r.recs {
			r.recs[i] = r.coll.NewSingleWriterRecorder()
		}
	} else {
		r.pool = r.coll.NewPool(nrec)
	}
	return r, nil
}

// Settings returns the effective settings (with the seed filled in).
func (r *Runner) Settings() Settings { return r.set }

// Job returns the job the runner drives.
func (r *Runner) Job() Job { return r.job }

// Threads returns the number of workers after Java's clamp to the op count.
func (r *Runner) Threads() int { return r.threads }

// Done returns the operations completed so far, the warm-up's included.
func (r *Runner) Done() int64 {
	var n int64
	for i := range r.done {
		n += r.done[i].n.Load()
	}
	return n
}

// Total returns the operations the run will do (0 = unbounded).
func (r *Runner) Total() int64 {
	if r.arr != nil {
		return r.arr.limit
	}
	var t int64
	for _, q := range r.quota {
		if q == 0 {
			return 0
		}
		t += q
	}
	return t
}

// Run executes the job once. A cancelled ctx stops the run gracefully:
// workers finish their operation in flight (bounded by the drain timeout)
// and the Result covers what ran. Run returns an error with a nil Result
// when the job's set-up failed, and an error with the Result when no worker
// could open a connection.
func (r *Runner) Run(ctx context.Context, opts ...Option) (*Result, error) {
	r.opts = options{log: io.Discard, drain: 10 * time.Second, interval: time.Second}
	for _, f := range opts {
		f(&r.opts)
	}
	s := &r.set
	for _, w := range r.job.Warnings() {
		fmt.Fprintf(r.opts.log, "Warning: %s\n", w)
	}
	if r.threads < s.Threads {
		fmt.Fprintf(r.opts.log, "Warning: the threadcount is bigger than the operation count, the threadcount will be %d!\n", r.threads)
	}
	if pr, ok := r.db.(drivers.Preparer); ok {
		if err := pr.Prepare(ctx); err != nil {
			return nil, fmt.Errorf("set-up: %w", err)
		}
	}
	if su, ok := r.job.(SetUpper); ok {
		if err := r.setUp(ctx, su); err != nil {
			return nil, err
		}
	}
	tsc := clockFor(s)
	base, baseNano := time.Now(), nanotime()
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
			r.stopping.Store(true)
			close(stop)
			r.fine.stop()
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
	// An open loop's arrivals begin once every worker is ready (connection
	// open, task made), so that set-up is not counted as queueing.
	var ready sync.WaitGroup
	begin := make(chan struct{})
	var open []openStats
	if r.arr != nil {
		open = make([]openStats, r.threads)
		ready.Add(r.threads)
		go func() {
			ready.Wait()
			r.origin = time.Duration(nanotime() - baseNano)
			close(begin)
		}()
	}
	for i := 0; i < r.threads; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			isReady := false
			setReady := func() {
				if r.arr != nil && !isReady {
					isReady = true
					ready.Done()
				}
			}
			defer setReady()
			conn, err := r.db.Open(opCtx)
			if err != nil {
				openMu.Lock()
				openErrs = append(openErrs, fmt.Errorf("worker %d: open: %w", id, err))
				openMu.Unlock()
				return
			}
			m := &Meter{t: r.series, base: baseNano, tsc: tsc, first: &r.first}
			if r.pool != nil {
				m.pool = r.pool
			} else {
				m.rec = r.recs[id]
			}
			task, err := r.job.NewTask(id, conn, generatorRand(s.Seed, id), m)
			if err == nil && r.arr != nil {
				setReady()
				select {
				case <-begin:
					r.openLoop(opCtx, id, task, m, &r.done[id%len(r.done)], stop, &open[id])
				case <-stop:
				}
			} else if err == nil {
				r.loop(opCtx, id, task, m, &r.done[id%len(r.done)], r.quota[id], stop)
			}
			if err == nil {
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
		// Each cut and the warm-up's end are stamped with the clock read
		// when they happen, not with the time a timer's channel carries:
		// that is when the timer was due, and a collector that waited for
		// a CPU (1000 busy workers on 2 CPUs: seconds) or for a slow
		// onInterval receives it late. A cut swaps the recorders at once,
		// so what it holds is what was recorded until now; stamped with
		// the due time, a status line said "2 sec: 170232249 operations;
		// 161202989.99 current ops/sec" at 8 M ops/s.
		for {
			select {
			case <-warm:
				now := time.Now()
				r.coll.Reset(now)
				measureStart = now
				r.measured.Store(true)
			case <-tick:
				if r.measured.Load() {
					r.opts.onInterval(r.coll.Cut(time.Now()))
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
	// The last cut is stamped when it is made, after the collector has
	// stopped: the collector may have cut once more after end (a tick
	// between the workers' end and allDone), and an interval must not end
	// before it starts.
	last := r.coll.Cut(time.Now())
	if r.opts.onInterval != nil {
		r.opts.onInterval(last)
	}
	doStop("")
	total := r.coll.Total()
	res := &Result{
		Settings: r.set, Threads: r.threads, Start: measureStart, RunTime: end.Sub(measureStart),
		Ops: total.Ops, Snapshot: total, Stopped: stopped.Load().(string), OpenErrors: openErrs, OpNames: r.job.Ops(),
		FirstError: r.first.p.Load(),
	}
	if r.arr != nil {
		<-begin // every worker has been ready (or failed): origin is set
		res.OpenLoop = r.openResult(open, end.Sub(base), measureStart.Sub(base), r.opts.log)
	}
	if len(openErrs) == r.threads {
		return res, &OpenError{Workers: r.threads, Errs: openErrs}
	}
	return res, nil
}

// setUp runs the job's SetUp on a connection of its own.
func (r *Runner) setUp(ctx context.Context, su SetUpper) error {
	conn, err := r.db.Open(ctx)
	if err != nil {
		return fmt.Errorf("set-up: open: %w", err)
	}
	err = su.SetUp(ctx, conn, r.opts.log)
	return errors.Join(err, conn.Close(ctx))
}

// OpenError says that no worker could open a connection (or make its task),
// so nothing ran. Its message gives each distinct cause once.
type OpenError struct {
	Workers int
	Errs    []error // one per worker, "worker N: open: <cause>"
}

func (e *OpenError) Error() string {
	var causes []string
	seen := map[string]int{}
	for _, err := range e.Errs {
		msg := err.Error()
		if _, rest, ok := strings.Cut(msg, ": "); ok && strings.HasPrefix(msg, "worker ") {
			msg = rest // drop "worker N: "
		}
		if _, dup := seen[msg]; !dup {
			causes = append(causes, msg)
		}
		seen[msg]++
	}
	if len(causes) == 1 {
		return fmt.Sprintf("no worker could open a connection (%d of %d failed alike): %s", len(e.Errs), e.Workers, causes[0])
	}
	return fmt.Sprintf("no worker could open a connection (%d distinct causes): %s", len(causes), strings.Join(causes, "; "))
}

// Unwrap returns the workers' errors.
func (e *OpenError) Unwrap() []error { return e.Errs }
