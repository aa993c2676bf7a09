package workload

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/props"
)

// Output says what to print about a run and where, as YCSB's measurement
// and status properties set it. Package workload decodes and checks it; the
// CLI acts on it (the library prints nothing).
type Output struct {
	Status                bool          // status (-s): a status line every StatusInterval
	StatusInterval        time.Duration // status.interval
	Label                 string        // label: the status line's prefix
	MeasurementType       string        // measurementtype: hdrhistogram, histogram, timeseries, raw, hdrhistogram+histogram, hdrhistogram+raw
	Percentiles           []float64     // hdrhistogram.percentiles
	HdrFileOutput         bool          // hdrhistogram.fileoutput
	HdrOutputPath         string        // hdrhistogram.output.path
	TimeseriesGranularity time.Duration // timeseries.granularity
	HistogramBuckets      int           // histogram.buckets
	HistogramVerbose      bool          // measurement.histogram.verbose: every bucket in the report
	RawOutputFile         string        // measurement.raw.output_file: where raw samples go ("" = stdout; appended to)
	RawNoSummary          bool          // measurement.raw.no_summary
	Exporter              string        // exporter: text, json (gobench's result document), jsonarray
	ExportFile            string        // exportfile ("" = stdout)
	Prometheus            string        // gobench.prometheus: address to serve /metrics on ("" = off)
}

// DefaultOutput is Java YCSB's defaults.
func DefaultOutput() Output {
	return Output{
		StatusInterval:        10 * time.Second,
		MeasurementType:       "hdrhistogram",
		Percentiles:           []float64{50, 95, 99},
		TimeseriesGranularity: time.Second,
		HistogramBuckets:      1000,
		Exporter:              "text",
	}
}

var exporters = map[string]string{
	"text": "text", "site.ycsb.measurements.exporter.TextMeasurementsExporter": "text",
	"json": "json", "site.ycsb.measurements.exporter.JSONMeasurementsExporter": "jsonarray",
	"jsonarray": "jsonarray", "site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter": "jsonarray",
}

