package measure

import (
	"fmt"
	"math"
	"slices"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Snapshot holds what was recorded between Start and End: per series a
// latency histogram and return-code counts, plus the number of completed
// operations. [Collector.Cut] returns one per interval and [Collector.Total]
// the merge of all of them. A Snapshot is plain data: it is not safe for
// concurrent mutation, and the collector never touches one after returning
// it.
type Snapshot struct {
	Layout Layout
	Start  time.Time
	End    time.Time
	// Ops is the number of operations reported with [Recorder.Done].
	Ops int64
	// Series is indexed like Layout.Series.
	Series []Series
	// Seen lists the series that have had a sample or a return code, in the
	// order they first appeared (Java's map insertion order, used to break
	// ties in the report's block order). In an interval it covers the whole
	// run so far, so the status line can show series idle in that interval.
	Seen []int
}

// Series is one measurement's data in a [Snapshot]. Latencies are in
// microseconds.
type Series struct {
	// Hist is the latency histogram in microseconds; nil when the series
	// has no samples.
	Hist *hdrhistogram.Histogram
	// SumMicros is the exact sum of the samples; MinMicros and MaxMicros are
	// the exact extremes. All three are 0 when there are no samples.
	SumMicros int64
	MinMicros int64
	MaxMicros int64
	// Codes counts return codes reported against this series, indexed like
	// Layout.Codes.
	Codes []int64
	// Windows has one entry per interval in which the series had samples,
	// in time order (the data behind measurementtype=timeseries).
	Windows []Window
	// Buckets and SumSquares are set when the collector counted 1 ms
	// buckets ([Options].Buckets, measurementtype=histogram): Buckets[i]
	// counts the samples of i ms up to i+1 ms (exclusive), the last entry
	// those beyond; SumSquares is the sum of the squared samples (µs²).
	Buckets    []int64
	SumSquares float64
	// Raw holds every sample in the order recorded, in a collector's total
	// with [Options].Raw (measurementtype=raw). Treat it as read-only: clones
	// share it.
	Raw []RawSample
}

// Window is the sample count and exact latency sum of one series in one
// interval.
type Window struct {
	Start     time.Time `json:"start"`
	End       time.Time `json:"end"`
	Count     int64     `json:"count"`
	SumMicros int64     `json:"sum_us"`
}

// Count returns the number of latency samples.
func (s *Series) Count() int64 {
	if s.Hist == nil {
		return 0
	}
	return s.Hist.TotalCount()
}

// Active reports whether the series has a sample or a return code.
func (s *Series) Active() bool {
	if s.Count() > 0 {
		return true
	}
	for _, n := range s.Codes {
		if n != 0 {
			return true
		}
	}
	return false
}

// Mean returns the histogram mean in microseconds computed the way Java's
// HdrHistogram does (each bucket weighted at its median-equivalent value),
// and false when there are no samples.
func (s *Series) Mean() (float64, bool) {
	n := s.Count()
	if n == 0 {
		return 0, false
	}
	var total float64
	for _, b := range s.Hist.Distribution() {
		if b.Count != 0 {
			median := b.From + (b.To-b.From+1)>>1
			total += float64(median) * float64(b.Count)
		}
	}
	return total / float64(n), true
}

// Percentile returns the histogram value at percentile p (0-100) in
// microseconds, computed as Java's HdrHistogram 2.1.12 (used by YCSB
// master) does: the highest value equivalent to the sample of rank
// ⌈p/100 × count⌉ (with p lowered by one ulp), or the lowest equivalent
// value for p = 0. It is 0 when there are no samples. hdrhistogram-go's
// ValueAtPercentile rounds the rank to nearest instead, which can differ.
func (s *Series) Percentile(p float64) int64 {
	return s.Percentiles([]float64{p})[0]
}

// Percentiles returns [Series.Percentile] for each of ps in one pass.
func (s *Series) Percentiles(ps []float64) []int64 {
	out := make([]int64, len(ps))
	n := s.Count()
	if n == 0 {
		return out
	}
	ranks := make([]int64, len(ps))
	for i, p := range ps {
		req := math.Min(math.Max(math.Nextafter(p, math.Inf(-1)), 0), 100)
		ranks[i] = max(javaLong(math.Ceil(req/100*float64(n))), 1)
	}
	done := 0
	var cum int64
	for _, b := range s.Hist.Distribution() {
		if b.Count == 0 {
			continue
		}
		cum += b.Count
		for i, r := range ranks {
			if r > 0 && cum >= r {
				if ps[i] == 0 {
					out[i] = b.From
				} else {
					out[i] = b.To
				}
				ranks[i] = 0
				done++
			}
		}
		if done == len(ps) {
			break
		}
	}
	return out
}

// Min and Max return the histogram's extremes (bucket-equivalent values, as
// Java's getMinValue and getMaxValue), 0 when there are no samples.
func (s *Series) Min() int64 {
	if s.Count() == 0 {
		return 0
	}
	return s.Hist.Min()
}

// Max: see [Series.Min].
func (s *Series) Max() int64 {
	if s.Count() == 0 {
		return 0
	}
	return s.Hist.Max()
}

// NewSnapshot returns an empty snapshot for layout l covering start..end.
func NewSnapshot(l Layout, start, end time.Time) *Snapshot {
	s := &Snapshot{Layout: l.clone(), Start: start, End: end, Series: make([]Series, len(l.Series))}
	for i := range s.Series {
		s.Series[i].Codes = make([]int64, len(l.Codes))
	}
	return s
}

// Lookup returns the series called name, or nil.
func (s *Snapshot) Lookup(name string) *Series {
	if i := s.Layout.SeriesIndex(name); i >= 0 {
		return &s.Series[i]
	}
	return nil
}

// Clone returns a deep copy of s.
func (s *Snapshot) Clone() *Snapshot {
	c := NewSnapshot(s.Layout, s.Start, s.End)
	c.Ops = s.Ops
	c.Seen = slices.Clone(s.Seen)
	for i := range s.Series {
		src, dst := &s.Series[i], &c.Series[i]
		if src.Hist != nil {
			dst.Hist = src.Hist.Clone()
		}
		dst.SumMicros, dst.MinMicros, dst.MaxMicros = src.SumMicros, src.MinMicros, src.MaxMicros
		copy(dst.Codes, src.Codes)
		dst.Windows = slices.Clone(src.Windows)
		dst.Buckets = slices.Clone(src.Buckets)
		dst.SumSquares = src.SumSquares
		// Shared, with the capacity cut so that an append to either copy
		// reallocates instead of writing into the other's array.
		dst.Raw = src.Raw[:len(src.Raw):len(src.Raw)]
	}
	return c
}

// Merge adds o into s, matching series and codes by name; names s lacks are
// appended to its layout. Histograms merge exactly, so snapshots from several
// processes (or several intervals) add up to the snapshot of their union.
// Windows with the same start are combined. The time span becomes the union
// of both. It fails if a histogram of o holds values outside s's range.
func (s *Snapshot) Merge(o *Snapshot) error {
	seriesMap := make([]int, len(o.Layout.Series))
	for i, name := range o.Layout.Series {
		j := s.Layout.SeriesIndex(name)
		if j < 0 {
			j = len(s.Layout.Series)
			s.Layout.Series = append(s.Layout.Series, name)
			s.Series = append(s.Series, Series{Codes: make([]int64, len(s.Layout.Codes))})
		}
		seriesMap[i] = j
	}
	codeMap := make([]int, len(o.Layout.Codes))
	for i, name := range o.Layout.Codes {
		j := s.Layout.CodeIndex(name)
		if j < 0 {
			j = len(s.Layout.Codes)
			s.Layout.Codes = append(s.Layout.Codes, name)
			for k := range s.Series {
				s.Series[k].Codes = append(s.Series[k].Codes, 0)
			}
		}
		codeMap[i] = j
	}
	for i := range o.Series {
		if err := s.Series[seriesMap[i]].merge(&o.Series[i], codeMap); err != nil {
			return fmt.Errorf("merge series %q: %w", o.Layout.Series[i], err)
		}
	}
	for _, i := range o.Seen {
		if j := seriesMap[i]; !slices.Contains(s.Seen, j) {
			s.Seen = append(s.Seen, j)
		}
	}
	if s.Start.IsZero() || (!o.Start.IsZero() && o.Start.Before(s.Start)) {
		s.Start = o.Start
	}
	if o.End.After(s.End) {
		s.End = o.End
	}
	s.Ops += o.Ops
	return nil
}

func (s *Series) merge(o *Series, codeMap []int) error {
	for c, n := range o.Codes {
		s.Codes[codeMap[c]] += n
	}
	if o.Count() > 0 {
		if s.Count() == 0 {
			s.MinMicros, s.MaxMicros = o.MinMicros, o.MaxMicros
		} else {
			s.MinMicros = min(s.MinMicros, o.MinMicros)
			s.MaxMicros = max(s.MaxMicros, o.MaxMicros)
		}
		s.SumMicros += o.SumMicros
		s.SumSquares += o.SumSquares
		if o.Buckets != nil {
			if len(s.Buckets) < len(o.Buckets) {
				s.Buckets = append(s.Buckets, make([]int64, len(o.Buckets)-len(s.Buckets))...)
			}
			for i, n := range o.Buckets {
				s.Buckets[i] += n
			}
		}
		if len(o.Raw) > 0 {
			s.Raw = append(s.Raw[:len(s.Raw):len(s.Raw)], o.Raw...)
		}
		if s.Hist == nil {
			s.Hist = o.Hist.Clone()
		} else if dropped := s.Hist.Merge(o.Hist); dropped != 0 {
			return fmt.Errorf("%d samples beyond the histogram range of %d µs", dropped, s.Hist.HighestTrackableValue())
		}
	}
	s.Windows = mergeWindows(s.Windows, o.Windows)
	return nil
}

// mergeWindows returns a and b merged in start order, combining windows that
// start at the same instant.
func mergeWindows(a, b []Window) []Window {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 || a[len(a)-1].Start.Before(b[0].Start) {
		return append(a, b...) // common case: the next interval
	}
	all := append(slices.Clone(a), b...)
	slices.SortStableFunc(all, func(x, y Window) int { return x.Start.Compare(y.Start) })
	out := all[:1]
	for _, w := range all[1:] {
		last := &out[len(out)-1]
		if w.Start.Equal(last.Start) {
			last.Count += w.Count
			last.SumMicros += w.SumMicros
			if w.End.After(last.End) {
				last.End = w.End
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

// exactMean returns SumMicros/Count, NaN when there are no samples (as
// Java's 0.0/0.0).
func (s *Series) exactMean() float64 {
	n := s.Count()
	if n == 0 {
		return math.NaN()
	}
	return float64(s.SumMicros) / float64(n)
}
