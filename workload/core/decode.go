package core

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/props"
)

// Kind is YCSB's CoreWorkload, the default workload kind.
var Kind = engine.Kind{
	Name:    "core",
	Aliases: []string{"site.ycsb.workloads.CoreWorkload", "com.yahoo.ycsb.workloads.CoreWorkload"},
	Summary: "YCSB's CoreWorkload: load a key space, then run a mix of reads, updates, inserts, scans and read-modify-writes",
	Build:   build,
}

// build decodes the core properties and sets the run's op count: the load
// phase inserts this client's slice of the key space, the run phase does
// operationcount operations.
func build(b *engine.Build) (engine.Job, error) {
	s, err := Decode(b.Props, b.Phase)
	b.Notes = append(b.Notes, s.Notes...)
	if err != nil {
		return nil, err
	}
	s = s.ClientSlice()
	if s.Phase == engine.Load {
		b.Settings.Ops = s.LoadOps()
	} else {
		s.OperationCount = b.Settings.Ops
	}
	return newCore(s)
}

// Decode reads the core workload's properties from d into a Spec, starting
// from [DefaultSpec]. Problems with single values are recorded in d (read
// them with d.Err()); Decode returns [Spec.Validate]'s cross-field
// problems. Keys it does not know are left unread for the caller to report.
func Decode(d *props.Decoder, phase engine.Phase) (Spec, error) {
	s := DefaultSpec()
	s.Phase = phase
	s.RecordCount = d.Int64("recordcount", s.RecordCount)
	s.InsertStart = d.Int64("insertstart", s.InsertStart)
	s.InsertCount = d.Int64("insertcount", s.InsertCount)
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
	return s, s.Validate()
}

// Validate reports every cross-field problem at once.
func (s *Spec) Validate() error {
	var errs []error
	bad := func(key string, val any, why string) {
		errs = append(errs, &props.Error{Key: key, Value: fmt.Sprint(val), Err: errors.New(why)})
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
	if s.Phase == engine.Load && s.LoadOps() == 0 {
		bad("recordcount", s.RecordCount, "nothing to load: set recordcount (or insertcount)")
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
	if s.Phase == engine.Transactions && sum <= 0 {
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
