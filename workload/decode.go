package workload

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
)

// KindCore is YCSB's CoreWorkload, the default workload kind.
const KindCore = "core"

var kindAliases = map[string]string{
	"core":                                  KindCore,
	"site.ycsb.workloads.CoreWorkload":      KindCore,
	"com.yahoo.ycsb.workloads.CoreWorkload": KindCore,
}

// kindBuilders makes the Job of each workload kind other than core from the
// decoded Spec and the kind's own properties (read through d). Each kind's
// file adds its entry in init; the map is not changed after that.
var kindBuilders = map[string]func(s *Spec, d *props.Decoder) (Job, error){}

// Kind resolves the workload property to a workload kind.
func Kind(name string) (string, bool) {
	if k, ok := kindAliases[name]; ok {
		return k, true
	}
	_, ok := kindBuilders[name]
	return name, ok
}

// Kinds lists the workload kinds.
func Kinds() []string {
	k := []string{KindCore}
	for n := range kindBuilders {
		k = append(k, n)
	}
	sort.Strings(k[1:])
	return k
}

// Decode reads the core workload, client and measurement properties from d
// into a Spec, starting from [DefaultSpec]. Problems are recorded in d (read
// them with d.Err()); Decode then also returns [Spec.Validate]'s cross-field
// problems. Keys it does not know are left unread for the caller to report.
func Decode(d *props.Decoder, phase Phase) (Spec, error) {
	s := DefaultSpec()
	s.Phase = phase
	if v, ok := d.Lookup("dotransactions"); ok {
		b := d.Bool("dotransactions", phase == Transactions)
		_ = v
		if b {
			s.Phase = Transactions
		} else {
			s.Phase = Load
		}
	}
	s.Kind = KindCore
	if w, ok := d.Lookup("workload"); ok {
		if k, known := Kind(w.Value); known {
			s.Kind = k
		} else {
			d.Fail(&props.Error{Key: "workload", Value: w.Value, Source: w.Source, Line: w.Line,
				Err: errors.New("unknown workload kind"), Allowed: strings.Join(Kinds(), ", ") + " (core is also site.ycsb.workloads.CoreWorkload)"})
		}
	}
	d.Lookup("db") // read by the caller; known here

	s.Threads = d.Int("threadcount", s.Threads)
	s.Target = d.Float("target", s.Target)
	s.OperationCount = d.Int64("operationcount", s.OperationCount)
	s.RecordCount = d.Int64("recordcount", s.RecordCount)
	s.InsertStart = d.Int64("insertstart", s.InsertStart)
	s.InsertCount = d.Int64("insertcount", s.InsertCount)
	s.MaxExecutionTime = d.Duration("maxexecutiontime", s.MaxExecutionTime, time.Second)
	s.Warmup = d.Duration("gobench.warmup", s.Warmup, time.Second)
	if _, ok := d.Lookup("gobench.seed"); ok {
		s.Seed = uint64(d.Int64("gobench.seed", 0))
		s.SeedSet = true
	}
	s.Status = d.Bool("status", s.Status)
	s.StatusInterval = d.Duration("status.interval", s.StatusInterval, time.Second)
	s.Label = d.String("label", s.Label)
	s.SpinSleep = d.Bool("spin.sleep", s.SpinSleep)
	s.Clients = d.Int("gobench.clients", s.Clients)
	s.Client = d.Int("gobench.client", s.Client)

	s.Table = d.String("table", s.Table)
	s.FieldCount = d.Int("fieldcount", s.FieldCount)
	s.FieldNamePrefix = d.String("fieldnameprefix", s.FieldNamePrefix)
	s.FieldLength = d.Int("fieldlength", s.FieldLength)
	s.MinFieldLength = d.Int("minfieldlength", s.MinFieldLength)
	s.FieldLengthDistribution = d.Enum("fieldlengthdistribution", s.FieldLengthDistribution, "constant", "uniform", "zipfian", "histogram")
	s.FieldLengthHistogram = d.String("fieldlengthhistogram", s.FieldLengthHistogram)
	s.ReadAllFields = d.Bool("readallfields", s.ReadAllFields)
	s.ReadAllFieldsByName = d.Bool("readallfieldsbyname", s.ReadAllFieldsByName)
	s.WriteAllFields = d.Bool("writeallfields", s.WriteAllFields)
	s.DataIntegrity = d.Bool("dataintegrity", s.DataIntegrity)

	s.ReadProportion = d.Float("readproportion", s.ReadProportion)
	s.UpdateProportion = d.Float("updateproportion", s.UpdateProportion)
	s.InsertProportion = d.Float("insertproportion", s.InsertProportion)
	s.ScanProportion = d.Float("scanproportion", s.ScanProportion)
	s.ReadModifyWriteProportion = d.Float("readmodifywriteproportion", s.ReadModifyWriteProportion)
	s.DeleteProportion = d.Float("deleteproportion", s.DeleteProportion)

	s.RequestDistribution = d.Enum("requestdistribution", s.RequestDistribution, "uniform", "zipfian", "latest", "hotspot", "sequential", "exponential")
	s.ZipfianConstant = d.Float("gobench.zipfianconstant", s.ZipfianConstant)
	s.HotspotDataFraction = d.Float("hotspotdatafraction", s.HotspotDataFraction)
	s.HotspotOpnFraction = d.Float("hotspotopnfraction", s.HotspotOpnFraction)
	s.ExponentialPercentile = d.Float("exponential.percentile", s.ExponentialPercentile)
	s.ExponentialFrac = d.Float("exponential.frac", s.ExponentialFrac)
	s.MinScanLength = d.Int("minscanlength", s.MinScanLength)
	s.MaxScanLength = d.Int("maxscanlength", s.MaxScanLength)
	s.ScanLengthDistribution = d.Enum("scanlengthdistribution", s.ScanLengthDistribution, "uniform", "zipfian")
	// Java: exactly "hashed" hashes; any other value behaves as ordered.
	s.InsertOrderHashed = d.String("insertorder", "hashed") == "hashed"
	s.ZeroPadding = d.Int("zeropadding", s.ZeroPadding)
	s.InsertionRetryLimit = d.Int("core_workload_insertion_retry_limit", s.InsertionRetryLimit)
	s.InsertionRetryInterval = d.Duration("core_workload_insertion_retry_interval", s.InsertionRetryInterval, time.Second)
	s.KeepGoingOnError = d.Bool("core_workload_insertion_keep_going_on_error", s.KeepGoingOnError)

	// Accepted for compatibility with Java's template (they configure one
	// Bigtable binding); they have no effect, and the user is told so.
	for _, k := range []string{"maxscanrate", "scanoptimelimit", "discardscannedrecord"} {
		noEffect(d, &s, k, "configures Java YCSB's Bigtable binding only")
	}

	s.MeasurementType = d.Enum("measurementtype", s.MeasurementType, "hdrhistogram", "histogram", "timeseries")
	s.MeasurementInterval = d.Enum("measurement.interval", s.MeasurementInterval, "op", "intended", "both")
	s.Percentiles = d.Floats("hdrhistogram.percentiles", s.Percentiles)
	s.HdrFileOutput = d.Bool("hdrhistogram.fileoutput", s.HdrFileOutput)
	s.HdrOutputPath = d.String("hdrhistogram.output.path", s.HdrOutputPath)
	s.TimeseriesGranularity = d.Duration("timeseries.granularity", s.TimeseriesGranularity, time.Millisecond)
	s.HistogramBuckets = d.Int("histogram.buckets", s.HistogramBuckets)
	s.ReportLatencyPerError = d.Bool("reportlatencyforeacherror", s.ReportLatencyPerError)
	if v := d.String("latencytrackederrors", ""); v != "" {
		for _, e := range strings.Split(strings.Trim(v, `"`), ",") {
			if e = strings.TrimSpace(e); e != "" {
				s.LatencyTrackedErrors = append(s.LatencyTrackedErrors, e)
			}
		}
	}
	s.Exporter = exporterName(d)
	s.ExportFile = d.String("exportfile", s.ExportFile)
	noEffect(d, &s, "measurement.trackjvm", "JVM statistics; gobench reports Go's GC in the report's GC lines")
	if s.MeasurementType == "histogram" {
		s.Notes = append(s.Notes, "measurementtype=histogram: reported as hdrhistogram blocks (exact percentiles instead of 1 ms buckets)")
	}

	if b := kindBuilders[s.Kind]; b != nil {
		// Other kinds read their own keys; build once here so that their
		// problems are reported with everything else.
		job, err := b(&s, d)
		s.job = job
		return s, errors.Join(err, s.Validate())
	}
	return s, s.Validate()
}

