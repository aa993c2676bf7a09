package measure

import (
	"fmt"
	"slices"
	"sync"
	"time"
)

// Collector gathers the samples of all [Recorder]s it handed out. Its
// methods are safe for concurrent use with each other and with the
// recorders; typically one goroutine calls [Collector.Cut] every status or
// time-series interval while the workers record.
type Collector struct {
	layout Layout
	opts   Options
	geom   *geometry

	mu        sync.Mutex
	recorders []*Recorder
	start     time.Time // start of the current interval
	total     *Snapshot
	seen      []bool
	kept      []IntervalRecord
	acc       [][]int64 // per-series scratch counts for one cut
	raw       [][]RawSample
}

// NewCollector returns a collector for layout l whose first interval and
// total start at o.Start (time.Now() if zero). The layout is fixed by the
// program, not by user input, so an invalid one (see [Layout.Validate]) is
// a programming error and panics.
func NewCollector(l Layout, o Options) *Collector {
	if err := l.Validate(); err != nil {
		panic(fmt.Sprintf("measure.NewCollector: %v", err))
	}
	o = o.withDefaults()
	if o.Start.IsZero() {
		o.Start = time.Now()
	}
	g := newGeometry(int64(o.Highest/time.Microsecond), o.SignificantDigits)
	g.msBuckets, g.raw = max(o.Buckets, 0), o.Raw
	c := &Collector{layout: l.clone(), opts: o, geom: &g, acc: make([][]int64, len(l.Series))}
	if o.Raw {
		c.raw = make([][]RawSample, len(l.Series))
	}
	c.resetLocked(o.Start)
	return c
}

// Layout returns a copy of the collector's layout.
func (c *Collector) Layout() Layout { return c.layout.clone() }

// NewRecorder returns a recorder for one or several worker goroutines. It
// may be called while a run is going; the recorder's samples show up from
// the next Cut. Each recorder costs two buffers of lazily allocated
// per-series counts (about 190 KB per series used, for the default range),
// so share recorders among workers when there are many.
func (c *Collector) NewRecorder() *Recorder { return c.newRecorder(recorderShared) }

// NewSingleWriterRecorder returns a recorder that one goroutine at a time
// writes (a worker of its own), cheaper per sample than [Collector.NewRecorder]'s;
// writing it from two goroutines at once is a data race.
func (c *Collector) NewSingleWriterRecorder() *Recorder {
	return c.newRecorder(recorderSingle)
}

// recorderKind is how a recorder's writers are ordered with the collector.
type recorderKind int

const (
	recorderShared recorderKind = iota // atomic adds inside a phaser section
	recorderSingle                     // plain adds inside a phaser section
	recorderPooled                     // plain adds under a Pool's claim
)

func (c *Collector) newRecorder(kind recorderKind) *Recorder {
	r := &Recorder{
		single: kind != recorderShared,
		spare:  newBuffer(c.layout, c.geom),
		geom:   c.geom,
	}
	if kind != recorderPooled {
		r.ph = newPhaser()
	}
	r.active.Store(newBuffer(c.layout, c.geom))
	c.mu.Lock()
	c.recorders = append(c.recorders, r)
	c.mu.Unlock()
	return r
}

// Cut ends the current interval at now: it swaps every recorder's buffers,
// merges what they held into a new interval snapshot, adds that to the
// running total and starts the next interval at now. The returned snapshot
// belongs to the caller.
func (c *Collector) Cut(now time.Time) *Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	iv := c.drainLocked(now)
	for i := range iv.Series {
		s := &iv.Series[i]
		if !c.seen[i] && s.Active() {
			c.seen[i] = true
			c.total.Seen = append(c.total.Seen, i)
		}
		if n := s.Count(); n > 0 {
			s.Windows = []Window{{Start: iv.Start, End: iv.End, Count: n, SumMicros: s.SumMicros}}
		}
	}
	iv.Seen = slices.Clone(c.total.Seen)
	// Same layout on both sides, so Merge cannot fail on names; histograms
	// share one geometry, so nothing is dropped.
	seen := c.total.Seen
	_ = c.total.Merge(iv)
	c.total.Seen = seen
	// Raw samples go to the total only (the intervals would hold a second
	// copy of every sample).
	for i, r := range c.raw {
		if len(r) > 0 {
			c.total.Series[i].Raw = append(c.total.Series[i].Raw, r...)
			c.raw[i] = r[:0]
		}
	}
	c.total.End = now
	if c.opts.KeepIntervals {
		c.kept = append(c.kept, EncodeInterval(iv))
	}
	return iv
}

func (c *Collector) drainLocked(now time.Time) *Snapshot {
	iv := NewSnapshot(c.layout, c.start, now)
	// Start every flip first and wait afterwards, so a worker descheduled
	// inside its critical section delays the cut once, not once per
	// recorder behind it.
	tickets := make([]flipTicket, len(c.recorders))
	for i, r := range c.recorders {
		tickets[i] = r.beginSwap()
	}
	got := make([]bool, len(c.layout.Series))
	for i, r := range c.recorders {
		r.finishSwap(tickets[i]).drainInto(iv, c.acc, got, c.geom, c.raw)
	}
	for i, counts := range c.acc {
		if got[i] {
			iv.Series[i].Hist = c.geom.histogram(counts)
			clear(counts)
		}
	}
	c.start = now
	return iv
}

// Reset discards everything recorded so far (for example at the end of a
// warm-up): the total, the kept intervals and the samples not yet cut. The
// next interval and the total start at now.
func (c *Collector) Reset(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.drainLocked(now)
	for i := range c.raw {
		c.raw[i] = c.raw[i][:0]
	}
	c.resetLocked(now)
}

func (c *Collector) resetLocked(now time.Time) {
	c.start = now
	c.total = NewSnapshot(c.layout, now, now)
	c.seen = make([]bool, len(c.layout.Series))
	c.kept = nil
}

// Total returns a copy of the merge of all intervals cut since the start or
// the last Reset. Samples recorded after the last Cut are not included: cut
// once more at the end of a run.
func (c *Collector) Total() *Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total.Clone()
}

// Intervals returns the intervals kept so far in compressed form, oldest
// first; it is empty unless [Options.KeepIntervals] is set.
func (c *Collector) Intervals() []IntervalRecord {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.kept)
}
