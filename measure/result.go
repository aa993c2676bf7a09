package measure

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"time"
)

// DocumentFormat names the version of the JSON result document; ReadDocument
// refuses other versions.
const DocumentFormat = "gobench-result/1"

// Document is gobench's JSON result document: the effective configuration and
// seed of a run, its time span and throughput, per-series totals with
// percentiles and return codes, and the histograms in compressed form
// (total and, if kept, per interval), so that results of several client
// processes can be merged exactly later (see [Document.Total] and
// [Snapshot.Merge]).
type Document struct {
	Format string `json:"format"`
	// Version is the gobench version that wrote the document (the CLI sets
	// it; empty in documents written before it was recorded). [Merge] warns
	// when the clients' versions differ.
	Version    string            `json:"gobench_version,omitempty"`
	Config     map[string]string `json:"config,omitempty"`
	Seed       uint64            `json:"seed"`
	Start      time.Time         `json:"start"`
	End        time.Time         `json:"end"`
	RunTimeMs  int64             `json:"runtime_ms"`
	Ops        int64             `json:"ops"`
	Throughput float64           `json:"throughput_ops_per_sec"`
	// ThroughputWindow is set in a merged document ([Merged.Document]): the
	// span Throughput is computed over. Empty for one run's document, whose
	// Throughput is over its RunTime.
	ThroughputWindow ThroughputWindow `json:"throughput_window,omitempty"`
	Percentiles      []float64        `json:"percentiles"`
	Layout           Layout           `json:"layout"`
	// Seen lists the series names in the order they first appeared.
	Seen []string `json:"seen,omitempty"`
	// Series has one entry per series with samples or return codes.
	Series    []SeriesDocument `json:"series"`
	Intervals []IntervalRecord `json:"intervals,omitempty"`
	// Warnings are problems gobench noticed about the run itself, such as
	// a client that may have been the bottleneck; empty when none.
	Warnings []string `json:"warnings,omitempty"`
	// ClientSaturated is set when the client itself may have limited the
	// run (its CPU, its run queue, its scheduler or a missed -target).
	ClientSaturated bool `json:"client_saturated,omitempty"`
	// OpenLoop is an open loop's arrival statistics (gobench.arrival); nil
	// for YCSB's closed loop and in a merged document.
	OpenLoop *OpenLoopRecord `json:"open_loop,omitempty"`
}

// OpenLoopRecord is what an open loop measured besides latencies, as the
// report's [OVERALL] lines give it: the arrival process, the rates offered
// and achieved, the operations started, the queue of arrivals waiting for
// a free thread (peak, time mean), the starts more than 1 ms after their
// arrival and the arrivals due that never started.
type OpenLoopRecord struct {
	Arrival   string  `json:"arrival"`
	Offered   float64 `json:"offered_ops_per_sec"`
	Achieved  float64 `json:"achieved_ops_per_sec"`
	Started   int64   `json:"started"`
	PeakQueue int64   `json:"peak_queue"`
	MeanQueue float64 `json:"mean_queue"`
	Late      int64   `json:"started_late"`
	Unstarted int64   `json:"unstarted"`
}

// SeriesDocument is one series of a [Document]: the exact data in the embedded
// [SeriesRecord] plus a readable summary derived from it.
type SeriesDocument struct {
	SeriesRecord
	Operations int64 `json:"operations"`
	// MeanMicros is the histogram mean as in the text report (0 when there
	// are no samples).
	MeanMicros  float64           `json:"mean_us"`
	Percentiles []PercentileValue `json:"percentiles,omitempty"`
	Windows     []Window          `json:"windows,omitempty"`
}

// PercentileValue is a latency percentile: Percentile in 0-100, Micros
// as in the text report.
type PercentileValue struct {
	Percentile float64 `json:"p"`
	Micros     int64   `json:"us"`
}

// DocumentOptions carries what a [Document] holds besides the measurements.
type DocumentOptions struct {
	Config  map[string]string
	Seed    uint64
	RunTime time.Duration
	// Percentiles for the per-series summaries; nil means
	// [DefaultPercentiles].
	Percentiles []float64
	// Intervals, typically [Collector.Intervals].
	Intervals []IntervalRecord
}

// NewDocument builds the result document for the total snapshot of a run.
func NewDocument(total *Snapshot, o DocumentOptions) (*Document, error) {
	pcts := o.Percentiles
	if pcts == nil {
		pcts = DefaultPercentiles
	}
	ms := o.RunTime.Milliseconds()
	r := &Document{
		Format: DocumentFormat, Config: o.Config, Seed: o.Seed,
		Start: total.Start.UTC(), End: total.End.UTC(), RunTimeMs: ms, Ops: total.Ops,
		Throughput:  finiteOrZero(1000 * float64(total.Ops) / float64(ms)),
		Percentiles: append([]float64(nil), pcts...),
		Layout:      total.Layout.clone(),
		Intervals:   o.Intervals,
	}
	for _, i := range total.Seen {
		r.Seen = append(r.Seen, total.Layout.Series[i])
	}
	for i := range total.Series {
		s := &total.Series[i]
		if !s.Active() {
			continue
		}
		h, err := EncodeHistogram(s.Hist)
		if err != nil {
			return nil, fmt.Errorf("result series %q: %w", total.Layout.Series[i], err)
		}
		rec := encodeSeries(total.Layout, i, s)
		rec.Histogram = h
		mean, _ := s.Mean()
		sr := SeriesDocument{SeriesRecord: rec, Operations: s.Count(), MeanMicros: mean}
		if s.Count() > 0 {
			for k, v := range s.Percentiles(pcts) {
				sr.Percentiles = append(sr.Percentiles, PercentileValue{pcts[k], v})
			}
		}
		for _, w := range s.Windows {
			w.Start, w.End = w.Start.UTC(), w.End.UTC()
			sr.Windows = append(sr.Windows, w)
		}
		r.Series = append(r.Series, sr)
	}
	return r, nil
}

func finiteOrZero(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// WriteDocument writes r as indented JSON.
func WriteDocument(w io.Writer, r *Document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	return nil
}

// ReadDocument reads a document written by [WriteDocument]. It checks the
// format version; the histograms are decoded by [Document.Total].
func ReadDocument(rd io.Reader) (*Document, error) {
	var r Document
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("read result: %w", err)
	}
	if r.Format != DocumentFormat {
		return nil, fmt.Errorf("read result: format %q, want %q", r.Format, DocumentFormat)
	}
	return &r, nil
}

// Total decodes the run's total snapshot.
func (r *Document) Total() (*Snapshot, error) {
	snap := NewSnapshot(r.Layout, r.Start, r.End)
	snap.Ops = r.Ops
	for k := range r.Series {
		sr := &r.Series[k]
		i := snap.addSeries(sr.Name)
		if err := sr.decodeInto(snap, i); err != nil {
			return nil, fmt.Errorf("result: %w", err)
		}
		snap.Series[i].Windows = append([]Window(nil), sr.Windows...)
	}
	for _, name := range r.Seen {
		snap.Seen = append(snap.Seen, snap.addSeries(name))
	}
	return snap, nil
}

// IntervalSnapshots decodes the kept intervals, oldest first.
func (r *Document) IntervalSnapshots() ([]*Snapshot, error) {
	out := make([]*Snapshot, 0, len(r.Intervals))
	for k := range r.Intervals {
		s, err := r.Intervals[k].Snapshot(r.Layout)
		if err != nil {
			return nil, fmt.Errorf("result: %w", err)
		}
		out = append(out, s)
	}
	return out, nil
}
