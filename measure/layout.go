package measure

import (
	"fmt"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Layout names the measurement series and the return codes a [Collector]
// tracks. Recorders refer to both by index, so the hot path never hashes a
// name. Series are YCSB measurement names ("READ", "READ-FAILED",
// "Intended-READ", "CLEANUP", ...); codes are return-code names ("OK",
// "ERROR", "NOT_FOUND", ...). Names must be unique within each list.
//
// A series whose name starts with [IntendedPrefix] belongs to Java YCSB's
// separate "intended" measurement map and is reported after all other series.
type Layout struct {
	Series []string `json:"series"`
	Codes  []string `json:"codes"`
}

// IntendedPrefix marks the series that hold intended-start latencies
// (measurement.interval=both).
const IntendedPrefix = "Intended-"

// SeriesIndex returns the index of the series called name, or -1.
func (l Layout) SeriesIndex(name string) int { return indexOf(l.Series, name) }

// CodeIndex returns the index of the return code called name, or -1.
func (l Layout) CodeIndex(name string) int { return indexOf(l.Codes, name) }

func indexOf(list []string, name string) int {
	for i, s := range list {
		if s == name {
			return i
		}
	}
	return -1
}

// Validate reports an empty or duplicate name.
func (l Layout) Validate() error {
	for _, list := range []struct {
		what  string
		names []string
	}{{"series", l.Series}, {"code", l.Codes}} {
		for i, n := range list.names {
			if n == "" {
				return fmt.Errorf("layout: %s %d has an empty name", list.what, i)
			}
			if j := indexOf(list.names[:i], n); j >= 0 {
				return fmt.Errorf("layout: %s %q appears twice (indexes %d and %d)", list.what, n, j, i)
			}
		}
	}
	return nil
}

func (l Layout) clone() Layout {
	return Layout{Series: append([]string(nil), l.Series...), Codes: append([]string(nil), l.Codes...)}
}

// Options tune a [Collector]. The zero value gives YCSB's settings: values
// in microseconds from 1 µs to one hour with 3 significant digits.
type Options struct {
	// Highest is the largest latency a histogram tracks exactly; longer
	// samples are recorded as Highest (counted in the bucket of Highest).
	// Zero means one hour. It is rounded down to whole microseconds.
	Highest time.Duration
	// SignificantDigits is the histogram precision, 1 to 5. Zero means 3,
	// as in Java YCSB.
	SignificantDigits int
	// KeepIntervals makes the collector retain every interval in compressed
	// form (see [Collector.Intervals]) for the JSON result document.
	KeepIntervals bool
	// Start is when the first interval begins; zero means time.Now() at
	// NewCollector.
	Start time.Time
	// Buckets, when > 0, makes every series also count its samples in
	// Buckets buckets 1 ms wide plus one overflow bucket and sum their
	// squares, as Java YCSB's measurementtype=histogram does
	// ([Series].Buckets, SumSquares). It costs an atomic add and a
	// compare-and-swap per sample.
	Buckets int
	// Raw keeps every sample with the time it was recorded
	// (measurementtype=raw; [Series].Raw of [Collector.Total] only, not of
	// the intervals). It costs a mutex, a clock read and 16 bytes per
	// sample, and its storage grows (allocates) as samples arrive.
	Raw bool
}

const (
	defaultHighest = time.Hour
	defaultDigits  = 3
)

func (o Options) withDefaults() Options {
	if o.Highest <= 0 {
		o.Highest = defaultHighest
	}
	if o.Highest < 2*time.Microsecond {
		o.Highest = 2 * time.Microsecond
	}
	if o.SignificantDigits <= 0 {
		o.SignificantDigits = defaultDigits
	}
	if o.SignificantDigits > 5 {
		o.SignificantDigits = 5
	}
	return o
}

func (o Options) newHist() *hdrhistogram.Histogram {
	return hdrhistogram.New(1, int64(o.Highest/time.Microsecond), o.SignificantDigits)
}
