package measure

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Configuration keys of a result document that [Merge] reads: the client's
// number and the number of clients of a multi-process run.
const (
	ClientKey  = "gobench.client"
	ClientsKey = "gobench.clients"
)

// MinCommon and WarnOverlap are fractions of the union of the clients' time
// spans (the merged run's RunTime). The merged throughput is computed over
// the common window only when that covers at least MinCommon of the union,
// and over the union otherwise; below WarnOverlap [Merge] warns that the
// clients did not run together.
const (
	MinCommon   = 0.5
	WarnOverlap = 0.9
)

// perClientKeys differ between the clients of one run by design, so Merge
// does not warn when they do.
var perClientKeys = map[string]bool{ClientKey: true, "exportfile": true, "gobench.seed": true, "gobench.prometheus": true, "label": true, "hdrhistogram.output.path": true}

// ThroughputWindow names the span a merged throughput is computed over.
type ThroughputWindow string

const (
	// CommonWindow is the window in which every client ran.
	CommonWindow ThroughputWindow = "common"
	// UnionWindow is the span from the first client's start to the last
	// one's end.
	UnionWindow ThroughputWindow = "union"
)

// ClientTotal decodes the k-th client's own total snapshot (Merge does not
// keep them: a thousand clients' histograms would take gigabytes).
func (m *Merged) ClientTotal(k int) (*Snapshot, error) {
	t, err := m.Docs[k].Total()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Labels[k], err)
	}
	return t, nil
}

// Span is a time span; it is empty when End is not after Start.
type Span struct {
	Start, End time.Time
}

// Duration is End - Start, zero or negative when the span is empty.
func (s Span) Duration() time.Duration { return s.End.Sub(s.Start) }

// Merged is the merge of several result documents, the clients of one
// multi-process run, made by [Merge].
type Merged struct {
	// Docs are the merged documents and Labels their labels (file names),
	// in the order given.
	Docs   []*Document
	Labels []string
	// Names are the clients' names: gobench.client from each document's
	// configuration, else its label.
	Names []string
	// Total is their exact merge (histograms, sums, return codes), spanning
	// Union.
	Total *Snapshot
	// Union runs from the first start to the last end; Common is the window
	// in which every client ran (empty when they did not overlap).
	Union, Common Span
	// Throughput is ops/s over Window (see [Merge]), which spans Measured.
	Throughput float64
	Window     ThroughputWindow
	Measured   Span
	// Late and Early are the clients (indexes into Docs) that started
	// late or ended early (see [Merge]); Missing the client numbers of
	// gobench.clients without a document (see [MissingClients]).
	Late, Early, Missing []int
	// Shift is what was added to each client's interval times to align
	// them by its own start (see [SkewBound]); 0 for a client that keeps
	// its clock's times.
	Shift []time.Duration
	// Intervals are the clients' intervals merged into wall-clock bins (see
	// [BinIntervals]) as wide as the first client's typical interval.
	Intervals []IntervalRecord
	// Warnings name what makes the merge doubtful: the clients' own
	// warnings, a client merged twice, configurations that differ, a
	// gobench.clients that does not match, clients that did not run
	// together.
	Warnings []string
	// ClientSaturated is set when any client may have limited its own run.
	ClientSaturated bool
}

