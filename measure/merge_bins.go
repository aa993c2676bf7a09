package measure

import (
	"fmt"
	"slices"
	"time"
)

// BinIntervals merges the interval snapshots of several runs (the clients
// of one multi-process run) into wall-clock bins of the given width from
// t0: each interval goes whole to the bin holding its midpoint, so
// operation counts and histograms add up exactly while times are aligned
// to within half an interval. It returns the non-empty bins in time order,
// each spanning exactly its bin. The first snapshot of each bin is merged
// into and returned; pass clones to keep the inputs. width must be > 0.
func BinIntervals(runs [][]*Snapshot, t0 time.Time, width time.Duration) ([]*Snapshot, error) {
	b, err := newBinner(t0, width)
	if err != nil {
		return nil, err
	}
	for r, ivs := range runs {
		for _, s := range ivs {
			if err := b.add(s); err != nil {
				return nil, fmt.Errorf("bin intervals: run %d: %w", r, err)
			}
		}
	}
	return b.bins(), nil
}

// TypicalWidth returns the median length of the intervals, 0 for none.
func TypicalWidth(ivs []*Snapshot) time.Duration {
	w := make([]time.Duration, len(ivs))
	for i, iv := range ivs {
		w[i] = iv.End.Sub(iv.Start)
	}
	return median(w)
}

// typicalRecordWidth is [TypicalWidth] of encoded intervals.
func typicalRecordWidth(ivs []IntervalRecord) time.Duration {
	w := make([]time.Duration, len(ivs))
	for i := range ivs {
		w[i] = ivs[i].End.Sub(ivs[i].Start)
	}
	return median(w)
}

func median(w []time.Duration) time.Duration {
	if len(w) == 0 {
		return 0
	}
	slices.Sort(w)
	return w[len(w)/2]
}

// binner is [BinIntervals] one interval at a time, so a merge holds one
// decoded interval per bin rather than every client's intervals at once.
type binner struct {
	t0    time.Time
	width time.Duration
	m     map[int64]*Snapshot
}

func newBinner(t0 time.Time, width time.Duration) (*binner, error) {
	if width <= 0 {
		return nil, fmt.Errorf("bin intervals: width %v, want > 0", width)
	}
	return &binner{t0: t0, width: width, m: map[int64]*Snapshot{}}, nil
}

// add puts s into the bin holding its midpoint; the first snapshot of a
// bin becomes the bin and later ones are merged into it.
func (b *binner) add(s *Snapshot) error {
	mid := s.Start.Add(s.End.Sub(s.Start) / 2)
	d := mid.Sub(b.t0)
	k := int64(d / b.width)
	if d < 0 && d%b.width != 0 {
		k-- // floor for intervals before t0
	}
	if bin, ok := b.m[k]; ok {
		return bin.Merge(s)
	}
	b.m[k] = s
	return nil
}

// bins returns the non-empty bins in time order, each spanning its bin.
func (b *binner) bins() []*Snapshot {
	keys := make([]int64, 0, len(b.m))
	for k := range b.m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]*Snapshot, 0, len(keys))
	for _, k := range keys {
		s := b.m[k]
		s.Start, s.End = b.t0.Add(time.Duration(k)*b.width), b.t0.Add(time.Duration(k+1)*b.width)
		out = append(out, s)
	}
	return out
}
