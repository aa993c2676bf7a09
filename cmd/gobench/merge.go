package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/props"
	rep "github.com/gobench/gobench/report"
)

func init() {
	commands["merge"] = command{"combine the JSON results of several client processes into one report", mergeCmd}
}

// minOverlap is the fraction of the union of the clients' time spans their
// common window must cover; below it merge warns that the clients did not
// run together and the throughput figure means little.
const minOverlap = 0.9

// jobIndexEnv is set by Kubernetes in the pods of an Indexed Job.
const jobIndexEnv = "JOB_COMPLETION_INDEX"

// addJobIndex gives gobench.client the value of JOB_COMPLETION_INDEX when
// that is set, gobench.clients is given and gobench.client is not, so an
// Indexed Job's pods need no per-pod arguments. (Without gobench.clients
// the index is ignored: a single-process run that happens to run in an
// Indexed Job stays client 0 of 1.) The value is decoded and checked like
// any other; its origin reads "JOB_COMPLETION_INDEX".
func addJobIndex(l *props.Layers, getenv func(string) string) {
	if _, _, ok := l.Origin("gobench.client"); ok {
		return
	}
	if _, _, ok := l.Origin("gobench.clients"); !ok {
		return
	}
	if v := getenv(jobIndexEnv); v != "" {
		l.Add(props.LayerOverride, props.Value{Key: "gobench.client", Value: v, Source: jobIndexEnv})
	}
}

// mergeResult is the union of several clients' results.
type mergeResult struct {
	clients []*clientResult
	total   *measure.Snapshot
	// union is the span from the first start to the last end; common is
	// the window in which every client ran (zero or negative when they did
	// not overlap).
	unionStart, unionEnd   time.Time
	commonStart, commonEnd time.Time
	// throughput is ops/s over the common window (see mergeResults).
	throughput float64
	intervals  []measure.IntervalRecord
	warnings   []string
}

func (m *mergeResult) union() time.Duration  { return m.unionEnd.Sub(m.unionStart) }
func (m *mergeResult) common() time.Duration { return m.commonEnd.Sub(m.commonStart) }

// mergeResults merges the clients' totals exactly (histograms, sums, return
// codes), finds the common window and computes the throughput over it: the
// operations of each client's intervals inside the window (an interval
// straddling an edge counts pro rata) divided by its length; without
// intervals, the sum of the clients' own throughputs.
func mergeResults(cs []*clientResult) (*mergeResult, error) {
	if len(cs) == 0 {
		return nil, errors.New("no result files")
	}
	m := &mergeResult{clients: cs, total: cs[0].total.Clone()}
	m.unionStart, m.unionEnd = cs[0].doc.Start, cs[0].doc.End
	m.commonStart, m.commonEnd = m.unionStart, m.unionEnd
	for k, c := range cs {
		if k > 0 {
			if err := m.total.Merge(c.total); err != nil {
				return nil, fmt.Errorf("merge %s: %w", c.path, err)
			}
		}
		if c.doc.Start.Before(m.unionStart) {
			m.unionStart = c.doc.Start
		}
		if c.doc.End.After(m.unionEnd) {
			m.unionEnd = c.doc.End
		}
		if c.doc.Start.After(m.commonStart) {
			m.commonStart = c.doc.Start
		}
		if c.doc.End.Before(m.commonEnd) {
			m.commonEnd = c.doc.End
		}
		for _, w := range c.extra.Warnings {
			m.warnings = append(m.warnings, fmt.Sprintf("client %s: %s", c.name, w))
		}
	}
	m.total.Start, m.total.End = m.unionStart, m.unionEnd
	seen := map[string]string{}
	for _, c := range cs {
		if other, dup := seen[c.name]; dup && c.name != c.path {
			m.warnings = append(m.warnings, fmt.Sprintf("%s and %s both say gobench.client=%s: the same client merged twice?", other, c.path, c.name))
		}
		seen[c.name] = c.path
	}
	m.warnings = append(m.warnings, configWarnings(cs)...)
	if len(cs) > 1 {
		switch ov := overlap(m.common(), m.union()); {
		case m.common() <= 0:
			m.warnings = append(m.warnings, fmt.Sprintf("the clients' time spans do not overlap (union %v): they did not run together, so the merged throughput is not the system's", m.union().Round(time.Millisecond)))
		case ov < minOverlap:
			m.warnings = append(m.warnings, fmt.Sprintf("the clients ran together for only %.0f%% of the merged span (common window %v of %v): the throughput is over the common window", 100*ov, m.common().Round(time.Millisecond), m.union().Round(time.Millisecond)))
		}
	}
	m.throughput = commonThroughput(cs, m.commonStart, m.commonEnd)
	ivs, err := mergeIntervals(cs, m.unionStart)
	if err != nil {
		return nil, err
	}
	m.intervals = ivs
	return m, nil
}

