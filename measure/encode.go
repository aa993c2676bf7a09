package measure

import (
	"fmt"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// EncodeHistogram returns h in HdrHistogram's V2 compressed encoding,
// base64-encoded: the form HdrHistogram logs and the Java, C and Go
// libraries exchange. A nil histogram encodes as "".
func EncodeHistogram(h *hdrhistogram.Histogram) (string, error) {
	if h == nil {
		return "", nil
	}
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return "", fmt.Errorf("encode histogram: %w", err)
	}
	return string(b), nil
}

// DecodeHistogram parses the output of [EncodeHistogram]; "" decodes as nil.
func DecodeHistogram(s string) (*hdrhistogram.Histogram, error) {
	if s == "" {
		return nil, nil
	}
	h, err := hdrhistogram.Decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	return h, nil
}

// IntervalRecord is an interval in serializable form, with its histograms
// compressed. Only series with samples or return codes are listed.
type IntervalRecord struct {
	Start  time.Time      `json:"start"`
	End    time.Time      `json:"end"`
	Ops    int64          `json:"ops"`
	Series []SeriesRecord `json:"series,omitempty"`
}

// SeriesRecord is one series of an [IntervalRecord] or of a [Document].
type SeriesRecord struct {
	Name string `json:"name"`
	// Histogram is the latency histogram (µs) in compressed base64 form
	// (see [EncodeHistogram]); empty when there are no samples.
	Histogram string           `json:"histogram,omitempty"`
	SumMicros int64            `json:"sum_us,omitempty"`
	MinMicros int64            `json:"min_us,omitempty"`
	MaxMicros int64            `json:"max_us,omitempty"`
	Codes     map[string]int64 `json:"codes,omitempty"`
}

// EncodeInterval compresses iv. Its histograms come from the collector and
// always encode, so the error of [EncodeHistogram] cannot occur; a histogram
// that fails anyway is left out.
func EncodeInterval(iv *Snapshot) IntervalRecord {
	r := IntervalRecord{Start: iv.Start.UTC(), End: iv.End.UTC(), Ops: iv.Ops}
	for i := range iv.Series {
		if s := &iv.Series[i]; s.Active() {
			r.Series = append(r.Series, encodeSeries(iv.Layout, i, s))
		}
	}
	return r
}

func encodeSeries(l Layout, i int, s *Series) SeriesRecord {
	h, _ := EncodeHistogram(s.Hist)
	rec := SeriesRecord{Name: l.Series[i], Histogram: h, SumMicros: s.SumMicros, MinMicros: s.MinMicros, MaxMicros: s.MaxMicros}
	for c, n := range s.Codes {
		if n != 0 {
			if rec.Codes == nil {
				rec.Codes = make(map[string]int64)
			}
			rec.Codes[l.Codes[c]] = n
		}
	}
	return rec
}

// decodeInto sets series index i of snap from rec, adding code names snap's
// layout lacks.
func (rec *SeriesRecord) decodeInto(snap *Snapshot, i int) error {
	h, err := DecodeHistogram(rec.Histogram)
	if err != nil {
		return fmt.Errorf("series %q: %w", rec.Name, err)
	}
	s := &snap.Series[i]
	s.Hist, s.SumMicros, s.MinMicros, s.MaxMicros = h, rec.SumMicros, rec.MinMicros, rec.MaxMicros
	for name, n := range rec.Codes {
		c := snap.Layout.CodeIndex(name)
		if c < 0 {
			c = len(snap.Layout.Codes)
			snap.Layout.Codes = append(snap.Layout.Codes, name)
			for k := range snap.Series {
				snap.Series[k].Codes = append(snap.Series[k].Codes, 0)
			}
		}
		s.Codes[c] = n
	}
	return nil
}

// Snapshot decodes the record into a snapshot over layout l; series and
// codes l lacks are appended. Each series with samples gets the record's
// interval as its single window, as [Collector.Cut] produces.
func (r *IntervalRecord) Snapshot(l Layout) (*Snapshot, error) {
	snap := NewSnapshot(l, r.Start, r.End)
	snap.Ops = r.Ops
	for k := range r.Series {
		rec := &r.Series[k]
		i := snap.addSeries(rec.Name)
		if err := rec.decodeInto(snap, i); err != nil {
			return nil, fmt.Errorf("interval %s: %w", r.Start.Format(time.RFC3339Nano), err)
		}
		s := &snap.Series[i]
		if n := s.Count(); n > 0 {
			s.Windows = []Window{{Start: r.Start, End: r.End, Count: n, SumMicros: s.SumMicros}}
		}
		snap.Seen = append(snap.Seen, i)
	}
	return snap, nil
}

// addSeries returns the index of the series called name, appending it to
// the layout if needed.
func (s *Snapshot) addSeries(name string) int {
	if i := s.Layout.SeriesIndex(name); i >= 0 {
		return i
	}
	s.Layout.Series = append(s.Layout.Series, name)
	s.Series = append(s.Series, Series{Codes: make([]int64, len(s.Layout.Codes))})
	return len(s.Series) - 1
}