// Merge merges result documents of the clients of one run; labels (file
// names, say) name them in warnings and errors, nil labels them by index.
// The documents are not modified. It holds one decoded total and one
// decoded interval per bin at a time, besides the documents themselves.
//
// Totals and intervals merge exactly. The throughput is computed over one
// of two windows, named in [Merged.Window]:
//
//   - the common window, in which every client ran, when it covers at least
//     [MinCommon] of the union: the operations of each client's intervals
//     inside it (an interval straddling an edge counts pro rata; a client
//     without intervals counts as one interval over its run) divided by its
//     length. This is the system's throughput under the clients' joint
//     load.
//   - the live window, when some clients started late or ended early
//     (by more than 10% of the union, or [SkewBound]: killed, stopped, out
//     of work, or started long after the others) and the others, that ran
//     throughout, shared a window of at least [MinCommon] of the union: the
//     operations of every client inside that window (pro rata, as above)
//     divided by its length. A client that died halfway then does not
//     halve the window the system was measured over, and its operations
//     before it died still count.
//   - the union, from the first start to the last end, otherwise (the
//     clients ran apart, or together for less than half the span): every
//     operation divided by its length, as a single run over that span
//     would report.
//
// The merged intervals are binned by wall clock, each client's aligned by
// its own start when that is within [SkewBound] of the first client's (see
// there). Documents of different phases (dotransactions) or workload kinds
// are refused; different gobench versions or configurations, a client
// number merged twice, and missing client numbers are warned about.
//
// The rule bounds the figure: the common window's is at most 1/MinCommon
// (twice) the operations over the union, so clients that ran one after the
// other can never add up to a figure orders of magnitude above what the
// system did (summing the clients' own throughputs would). The union is
// chosen rather than a sum over the windows each client ran for the same
// reason: it counts each second of wall time once.
func Merge(docs []*Document, labels []string) (*Merged, error) {
	if len(docs) == 0 {
		return nil, errors.New("merge: no result documents")
	}
	if labels == nil {
		labels = make([]string, len(docs))
		for k := range labels {
			labels[k] = "document " + strconv.Itoa(k)
		}
	}
	if len(labels) != len(docs) {
		return nil, fmt.Errorf("merge: %d labels for %d documents", len(labels), len(docs))
	}
	if err := checkMergeable(docs, labels); err != nil {
		return nil, err
	}
	m := &Merged{Docs: docs, Labels: labels, Names: make([]string, len(docs))}
	for k, d := range docs {
		t, err := d.Total()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", labels[k], err)
		}
		m.Names[k] = labels[k]
		if c, ok := d.Config[ClientKey]; ok {
			m.Names[k] = c
		}
		if k == 0 {
			m.Total = t
			m.Union = Span{d.Start, d.End}
			m.Common = m.Union
		} else if err := m.Total.Merge(t); err != nil {
			return nil, fmt.Errorf("merge %s: %w", labels[k], err)
		}
		if d.Start.Before(m.Union.Start) {
			m.Union.Start = d.Start
		}
		if d.End.After(m.Union.End) {
			m.Union.End = d.End
		}
		if d.Start.After(m.Common.Start) {
			m.Common.Start = d.Start
		}
		if d.End.Before(m.Common.End) {
			m.Common.End = d.End
		}
		for _, w := range d.Warnings {
			m.Warnings = append(m.Warnings, fmt.Sprintf("client %s: %s", m.Names[k], w))
		}
		m.ClientSaturated = m.ClientSaturated || d.ClientSaturated
	}
	m.Total.Start, m.Total.End = m.Union.Start, m.Union.End
	seen := map[string]string{}
	for k, name := range m.Names {
		if other, dup := seen[name]; dup && name != labels[k] {
			m.Warnings = append(m.Warnings, fmt.Sprintf("%s and %s both say %s=%s: the same client merged twice?", other, labels[k], ClientKey, name))
		}
		seen[name] = labels[k]
	}
	m.Warnings = append(m.Warnings, ConfigWarnings(docs, labels)...)
	m.Missing = MissingClients(docs)
	m.classifyClients()
	ivs, err := mergeIntervals(docs, labels, m.Union.Start, m.Union.End, m.Shift)
	if err != nil {
		return nil, err
	}
	m.Intervals = ivs
	common, union := m.Common.Duration(), m.Union.Duration()
	if len(m.Late)+len(m.Early) > 0 {
		if w, live := m.liveWindow(); live > 0 && w.Duration() > 0 && overlap(w.Duration(), union) >= MinCommon {
			m.Throughput, m.Window, m.Measured = commonThroughput(docs, w), LiveWindow, w
			m.Warnings = append(m.Warnings, fmt.Sprintf("the throughput is over the %v in which the %d clients that ran throughout all ran (the live window; the others' operations inside it count), not over the %v in which every client ran", w.Duration().Round(time.Millisecond), live, max(common, 0).Round(time.Millisecond)))
			return m, nil
		}
	}
	if len(docs) > 1 {
		switch ov := overlap(common, union); {
		case common <= 0:
			m.Warnings = append(m.Warnings, fmt.Sprintf("the clients' time spans do not overlap (union %v): they did not run together; the throughput is over the union (all operations / the merged span), not the system's under their joint load", union.Round(time.Millisecond)))
		case ov < MinCommon:
			m.Warnings = append(m.Warnings, fmt.Sprintf("the clients ran together for only %.0f%% of the merged span (common window %v of %v): the throughput is over the union (all operations / the merged span), not the common window", 100*ov, common.Round(time.Millisecond), union.Round(time.Millisecond)))
		case ov < WarnOverlap:
			m.Warnings = append(m.Warnings, fmt.Sprintf("the clients ran together for only %.0f%% of the merged span (common window %v of %v): the throughput is over the common window", 100*ov, common.Round(time.Millisecond), union.Round(time.Millisecond)))
		}
	}
	if common > 0 && overlap(common, union) >= MinCommon {
		m.Throughput, m.Window, m.Measured = commonThroughput(docs, m.Common), CommonWindow, m.Common
	} else {
		m.Throughput, m.Window, m.Measured = finiteOrZero(float64(m.Total.Ops)/union.Seconds()), UnionWindow, m.Union
	}
	return m, nil
}