// perClientKeys differ between the clients of one run by design.
var perClientKeys = map[string]bool{"gobench.client": true, "exportfile": true, "gobench.seed": true, "gobench.prometheus": true, "label": true, "hdrhistogram.output.path": true}

// configWarnings names the settings in which the clients' effective
// configurations differ (other than perClientKeys), and a gobench.clients
// that does not match the number of files.
func configWarnings(cs []*clientResult) []string {
	var out []string
	keys := map[string]bool{}
	for _, c := range cs {
		for k := range c.doc.Config {
			keys[k] = true
		}
	}
	var diff []string
	for k := range keys {
		if perClientKeys[k] {
			continue
		}
		v0, ok0 := cs[0].doc.Config[k]
		for _, c := range cs[1:] {
			if v, ok := c.doc.Config[k]; v != v0 || ok != ok0 {
				diff = append(diff, fmt.Sprintf("%s (%s: %q, %s: %q)", k, cs[0].path, v0, c.path, v))
				break
			}
		}
	}
	sort.Strings(diff)
	if len(diff) > 0 {
		out = append(out, "the clients ran different configurations: "+strings.Join(diff, "; "))
	}
	if n, ok := cs[0].doc.Config["gobench.clients"]; ok && n != strconv.Itoa(len(cs)) {
		out = append(out, fmt.Sprintf("gobench.clients=%s but %d result files merged", n, len(cs)))
	}
	return out
}

func overlap(common, union time.Duration) float64 {
	if union <= 0 {
		return 1
	}
	return max(float64(common), 0) / float64(union)
}

// commonThroughput is described at mergeResults.
func commonThroughput(cs []*clientResult, start, end time.Time) float64 {
	win := end.Sub(start)
	var ops float64
	for _, c := range cs {
		if len(c.doc.Intervals) == 0 || win <= 0 {
			return sumThroughput(cs)
		}
		for _, iv := range c.doc.Intervals {
			d := iv.End.Sub(iv.Start)
			lo, hi := maxTime(iv.Start, start), minTime(iv.End, end)
			if d <= 0 || !hi.After(lo) {
				continue
			}
			ops += float64(iv.Ops) * float64(hi.Sub(lo)) / float64(d)
		}
	}
	return ops / win.Seconds()
}

func sumThroughput(cs []*clientResult) float64 {
	var t float64
	for _, c := range cs {
		t += c.doc.Throughput
	}
	return t
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// mergeIntervals merges the clients' intervals into wall-clock bins as wide
// as the first client's typical interval (report.BinIntervals), from t0.
func mergeIntervals(cs []*clientResult, t0 time.Time) ([]measure.IntervalRecord, error) {
	runs := make([][]*measure.Snapshot, len(cs))
	for k, c := range cs {
		snaps, err := c.doc.IntervalSnapshots()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.path, err)
		}
		runs[k] = snaps
	}
	if len(runs[0]) == 0 {
		return nil, nil
	}
	width := measure.TypicalWidth(runs[0]).Round(time.Millisecond)
	if width <= 0 {
		width = time.Second
	}
	bins, err := measure.BinIntervals(runs, t0, width)
	if err != nil {
		return nil, err
	}
	out := make([]measure.IntervalRecord, len(bins))
	for i, b := range bins {
		out[i] = measure.EncodeInterval(b)
	}
	return out, nil
}

