package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/saturation"
	"github.com/gobench/gobench/workload"
)

// bench is `gobench load` and `gobench run` (chosen: the phase came from
// the command, not Java Client style flags).
func bench(ctx context.Context, phase engine.Phase, chosen bool, args []string, stdout, stderr io.Writer) error {
	plan, warns, err := prepareBench(args, phase, chosen, stdout)
	if errors.Is(err, pflag.ErrHelp) {
		return writeUsage(stdout)
	}
	if err != nil {
		return err
	}
	set := plan.Props()
	fmt.Fprintf(stderr, "Command line: %s\n", strings.Join(redactArgs(args), " "))
	fmt.Fprintf(stderr, "gobench %s (YCSB %s phase, db %s)\n\n", version, plan.Phase, plan.DriverName)
	printSetup(stderr, plan, warns)
	if v, ok := set.Get("dataintegrity"); ok && strings.TrimSpace(v.Value) == "true" {
		fmt.Fprintln(stderr, "Data integrity is enabled.")
	}
	fmt.Fprintln(stderr, "Loading workload...")
	fmt.Fprintln(stderr, "Starting test.")
	o, runErr := execute(ctx, plan, stderr, plan.Output.Exporter == "json")
	if o == nil {
		return runErr
	}
	if err := writeBenchReport(plan, o, stdout); err != nil {
		return err
	}
	return runErr
}

// prepareBench turns load/run arguments into a plan (drivers that print on
// request write to stdout). A configuration error is a usage error (exit
// 2); --help returns pflag.ErrHelp.
func prepareBench(args []string, phase engine.Phase, chosen bool, stdout io.Writer) (*workload.Plan, []string, error) {
	f := newBenchFlags(phase.String())
	f.set.SetOutput(io.Discard)
	if err := f.parse(args); err != nil {
		return nil, nil, err
	}
	set, warns, err := benchLayers(f, phase, chosen)
	if err != nil {
		return nil, nil, err
	}
	plan, err := workload.Prepare(set, workload.WithOutput(stdout))
	if err != nil {
		return nil, nil, configErr(err)
	}
	return plan, warns, nil
}

// printSetup prints the warnings and notes of a plan and its effective
// configuration with the seed.
func printSetup(stderr io.Writer, plan *workload.Plan, warns []string) {
	for _, w := range append(warns, plan.Warnings...) {
		fmt.Fprintf(stderr, "Warning: %s\n", w)
	}
	for _, n := range plan.Notes {
		fmt.Fprintf(stderr, "Note: %s\n", n)
	}
	fmt.Fprintln(stderr, "Effective configuration:")
	for _, s := range plan.Effective() {
		fmt.Fprintf(stderr, "  %s=%s   (%s)\n", s.Key, s.Value, s.Origin)
	}
	seedNote := "given"
	if !plan.SeedGiven() {
		seedNote = fmt.Sprintf("random; add -p gobench.seed=%d to repeat this run", plan.Settings.Seed)
	}
	fmt.Fprintf(stderr, "  gobench.seed=%d   (%s)\n", plan.Settings.Seed, seedNote)
}

// outcome is what execute measured, for the report.
type outcome struct {
	res       *engine.Result
	verdict   saturation.Verdict
	intervals []measure.IntervalRecord // every interval, when asked for
	gc        measure.GCStats          // Go's GC during the run
}

