package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/workload"
)

// bench is `gobench load` and `gobench run`.
func bench(ctx context.Context, phase workload.Phase, args []string, stdout, stderr io.Writer) error {
	f := newBenchFlags(phase.String())
	f.set.SetOutput(io.Discard)
	if err := f.parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, usageText)
			return nil
		}
		return err
	}
	cfg, err := buildConfig(f, phase, stdout)
	if err != nil {
		return err
	}
	spec := cfg.spec

	fmt.Fprintf(stderr, "Command line: %s\n", strings.Join(args, " "))
	fmt.Fprintf(stderr, "gobench %s (YCSB %s phase, db %s)\n\n", version, spec.Phase, cfg.dbName)
	for _, w := range cfg.warns {
		fmt.Fprintf(stderr, "Warning: %s\n", w)
	}
	for _, n := range spec.Notes {
		fmt.Fprintf(stderr, "Note: %s\n", n)
	}

	st := newStatus(stderr, &spec)
	var intervals []measure.IntervalRecord
	if spec.Exporter == "json" {
		// The result document carries every interval (for plots and merges).
		if st.cut > time.Second {
			st.cut = time.Second
		}
		st.hooks = append(st.hooks, func(iv *measure.Snapshot) { intervals = append(intervals, measure.EncodeInterval(iv)) })
	}
	if cfg.promAddr != "" && st.cut > time.Second {
		st.cut = time.Second // live metrics every second
	}
	if spec.HdrFileOutput {
		logs := measure.NewHDRLogs(func(series string) (io.WriteCloser, error) {
			return os.Create(measure.HDRLogFileName(spec.HdrOutputPath, series))
		})
		defer func() {
			if err := logs.Close(); err != nil {
				fmt.Fprintf(stderr, "Warning: hdrhistogram.fileoutput: %v\n", err)
			}
		}()
		var logErr error
		st.hooks = append(st.hooks, func(iv *measure.Snapshot) {
			if err := logs.Write(iv); err != nil && logErr == nil {
				logErr = err
				fmt.Fprintf(stderr, "Warning: hdrhistogram.fileoutput: %v\n", err)
			}
		})
	}
	opts := []workload.Option{workload.WithLog(stderr), workload.WithIntervals(st.cut, st.interval)}
	r, err := workload.NewRunner(spec, cfg.db, opts...)
	if err != nil {
		return configErr(err)
	}
	spec = r.Spec()
	st.total = r.Total()
	fmt.Fprintln(stderr, "Effective configuration:")
	for _, l := range cfg.effective() {
		fmt.Fprintln(stderr, l)
	}
	seedNote := "given"
	if _, ok := cfg.set.Get("gobench.seed"); !ok {
		seedNote = "random; add -p gobench.seed=" + fmt.Sprint(spec.Seed) + " to repeat this run"
	}
	fmt.Fprintf(stderr, "  gobench.seed=%d   (%s)\n", spec.Seed, seedNote)
	if spec.DataIntegrity {
		fmt.Fprintln(stderr, "Data integrity is enabled.")
	}
	fmt.Fprintln(stderr, "Loading workload...")
	fmt.Fprintln(stderr, "Starting test.")

	obs, err := startObservers(spec.Target, cfg.promAddr, stderr)
	if err != nil {
		cfg.db.Close()
		return configErr(err)
	}
	defer obs.Close()
	st.hooks = append(st.hooks, obs.Interval)

	gc0 := measure.ReadGCStats()
	st.start(time.Now())
	stopProgress := startProgress(stderr, r, spec.Status)
	res, runErr := r.Run(ctx)
	stopProgress()
	if n, ok := cfg.db.(drivers.Noter); ok {
		for _, note := range n.Notes() {
			fmt.Fprintln(stderr, note)
		}
	}
	if cerr := cfg.db.Close(); cerr != nil {
		fmt.Fprintf(stderr, "Warning: closing %s: %v\n", cfg.dbName, cerr)
	}
	if res == nil {
		return runErr
	}
	for _, e := range res.OpenErrors {
		fmt.Fprintf(stderr, "Error: %v\n", e)
	}
	switch res.Stopped {
	case "interrupted":
		fmt.Fprintln(stderr, "Run interrupted: the report covers the operations that ran.")
	}
	verdict := obs.Finish(res.Snapshot.Ops, res.RunTime)
	gc := measure.ReadGCStats().Sub(gc0)
	lines := measure.Lines(res.Snapshot, measure.LineOptions{
		RunTime: res.RunTime, Percentiles: spec.Percentiles, Type: measureType(spec),
		Granularity: spec.TimeseriesGranularity, GC: &gc,
	})
	var doc *measure.Document
	if spec.Exporter == "json" {
		cfgMap := map[string]string{}
		for _, k := range cfg.set.Keys() {
			v, _ := cfg.set.Get(k)
			cfgMap[k] = v.Value
		}
		cfgMap["gobench.seed"] = fmt.Sprint(spec.Seed)
		doc, err = measure.NewDocument(res.Snapshot, measure.DocumentOptions{
			Config: cfgMap, Seed: spec.Seed, RunTime: res.RunTime, Percentiles: spec.Percentiles, Intervals: intervals,
		})
		if err != nil {
			return err
		}
		doc.ClientSaturated = verdict.Saturated
		if verdict.Saturated {
			doc.Warnings = append(doc.Warnings, verdict.String())
		}
	}
	if err := writeReport(spec, lines, doc, stdout); err != nil {
		return err
	}
	return runErr
}