// lines returns the YCSB report of the merge: RunTime is the union span,
// Throughput the common-window throughput; extra OVERALL lines give the
// number of clients and the common window.
func (m *mergeResult) lines() []measure.Line {
	first := m.clients[0].doc
	typ := measure.HdrHistogram
	if first.Config["measurementtype"] == "timeseries" {
		typ = measure.TimeSeries
	}
	lines := measure.Lines(m.total, measure.LineOptions{
		RunTime: m.union(), Percentiles: first.Percentiles, Type: typ,
		Extra: []measure.Line{
			{Metric: "OVERALL", Measurement: "Clients", Value: measure.Int(int64(len(m.clients)))},
			{Metric: "OVERALL", Measurement: "CommonWindow(ms)", Value: measure.Int(max(m.common().Milliseconds(), 0))},
		},
	})
	for i := range lines {
		if lines[i].Metric == "OVERALL" && lines[i].Measurement == "Throughput(ops/sec)" {
			lines[i].Value = measure.Float(m.throughput)
		}
	}
	return lines
}

// document returns the merged result document.
func (m *mergeResult) document() (*measure.Document, error) {
	first := m.clients[0].doc
	cfg := map[string]string{}
	for k, v := range first.Config {
		cfg[k] = v
	}
	delete(cfg, "gobench.client")
	delete(cfg, "exportfile")
	cfg["gobench.clients"] = strconv.Itoa(len(m.clients))
	doc, err := measure.NewDocument(m.total, measure.DocumentOptions{
		Config: cfg, Seed: first.Seed, RunTime: m.union(), Percentiles: first.Percentiles, Intervals: m.intervals,
	})
	if err != nil {
		return nil, err
	}
	doc.Throughput = m.throughput
	return doc, nil
}

// writeClientTable writes one row per client and one for the merge.
func (m *mergeResult) writeClientTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "client\tops\tops/s\tp50(us)\tp99(us)\terrors\tfile\t")
	for _, c := range m.clients {
		s := rep.Summarize(c.total)
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%d\t%d\t%d\t%s\t\n", c.name, s.Ops, c.doc.Throughput, s.P50, s.P99, s.Errors, c.path)
	}
	s := rep.Summarize(m.total)
	fmt.Fprintf(tw, "all\t%d\t%.1f\t%d\t%d\t%d\t%s\t\n", s.Ops, m.throughput, s.P50, s.P99, s.Errors, "(merged)")
	return tw.Flush()
}

func mergeCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "", "write the merged result document (JSON) to this file")
	files, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return printUsage(stdout, fs, "gobench merge [-o merged.json] RESULT.json...",
			"Combines the result documents of several client processes (gobench.clients=N, -p exporter=json -p exportfile=PATH)\ninto one YCSB report: histograms merged exactly, throughput over the window in which all clients ran,\nand a table with one row per client.")
	}
	if err != nil {
		return usageErr(fmt.Errorf("merge: %w", err))
	}
	if len(files) == 0 {
		return usageErr(errors.New("merge: give the result files (written with -p exporter=json -p exportfile=PATH)"))
	}
	var cs []*clientResult
	for _, p := range files {
		c, err := readResultFile(p)
		if err != nil {
			return usageErr(fmt.Errorf("merge: %w", err))
		}
		cs = append(cs, c)
	}
	m, err := mergeResults(cs)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	for _, w := range m.warnings {
		fmt.Fprintf(stderr, "Warning: %s\n", w)
	}
	if err := measure.WriteText(stdout, m.lines()); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	if err := m.writeClientTable(stdout); err != nil {
		return err
	}
	if *out != "" {
		doc, err := m.document()
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		if err := writeJSONFile(*out, m.withExtras(doc)); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
	}
	return nil
}

// mergedDocument is the merged result document with the merge's warnings
// and whether any client was saturated (the fields shadow measure.Document's
// own, should it grow them).
type mergedDocument struct {
	*measure.Document
	Warnings        []string `json:"warnings,omitempty"`
	ClientSaturated bool     `json:"client_saturated,omitempty"`
}

func (m *mergeResult) withExtras(doc *measure.Document) *mergedDocument {
	md := &mergedDocument{Document: doc, Warnings: m.warnings}
	for _, c := range m.clients {
		md.ClientSaturated = md.ClientSaturated || c.extra.ClientSaturated
	}
	return md
}

// writeJSONFile writes doc as indented JSON to path through a temporary
// file.
func writeJSONFile(path string, doc any) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}