// NewRunner makes the Runner of s's workload kind: YCSB's core workload, or
// the Job that Decode built for another kind.
func NewRunner(s Spec, db drivers.DB, opts ...Option) (*Runner, error) {
	if s.job != nil {
		return NewJob(s, s.job, db, opts...)
	}
	return New(s, db, opts...)
}

var exporters = map[string]string{
	"text": "text", "site.ycsb.measurements.exporter.TextMeasurementsExporter": "text",
	"json": "json", "site.ycsb.measurements.exporter.JSONMeasurementsExporter": "jsonarray",
	"jsonarray": "jsonarray", "site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter": "jsonarray",
}

func exporterName(d *props.Decoder) string {
	v, ok := d.Lookup("exporter")
	if !ok {
		return "text"
	}
	if e, ok := exporters[v.Value]; ok {
		return e
	}
	d.Fail(&props.Error{Key: "exporter", Value: v.Value, Source: v.Source, Line: v.Line,
		Err: errors.New("unknown exporter; allowed: text, json, jsonarray (or Java's class names)")})
	return "text"
}

// Validate reports every cross-field problem at once.
func (s *Spec) Validate() error {
	var errs []error
	bad := func(key string, val any, why string) {
		errs = append(errs, &props.Error{Key: key, Value: fmt.Sprint(val), Err: errors.New(why)})
	}
	if s.Threads < 1 {
		bad("threadcount", s.Threads, "must be at least 1")
	}
	if s.Target < 0 {
		bad("target", s.Target, "must be >= 0 (0 = unthrottled)")
	}
	if s.OperationCount < 0 {
		bad("operationcount", s.OperationCount, "must be >= 0 (0 = no limit)")
	}
	if s.RecordCount < 0 {
		bad("recordcount", s.RecordCount, "must be >= 0")
	}
	if s.InsertStart < 0 {
		bad("insertstart", s.InsertStart, "must be >= 0")
	}
	if s.InsertCount < -1 {
		bad("insertcount", s.InsertCount, "must be >= 0")
	}
	if s.InsertStart+s.insertCount() > s.recordCount() {
		bad("insertcount", s.insertCount(), fmt.Sprintf("insertstart (%d) + insertcount (%d) is beyond recordcount (%d); give the total recordcount and this client's slice", s.InsertStart, s.insertCount(), s.recordCount()))
	}
	if s.Phase == Load && s.TotalOps() == 0 {
		bad("recordcount", s.RecordCount, "nothing to load: set recordcount (or insertcount)")
	}
	if s.Phase == Transactions && s.OperationCount == 0 && s.MaxExecutionTime == 0 {
		// Java runs forever; allowed (stop with Ctrl-C), but worth knowing.
	}
	if s.MaxExecutionTime < 0 {
		bad("maxexecutiontime", s.MaxExecutionTime, "must be >= 0")
	}
	if s.Warmup < 0 {
		bad("gobench.warmup", s.Warmup, "must be >= 0")
	}
	if s.StatusInterval <= 0 {
		bad("status.interval", s.StatusInterval, "must be > 0")
	}
	if s.Clients < 1 {
		bad("gobench.clients", s.Clients, "must be at least 1")
	}
	if s.Client < 0 || s.Client >= s.Clients {
		bad("gobench.client", s.Client, fmt.Sprintf("must be in 0..%d (gobench.clients=%d)", s.Clients-1, s.Clients))
	}
	if s.FieldCount < 1 {
		bad("fieldcount", s.FieldCount, "must be at least 1")
	}
	if s.FieldLength < 0 {
		bad("fieldlength", s.FieldLength, "must be >= 0")
	}
	if s.MinFieldLength < 0 || (s.FieldLengthDistribution != "constant" && s.MinFieldLength > s.FieldLength) {
		bad("minfieldlength", s.MinFieldLength, fmt.Sprintf("must be in 0..fieldlength (%d)", s.FieldLength))
	}
	if s.DataIntegrity && s.FieldLengthDistribution != "constant" {
		bad("dataintegrity", true, "needs fieldlengthdistribution=constant")
	}
	sum := 0.0
	for _, p := range []struct {
		k string
		v float64
	}{{"readproportion", s.ReadProportion}, {"updateproportion", s.UpdateProportion}, {"insertproportion", s.InsertProportion},
		{"scanproportion", s.ScanProportion}, {"readmodifywriteproportion", s.ReadModifyWriteProportion}, {"deleteproportion", s.DeleteProportion}} {
		if p.v < 0 {
			bad(p.k, p.v, "must be >= 0 (proportions are relative weights)")
		}
		sum += p.v
	}
	if s.Phase == Transactions && sum <= 0 {
		bad("readproportion", s.ReadProportion, "every operation proportion is 0: nothing to run")
	}
	if s.ZipfianConstant <= 0 || s.ZipfianConstant == 1 {
		bad("gobench.zipfianconstant", s.ZipfianConstant, "must be > 0 and != 1")
	}
	for _, f := range []struct {
		k string
		v float64
	}{{"hotspotdatafraction", s.HotspotDataFraction}, {"hotspotopnfraction", s.HotspotOpnFraction}} {
		if f.v < 0 || f.v > 1 {
			bad(f.k, f.v, "must be in [0, 1]")
		}
	}
	if s.RequestDistribution == "hotspot" && int64(float64(s.insertCount())*s.HotspotDataFraction) == 0 && s.HotspotOpnFraction > 0 {
		bad("hotspotdatafraction", s.HotspotDataFraction, "the hot set is empty for this insertcount; raise it or set hotspotopnfraction=0")
	}
	if s.ExponentialPercentile <= 0 || s.ExponentialPercentile >= 100 {
		bad("exponential.percentile", s.ExponentialPercentile, "must be in (0, 100)")
	}
	if s.ExponentialFrac <= 0 {
		bad("exponential.frac", s.ExponentialFrac, "must be > 0")
	}
	if s.MinScanLength < 1 {
		bad("minscanlength", s.MinScanLength, "must be at least 1")
	}
	if s.MaxScanLength < s.MinScanLength {
		bad("maxscanlength", s.MaxScanLength, fmt.Sprintf("must be >= minscanlength (%d)", s.MinScanLength))
	}
	if s.ZeroPadding < 0 {
		bad("zeropadding", s.ZeroPadding, "must be >= 0")
	}
	if s.InsertionRetryLimit < 0 {
		bad("core_workload_insertion_retry_limit", s.InsertionRetryLimit, "must be >= 0")
	}
	for _, p := range s.Percentiles {
		if p <= 0 || p > 100 {
			bad("hdrhistogram.percentiles", p, "each percentile must be in (0, 100]")
		}
	}
	if s.TimeseriesGranularity <= 0 {
		bad("timeseries.granularity", s.TimeseriesGranularity, "must be > 0 (milliseconds)")
	}
	return errors.Join(errs...)
}

// noEffect accepts a Java property that gobench does not use, and notes it
// when the user set it to something other than its Java default.
func noEffect(d *props.Decoder, s *Spec, key, why string) {
	v, ok := d.Lookup(key)
	if !ok {
		return
	}
	switch strings.TrimSpace(v.Value) {
	case "", "0", "false":
		return
	}
	s.Notes = append(s.Notes, fmt.Sprintf("%s=%s (%s) has no effect: %s", key, v.Value, v.Where(), why))
}