// decodeCommon reads the properties every kind shares: YCSB Client's
// (threads, target, op count, time limit), gobench's (warm-up, seed, error
// budget) and the measurement and output settings. Bad single values are
// recorded in d; the returned error holds the cross-field problems.
func decodeCommon(d *props.Decoder) (engine.Settings, Output, float64, []string, error) {
	s := engine.DefaultSettings()
	s.Threads = d.Int("threadcount", s.Threads)
	s.Target = d.Float("target", s.Target)
	s.Ops = d.Int64("operationcount", s.Ops)
	s.MaxExecutionTime = d.Duration("maxexecutiontime", s.MaxExecutionTime, time.Second)
	s.Warmup = d.Duration("gobench.warmup", s.Warmup, time.Second)
	if _, ok := d.Lookup("gobench.seed"); ok {
		s.Seed = uint64(d.Int64("gobench.seed", 0))
		s.SeedSet = true
	}
	s.SpinSleep = d.Bool("spin.sleep", s.SpinSleep)
	s.Clock = d.Enum("gobench.clock", engine.ClockAuto, engine.ClockAuto, engine.ClockTSC, engine.ClockSystem)
	if a := d.Enum("gobench.arrival", "closed", "closed", engine.ArrivalConstant, engine.ArrivalPoisson); a != "closed" {
		s.Arrival = a
	}
	if _, ok := d.Lookup("measurement.interval"); !ok && s.OpenLoop() {
		// An open loop measures what its clients see: from arrival.
		s.MeasurementInterval = "intended"
	}
	s.MeasurementInterval = d.Enum("measurement.interval", s.MeasurementInterval, "op", "intended", "both")
	s.ScanLatencyPerRecord = d.Bool("gobench.scanlatencyperrecord", s.ScanLatencyPerRecord)
	s.ReportLatencyPerError = d.Bool("reportlatencyforeacherror", s.ReportLatencyPerError)
	if v := d.String("latencytrackederrors", ""); v != "" {
		for _, e := range strings.Split(strings.Trim(v, `"`), ",") {
			if e = strings.TrimSpace(e); e != "" {
				s.LatencyTrackedErrors = append(s.LatencyTrackedErrors, e)
			}
		}
	}
	maxErr := d.FloatRange("gobench.maxerrorratio", 0, 0, 1)

	o := DefaultOutput()
	o.Status = d.Bool("status", o.Status)
	o.StatusInterval = d.Duration("status.interval", o.StatusInterval, time.Second)
	o.Label = d.String("label", o.Label)
	o.MeasurementType = d.Enum("measurementtype", o.MeasurementType, "hdrhistogram", "histogram", "timeseries", "raw", "hdrhistogram+histogram", "hdrhistogram+raw")
	o.Percentiles = d.Floats("hdrhistogram.percentiles", o.Percentiles)
	o.HdrFileOutput = d.Bool("hdrhistogram.fileoutput", o.HdrFileOutput)
	o.HdrOutputPath = d.String("hdrhistogram.output.path", o.HdrOutputPath)
	o.TimeseriesGranularity = d.Duration("timeseries.granularity", o.TimeseriesGranularity, time.Millisecond)
	o.HistogramBuckets = d.Int("histogram.buckets", o.HistogramBuckets)
	o.HistogramVerbose = d.Bool("measurement.histogram.verbose", o.HistogramVerbose)
	o.RawOutputFile = d.String("measurement.raw.output_file", o.RawOutputFile)
	o.RawNoSummary = d.Bool("measurement.raw.no_summary", o.RawNoSummary)
	switch o.MeasurementType {
	case "histogram", "hdrhistogram+histogram":
		s.Buckets = o.HistogramBuckets
	case "raw", "hdrhistogram+raw":
		s.Raw = true
	}
	if v, ok := d.Lookup("exporter"); ok {
		if e, ok := exporters[v.Value]; ok {
			o.Exporter = e
		} else {
			d.Fail(&props.Error{Key: "exporter", Value: v.Value, Source: v.Source, Line: v.Line,
				Err: errors.New("unknown exporter"), Allowed: "text, json, jsonarray (or Java's class names)"})
		}
	}
	o.ExportFile = d.String("exportfile", o.ExportFile)
	o.Prometheus = d.String("gobench.prometheus", o.Prometheus)

	var notes []string
	if v, ok := d.Lookup("measurement.trackjvm"); ok && strings.TrimSpace(v.Value) == "true" {
		notes = append(notes, fmt.Sprintf("measurement.trackjvm=%s (%s) has no effect: JVM statistics; gobench reports Go's GC in the report's GC lines", v.Value, v.Where()))
	}

	var errs []error
	bad := func(key string, val any, why string) {
		errs = append(errs, &props.Error{Key: key, Value: fmt.Sprint(val), Err: errors.New(why)})
	}
	if o.StatusInterval <= 0 {
		bad("status.interval", o.StatusInterval, "must be > 0")
	}
	for _, p := range o.Percentiles {
		if p <= 0 || p > 100 {
			bad("hdrhistogram.percentiles", p, "each percentile must be in (0, 100]")
		}
	}
	if o.HistogramBuckets < 1 {
		bad("histogram.buckets", o.HistogramBuckets, "must be at least 1")
	}
	if o.TimeseriesGranularity <= 0 {
		bad("timeseries.granularity", o.TimeseriesGranularity, "must be > 0 (milliseconds)")
	}
	return s, o, maxErr, notes, errors.Join(errs...)
}

// decodePhase reads YCSB's dotransactions: true (the default) runs the
// transaction phase, false loads.
func decodePhase(d *props.Decoder) engine.Phase {
	if d.Bool("dotransactions", true) {
		return engine.Transactions
	}
	return engine.Load
}

// decodeKind reads the workload property (default core); ok is false, and
// the problem recorded in d, when it names no kind.
func decodeKind(d *props.Decoder) (engine.Kind, bool) {
	v, ok := d.Lookup("workload")
	if !ok {
		return kinds[0], true
	}
	k, found := LookupKind(v.Value)
	if !found {
		d.Fail(&props.Error{Key: "workload", Value: v.Value, Source: v.Source, Line: v.Line,
			Err: errors.New("unknown workload kind"), Allowed: kindNames(), Hint: props.Nearest(v.Value, kindList())})
		return engine.Kind{Name: v.Value}, false
	}
	return k, true
}