// ConfigWarnings names the settings in which the documents' effective
// configurations differ (other than those that differ per client by
// design: gobench.client, exportfile, gobench.seed, ...), the gobench
// versions when they differ, and a gobench.clients that does not match the
// number of documents (with the client numbers missing, when every
// document names its own). labels name the documents.
func ConfigWarnings(docs []*Document, labels []string) []string {
	var out []string
	keys := map[string]bool{}
	for _, d := range docs {
		for k := range d.Config {
			keys[k] = true
		}
	}
	var diff []string
	for k := range keys {
		if perClientKeys[k] {
			continue
		}
		v0, ok0 := docs[0].Config[k]
		for i, d := range docs[1:] {
			if v, ok := d.Config[k]; v != v0 || ok != ok0 {
				diff = append(diff, fmt.Sprintf("%s (%s: %q, %s: %q)", k, labels[0], v0, labels[i+1], v))
				break
			}
		}
	}
	slices.Sort(diff)
	if len(diff) > 0 {
		out = append(out, "the clients ran different configurations: "+strings.Join(diff, "; "))
	}
	if w := VersionWarning(docs, labels); w != "" {
		out = append(out, w)
	}
	if n, ok := docs[0].Config[ClientsKey]; ok && n != strconv.Itoa(len(docs)) {
		w := fmt.Sprintf("%s=%s but %d result files merged", ClientsKey, n, len(docs))
		if miss := MissingClients(docs); len(miss) > 0 {
			s := make([]string, len(miss))
			for i, c := range miss {
				s[i] = strconv.Itoa(c)
			}
			w += ": no result from client " + listSome(s)
		}
		out = append(out, w)
	}
	return out
}

// overlap is the fraction of union that common covers (1 for an empty
// union).
func overlap(common, union time.Duration) float64 {
	if union <= 0 {
		return 1
	}
	return max(float64(common), 0) / float64(union)
}

// commonThroughput is the throughput over win, a non-empty window (see
// [Merge]).
func commonThroughput(docs []*Document, win Span) float64 {
	var ops float64
	for _, doc := range docs {
		if len(doc.Intervals) == 0 {
			ops += proRata(doc.Ops, Span{doc.Start, doc.End}, win)
			continue
		}
		for _, iv := range doc.Intervals {
			ops += proRata(iv.Ops, Span{iv.Start, iv.End}, win)
		}
	}
	return ops / win.Duration().Seconds()
}

// proRata is the share of ops, done evenly over s, that falls inside win.
func proRata(ops int64, s, win Span) float64 {
	d := s.Duration()
	lo, hi := s.Start, s.End
	if win.Start.After(lo) {
		lo = win.Start
	}
	if win.End.Before(hi) {
		hi = win.End
	}
	if d <= 0 || !hi.After(lo) {
		return 0
	}
	return float64(ops) * float64(hi.Sub(lo)) / float64(d)
}

// maxMergedBins bounds the intervals of a merged document.
const maxMergedBins = 2000

// mergeIntervals merges the documents' intervals into wall-clock bins as
// wide as the first document's typical interval, from t0, decoding one
// interval at a time; shift[k] is added to the times of document k's
// intervals.
func mergeIntervals(docs []*Document, labels []string, t0, end time.Time, shift []time.Duration) ([]IntervalRecord, error) {
	if len(docs[0].Intervals) == 0 {
		return nil, nil
	}
	width := typicalRecordWidth(docs[0].Intervals).Round(time.Millisecond)
	if width <= 0 {
		width = time.Second
	}
	// At most maxMergedBins bins over the union span, however short the
	// clients' intervals and however far apart they ran: each bin holds a
	// whole snapshot until the end.
	if minW := (end.Sub(t0) / maxMergedBins).Round(time.Millisecond); width < minW {
		width = minW
	}
	b, err := newBinner(t0, width)
	if err != nil {
		return nil, err
	}
	for k, d := range docs {
		for i := range d.Intervals {
			s, err := d.Intervals[i].Snapshot(d.Layout)
			if err != nil {
				return nil, fmt.Errorf("%s: result: %w", labels[k], err)
			}
			s.Start, s.End = s.Start.Add(shift[k]), s.End.Add(shift[k])
			if err := b.add(s); err != nil {
				return nil, fmt.Errorf("bin intervals: run %d: %w", k, err)
			}
		}
	}
	bins := b.bins()
	out := make([]IntervalRecord, len(bins))
	for i, s := range bins {
		out[i] = EncodeInterval(s)
	}
	return out, nil
}