// execute runs plan with the CLI's observers: the -s status line, HDR logs,
// live metrics, the saturation monitor and the live progress line. It
// returns nil when nothing ran (the error says why, once); otherwise the
// outcome, and the run's error (too many failed operations, say), after
// printing what the user must know about failures.
func execute(ctx context.Context, plan *workload.Plan, stderr io.Writer, keepIntervals bool) (*outcome, error) {
	out := plan.Output
	st := newStatus(stderr, &out)
	st.total = plan.Total()
	o := &outcome{}
	if keepIntervals {
		// The result document carries every interval (for plots and merges).
		st.cut = min(st.cut, time.Second)
		st.hooks = append(st.hooks, func(iv *measure.Snapshot) { o.intervals = append(o.intervals, measure.EncodeInterval(iv)) })
	}
	if out.Prometheus != "" {
		st.cut = min(st.cut, time.Second) // live metrics every second
	}
	if out.HdrFileOutput {
		logs := measure.NewHDRLogs(func(series string) (io.WriteCloser, error) {
			return os.Create(measure.HDRLogFileName(out.HdrOutputPath, series))
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
	obs, err := startObservers(plan.Settings.Target, out.Prometheus, stderr)
	if err != nil {
		plan.Close()
		return nil, configErr(fmt.Errorf("gobench.prometheus=%s: %w", out.Prometheus, err))
	}
	defer obs.Close()
	st.hooks = append(st.hooks, obs.Interval)

	gc0 := measure.ReadGCStats()
	st.start(time.Now())
	stopProgress := startProgress(stderr, plan, out.Status)
	res, runErr := plan.Run(ctx, workload.WithLog(stderr), workload.OnInterval(st.cut, st.interval))
	stopProgress()
	o.gc = measure.ReadGCStats().Sub(gc0)
	if res != nil {
		for _, n := range res.Notes {
			fmt.Fprintln(stderr, n)
		}
	}
	var openErr *engine.OpenError
	if res == nil || errors.As(runErr, &openErr) {
		return nil, redactErr(runErr, plan.Props())
	}
	o.res = res
	if n := len(res.OpenErrors); n > 0 {
		fmt.Fprintf(stderr, "Warning: %d of %d workers could not open a connection and did nothing: %s\n",
			n, res.Threads, props.RedactText(plan.Props(), res.OpenErrors[0].Error()))
	}
	if res.Stopped == "interrupted" {
		fmt.Fprintln(stderr, "Run interrupted: the report covers the operations that ran.")
	}
	var fe *workload.FailedError
	if f := res.Failed(); f > 0 && !errors.As(runErr, &fe) {
		first := ""
		if res.FirstError != nil {
			first = "; the first: " + res.FirstError.Error()
		}
		fmt.Fprintf(stderr, "Note: %d of %d operations failed, within gobench.maxerrorratio=%s%s\n",
			f, res.Attempted(), measure.FormatJavaDouble(plan.MaxErrorRatio), props.RedactText(plan.Props(), first))
	}
	o.verdict = obs.Finish(res.Snapshot.Ops, res.RunTime)
	return o, redactErr(runErr, plan.Props())
}

// redactErr returns err with the values of secret properties blanked out of
// its message (a driver's error may quote its configuration).
func redactErr(err error, set *props.Set) error {
	if err == nil {
		return nil
	}
	if msg := props.RedactText(set, err.Error()); msg != err.Error() {
		return errors.New(msg)
	}
	return err
}

// redactArgs blanks the values of secret properties given with -p.
func redactArgs(args []string) []string {
	out := append([]string(nil), args...)
	for i, a := range out {
		if k, _, ok := strings.Cut(a, "="); ok && props.IsSecret(k) {
			out[i] = k + "=" + props.Redacted
		}
	}
	return out
}

// writeBenchReport writes the final report with the chosen exporter, to
// stdout or to exportfile.
func writeBenchReport(plan *workload.Plan, o *outcome, stdout io.Writer) error {
	out := plan.Output
	lines := measure.Lines(o.res.Snapshot, measure.LineOptions{
		RunTime: o.res.RunTime, Percentiles: out.Percentiles, Type: measureType(out),
		Granularity: out.TimeseriesGranularity, GC: &o.gc, Extra: o.res.ReportLines(),
		Verbose: out.HistogramVerbose, NoRawSummary: out.RawNoSummary,
	})
	if err := writeRawData(out, o.res.Snapshot, stdout); err != nil {
		return err
	}
	var doc *measure.Document
	if out.Exporter == "json" {
		var err error
		if doc, err = resultDocument(plan, o); err != nil {
			return err
		}
	}
	return writeReport(out, lines, doc, stdout)
}

// resultDocument is gobench's JSON result document of a run.
func resultDocument(plan *workload.Plan, o *outcome) (*measure.Document, error) {
	doc, err := measure.NewDocument(o.res.Snapshot, measure.DocumentOptions{
		Config: plan.Config(), Seed: plan.Settings.Seed, RunTime: o.res.RunTime,
		Percentiles: plan.Output.Percentiles, Intervals: o.intervals,
	})
	if err != nil {
		return nil, err
	}
	doc.Version = version
	doc.ClientSaturated = o.verdict.Saturated
	doc.Warnings = append(doc.Warnings, o.verdict.Warnings()...)
	if ol := o.res.OpenLoop; ol != nil {
		doc.OpenLoop = ol.Record()
		if w := ol.Warning(); w != "" {
			doc.Warnings = append(doc.Warnings, w)
		}
	}
	return doc, nil
}

func measureType(o workload.Output) measure.Type {
	t, _ := measure.ParseType(o.MeasurementType)
	return t
}

// writeRawData writes measurementtype=raw's samples before the report, as
// Java does: to measurement.raw.output_file (appended to) or stdout.
func writeRawData(o workload.Output, s *measure.Snapshot, stdout io.Writer) error {
	t := measureType(o)
	if !t.Raw() {
		return nil
	}
	prefix := ""
	if t == measure.HdrAndRaw {
		prefix = "Raw"
	}
	if o.RawOutputFile == "" {
		return measure.WriteRawData(stdout, s, prefix)
	}
	fh, err := os.OpenFile(o.RawOutputFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("measurement.raw.output_file: %w", err)
	}
	if err := measure.WriteRawData(fh, s, prefix); err != nil {
		fh.Close()
		return fmt.Errorf("measurement.raw.output_file %s: %w", o.RawOutputFile, err)
	}
	return fh.Close()
}

// writeReport writes the final report with the chosen exporter, to stdout or
// to exportfile (written to a temporary file first, so a failed run never
// leaves half a report behind).
func writeReport(o workload.Output, lines []measure.Line, doc *measure.Document, stdout io.Writer) error {
	write := func(w io.Writer) error {
		switch o.Exporter {
		case "json":
			return measure.WriteDocument(w, doc)
		case "jsonarray":
			return measure.WriteJSONArray(w, lines)
		}
		return measure.WriteText(w, lines)
	}
	if o.ExportFile == "" {
		return write(stdout)
	}
	tmp := o.ExportFile + ".tmp"
	fh, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("exportfile: %w", err)
	}
	if err := write(fh); err != nil {
		fh.Close()
		os.Remove(tmp)
		return fmt.Errorf("exportfile %s: %w", o.ExportFile, err)
	}
	if err := fh.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("exportfile %s: %w", o.ExportFile, err)
	}
	return os.Rename(tmp, o.ExportFile)
}
