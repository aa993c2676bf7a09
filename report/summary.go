package report

import (
	"strings"

	"github.com/gobench/gobench/measure"
)

// Summary is one row of a per-client or per-step table: the operations of a
// snapshot taken together.
type Summary struct {
	// Ops is the number of operations completed (Snapshot.Ops).
	Ops int64
	// Samples is the number of latency samples of the operation series
	// (see [IsOperation]).
	Samples int64
	// Errors counts return codes other than OK and BATCHED_OK over the
	// operation series.
	Errors int64
	// P50, P99 and P999 are the latency percentiles in microseconds of
	// all operation series merged (exactly, from their histograms).
	P50, P99, P999 int64
}

// IsOperation reports whether series name holds the latencies of database
// operations: not Java's Intended- twin, nor CLEANUP, VERIFY or
// SCAN-LATENCY-PER-RECORD, which measure something else.
func IsOperation(name string) bool {
	switch name {
	case "CLEANUP", "VERIFY", "SCAN-LATENCY-PER-RECORD":
		return false
	}
	return !strings.HasPrefix(name, measure.IntendedPrefix)
}

// IsError reports whether a return code counts as an error.
func IsError(code string) bool { return code != "OK" && code != "BATCHED_OK" }

// Combined returns the operation series of s merged into one series (nil
// histogram when there are none). s is not modified.
func Combined(s *measure.Snapshot) measure.Series {
	var out measure.Series
	for i := range s.Series {
		src := &s.Series[i]
		if !IsOperation(s.Layout.Series[i]) || src.Count() == 0 {
			continue
		}
		if out.Hist == nil {
			out.Hist = src.Hist.Clone()
			out.MinMicros, out.MaxMicros = src.MinMicros, src.MaxMicros
		} else {
			out.Hist.Merge(src.Hist)
			out.MinMicros = min(out.MinMicros, src.MinMicros)
			out.MaxMicros = max(out.MaxMicros, src.MaxMicros)
		}
		out.SumMicros += src.SumMicros
	}
	return out
}

// Summarize returns the summary of s.
func Summarize(s *measure.Snapshot) Summary {
	sum := Summary{Ops: s.Ops}
	for i := range s.Series {
		if !IsOperation(s.Layout.Series[i]) {
			continue
		}
		for c, n := range s.Series[i].Codes {
			if IsError(s.Layout.Codes[c]) {
				sum.Errors += n
			}
		}
	}
	c := Combined(s)
	sum.Samples = c.Count()
	if sum.Samples > 0 {
		p := c.Percentiles([]float64{50, 99, 99.9})
		sum.P50, sum.P99, sum.P999 = p[0], p[1], p[2]
	}
	return sum
}
