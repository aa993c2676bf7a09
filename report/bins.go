package report

import (
	"fmt"
	"slices"
	"time"

	"github.com/gobench/gobench/measure"
)

// BinIntervals merges the interval snapshots of several runs (the clients
// of one multi-process run) into wall-clock bins of the given width from
// t0: each interval goes whole to the bin holding its midpoint, so
// operation counts and histograms add up exactly while times are aligned
// to within half an interval. It returns the non-empty bins in time order,
// each spanning exactly its bin. The first snapshot of each bin is merged
// into and returned; pass clones to keep the inputs. width must be > 0.
func BinIntervals(runs [][]*measure.Snapshot, t0 time.Time, width time.Duration) ([]*measure.Snapshot, error) {
	if width <= 0 {
		return nil, fmt.Errorf("bin intervals: width %v, want > 0", width)
	}
	bins := map[int64]*measure.Snapshot{}
	for r, ivs := range runs {
		for _, s := range ivs {
			mid := s.Start.Add(s.End.Sub(s.Start) / 2)
			d := mid.Sub(t0)
			k := int64(d / width)
			if d < 0 && d%width != 0 {
				k-- // floor for intervals before t0
			}
			if b, ok := bins[k]; ok {
				if err := b.Merge(s); err != nil {
					return nil, fmt.Errorf("bin intervals: run %d: %w", r, err)
				}
				continue
			}
			bins[k] = s
		}
	}
	keys := make([]int64, 0, len(bins))
	for k := range bins {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]*measure.Snapshot, 0, len(keys))
	for _, k := range keys {
		b := bins[k]
		b.Start, b.End = t0.Add(time.Duration(k)*width), t0.Add(time.Duration(k+1)*width)
		out = append(out, b)
	}
	return out, nil
}

// TypicalWidth returns the median length of the intervals, 0 for none.
func TypicalWidth(ivs []*measure.Snapshot) time.Duration {
	if len(ivs) == 0 {
		return 0
	}
	w := make([]time.Duration, len(ivs))
	for i, iv := range ivs {
		w[i] = iv.End.Sub(iv.Start)
	}
	slices.Sort(w)
	return w[len(w)/2]
}