func measureType(s workload.Spec) measure.Type {
	if s.MeasurementType == "timeseries" {
		return measure.TimeSeries
	}
	return measure.HdrHistogram
}

// writeReport writes the final report with the chosen exporter, to stdout or
// to exportfile (written to a temporary file first, so a failed run never
// leaves half a report behind).
func writeReport(s workload.Spec, lines []measure.Line, doc *measure.Document, stdout io.Writer) error {
	write := func(w io.Writer) error {
		switch s.Exporter {
		case "json":
			return measure.WriteDocument(w, doc)
		case "jsonarray":
			return measure.WriteJSONArray(w, lines)
		}
		return measure.WriteText(w, lines)
	}
	if s.ExportFile == "" {
		return write(stdout)
	}
	tmp := s.ExportFile + ".tmp"
	fh, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("exportfile: %w", err)
	}
	if err := write(fh); err != nil {
		fh.Close()
		os.Remove(tmp)
		return fmt.Errorf("exportfile %s: %w", s.ExportFile, err)
	}
	if err := fh.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("exportfile %s: %w", s.ExportFile, err)
	}
	return os.Rename(tmp, s.ExportFile)
}

// status prints YCSB's -s status lines from the runner's intervals.
type status struct {
	w       io.Writer
	spec    *workload.Spec
	cut     time.Duration // how often the runner cuts intervals
	every   time.Duration // how often a status line is printed
	total   int64
	mu      sync.Mutex
	t0      time.Time
	last    time.Time
	ops     int64
	prevOps int64
	pending *measure.Snapshot
	hooks   []func(*measure.Snapshot) // HDR logs, result intervals
}

func newStatus(w io.Writer, s *workload.Spec) *status {
	st := &status{w: w, spec: s, every: s.StatusInterval, cut: s.StatusInterval}
	if s.MeasurementType == "timeseries" && s.TimeseriesGranularity < st.cut {
		st.cut = s.TimeseriesGranularity
	}
	return st
}

func (st *status) start(now time.Time) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.t0, st.last = now, now
	if st.spec.Status {
		st.print(now, measure.NewSnapshot(measure.Layout{}, now, now))
	}
}

// interval receives every interval the runner cuts.
func (st *status) interval(iv *measure.Snapshot) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, h := range st.hooks {
		h(iv)
	}
	st.ops += iv.Ops
	if st.pending == nil {
		st.pending = iv.Clone()
	} else if err := st.pending.Merge(iv); err != nil {
		st.pending = iv.Clone()
	}
	if !st.spec.Status || iv.End.Sub(st.last) < st.every-st.cut/2 && st.ops != st.total {
		return
	}
	st.print(iv.End, st.pending)
	st.pending = nil
}

func (st *status) print(now time.Time, iv *measure.Snapshot) {
	remaining := int64(0)
	if st.total > 0 {
		remaining = st.total - st.ops
	}
	line := measure.StatusLine{
		Label: st.spec.Label, Now: now, Elapsed: now.Sub(st.t0), Ops: st.ops, PrevOps: st.prevOps,
		Interval: now.Sub(st.last), Remaining: remaining, Type: measureType(*st.spec),
	}
	measure.WriteStatus(st.w, line, iv)
	st.prevOps, st.last = st.ops, now
}
