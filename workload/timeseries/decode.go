package timeseries

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/props"
)

// Kind is Java YCSB's TimeSeriesWorkload.
var Kind = engine.Kind{
	Name:    "timeseries",
	Aliases: []string{"site.ycsb.workloads.TimeSeriesWorkload", "com.yahoo.ycsb.workloads.TimeSeriesWorkload", "ts"},
	Summary: "YCSB's TimeSeriesWorkload: metrics with tags written one data point at a time, then reads, scans and updates of the series",
	Build:   build,
}

// Spec is the decoded TimeSeriesWorkload configuration: Java's properties
// with Java's defaults (DefaultSpec).
type Spec struct {
	Phase       engine.Phase
	Table       string
	RecordCount int64 // recordcount (0: Java's Integer.MAX_VALUE)
	InsertCount int64 // insertcount: the load's data points (-1: recordcount)
	// StartTimestamp is insertstart, the first timestamp in
	// TimestampUnits; StartSet says whether it was given (else each
	// worker starts from the clock, as Java does).
	StartTimestamp int64
	StartSet       bool

	NumKeys        int   // fieldcount: metric keys
	KeyLength      int   // fieldlength: letters per metric key
	TagCount       int   // tagcount
	TagCardinality []int // tagcardinality, as Java fills it (see cardinalities)
	TagKeyLength   int   // tagkeylength
	TagValueLength int   // tagvaluelength

	TimestampKey      string // timestampkey
	ValueKey          string // valuekey
	TimestampInterval int64  // timestampinterval, in TimestampUnits
	TimestampUnits    string // timestampunits: SECONDS, MILLISECONDS, MINUTES, HOURS, DAYS
	PairDelimiter     string // tagpairdelimiter
	DeleteDelimiter   string // deletedelimiter

	RandomWriteTimestampOrder bool    // randomwritetimestamporder
	RandomTimeseriesOrder     bool    // randomtimeseriesorder (Java's default: true)
	ValueType                 string  // valuetype: integers, floats, mixednumbers
	Sparsity                  float64 // sparsity
	DelayedSeries             float64 // delayedseries
	DelayedIntervals          int     // delayedintervals

	QueryTimeSpan          int    // querytimespan
	QueryRandomTimeSpan    bool   // queryrandomtimespan
	QueryTimeSpanDelimiter string // querytimespandelimiter
	GroupByKey             string // groupbykey
	GroupByFunction        string // groupbyfunction ("" = none)
	GroupBy                []bool // groupbykeys
	DownsamplingKey        string // downsamplingkey
	DownsamplingFunction   string // downsamplingfunction ("" = none)
	DownsamplingInterval   int    // downsamplinginterval

	ReadProportion, UpdateProportion, InsertProportion, ScanProportion, DeleteProportion float64
	RequestDistribution                                                                  string // uniform, sequential, zipfian, hotspot
	HotspotDataFraction, HotspotOpnFraction                                              float64
	MaxScanLength                                                                        int    // maxscanlength
	ScanLengthDistribution                                                               string // uniform, zipfian
	DataIntegrity                                                                        bool

	// Notes are properties Java knows that have no effect here.
	Notes []string
}

// DefaultSpec is Java's defaults (TimeSeriesWorkload's and, for the keys
// it shares, CoreWorkload's and Client's).
func DefaultSpec() Spec {
	return Spec{
		Table: "usertable", InsertCount: -1, NumKeys: 10, KeyLength: 100, TagCount: 4, TagKeyLength: 8, TagValueLength: 8,
		TimestampKey: "YCSBTS", ValueKey: "YCSBV", TimestampInterval: 60, TimestampUnits: "SECONDS",
		PairDelimiter: "=", DeleteDelimiter: ":", RandomTimeseriesOrder: true, ValueType: "floats",
		DelayedSeries: 0.10, DelayedIntervals: 5, QueryTimeSpanDelimiter: ",", GroupByKey: "YCSBGB",
		DownsamplingKey: "YCSBDS", ReadProportion: 0.95, UpdateProportion: 0.05, RequestDistribution: "uniform",
		HotspotDataFraction: 0.2, HotspotOpnFraction: 0.8, MaxScanLength: 1000, ScanLengthDistribution: "uniform",
	}
}

// ignored are properties Java's CoreWorkload or Client reads that
// TimeSeriesWorkload does not (and the template's misspelt delayedSeries
// and delayedIntervals, which Java, reading lower case, ignores too): they
// are accepted with a note.
var ignored = []string{
	"fieldnameprefix", "minfieldlength", "fieldlengthdistribution", "fieldlengthhistogram", "readallfields",
	"readallfieldsbyname", "writeallfields", "exponential.percentile", "exponential.frac", "minscanlength",
	"insertorder", "zeropadding", "core_workload_insertion_retry_limit", "core_workload_insertion_retry_interval",
	"core_workload_insertion_keep_going_on_error", "delayedSeries", "delayedIntervals",
}

// build decodes the properties, sets the run's op count (a load writes
// insertcount, else recordcount, data points) and makes the Job.
func build(b *engine.Build) (engine.Job, error) {
	s, err := Decode(b.Props, b.Phase)
	b.Notes = append(b.Notes, s.Notes...)
	if err != nil {
		return nil, err
	}
	if b.Phase == engine.Load {
		b.Settings.Ops = s.RecordCount
		if s.InsertCount >= 0 {
			b.Settings.Ops = s.InsertCount
		}
	}
	if !b.Settings.SeedSet {
		// The series order is shuffled once, at set-up, from the seed.
		b.Settings.Seed, b.Settings.SeedSet = rand.Uint64(), true
	}
	threads := b.Settings.Threads
	if ops := b.Settings.Ops; ops > 0 && int64(threads) > ops {
		threads = int(ops) // the runner's clamp (Java's)
	}
	if s.NumKeys < b.Settings.Threads {
		return nil, &props.Error{Key: "fieldcount", Value: strconv.Itoa(s.NumKeys),
			Err: fmt.Errorf("TimeSeriesWorkload needs at least one metric key (fieldcount) per thread (threadcount %d): each thread writes its own keys", b.Settings.Threads)}
	}
	return newJob(s, threads, b.Settings.Seed)
}

// Decode reads the TimeSeriesWorkload properties from d. Problems with
// single values are recorded in d; Decode returns the cross-field ones.
func Decode(d *props.Decoder, phase engine.Phase) (Spec, error) {
	s := DefaultSpec()
	s.Phase = phase
	s.Table = d.String("table", s.Table)
	s.RecordCount = d.Int64("recordcount", s.RecordCount)
	s.InsertCount = d.Int64("insertcount", s.InsertCount)
	if v, ok := d.Lookup("insertstart"); ok && strings.TrimSpace(v.Value) != "" {
		s.StartTimestamp, s.StartSet = d.Int64("insertstart", 0), true
	}
	s.NumKeys = d.Int("fieldcount", s.NumKeys)
	s.KeyLength = d.Int("fieldlength", s.KeyLength)
	s.TagCount = d.Int("tagcount", s.TagCount)
	cardText := d.String("tagcardinality", "1, 2, 4, 8")
	s.TagKeyLength = d.Int("tagkeylength", s.TagKeyLength)
	s.TagValueLength = d.Int("tagvaluelength", s.TagValueLength)
	s.TimestampKey = d.String("timestampkey", s.TimestampKey)
	s.ValueKey = d.String("valuekey", s.ValueKey)
	s.TimestampInterval = d.Int64("timestampinterval", s.TimestampInterval)
	s.TimestampUnits = strings.ToUpper(d.Enum("timestampunits", s.TimestampUnits, "SECONDS", "MILLISECONDS", "MINUTES", "HOURS", "DAYS", "MICROSECONDS", "NANOSECONDS"))
	s.PairDelimiter = d.String("tagpairdelimiter", s.PairDelimiter)
	s.DeleteDelimiter = d.String("deletedelimiter", s.DeleteDelimiter)
	s.RandomWriteTimestampOrder = d.Bool("randomwritetimestamporder", s.RandomWriteTimestampOrder)
	s.RandomTimeseriesOrder = d.Bool("randomtimeseriesorder", s.RandomTimeseriesOrder)
	s.ValueType = d.Enum("valuetype", s.ValueType, "integers", "floats", "mixednumbers")
	s.Sparsity = d.Float("sparsity", s.Sparsity)
	s.DelayedSeries = d.Float("delayedseries", s.DelayedSeries)
	s.DelayedIntervals = d.Int("delayedintervals", s.DelayedIntervals)
	s.QueryTimeSpan = d.Int("querytimespan", s.QueryTimeSpan)
	s.QueryRandomTimeSpan = d.Bool("queryrandomtimespan", s.QueryRandomTimeSpan)
	s.QueryTimeSpanDelimiter = d.String("querytimespandelimiter", s.QueryTimeSpanDelimiter)
	s.GroupByKey = d.String("groupbykey", s.GroupByKey)
	s.GroupByFunction = d.String("groupbyfunction", "")
	groupByKeys := d.String("groupbykeys", "")
	s.DownsamplingKey = d.String("downsamplingkey", s.DownsamplingKey)
	s.DownsamplingFunction = d.String("downsamplingfunction", "")
	dsInterval := d.String("downsamplinginterval", "")
	s.ReadProportion = d.Float("readproportion", s.ReadProportion)
	s.UpdateProportion = d.Float("updateproportion", s.UpdateProportion)
	s.InsertProportion = d.Float("insertproportion", s.InsertProportion)
	s.ScanProportion = d.Float("scanproportion", s.ScanProportion)
	rmw := d.Float("readmodifywriteproportion", 0)
	s.DeleteProportion = d.Float("deleteproportion", s.DeleteProportion)
	s.RequestDistribution = d.Enum("requestdistribution", s.RequestDistribution, "uniform", "sequential", "zipfian", "hotspot", "latest", "exponential")
	s.HotspotDataFraction = d.Float("hotspotdatafraction", s.HotspotDataFraction)
	s.HotspotOpnFraction = d.Float("hotspotopnfraction", s.HotspotOpnFraction)
	s.MaxScanLength = d.Int("maxscanlength", s.MaxScanLength)
	s.ScanLengthDistribution = d.Enum("scanlengthdistribution", s.ScanLengthDistribution, "uniform", "zipfian")
	s.DataIntegrity = d.Bool("dataintegrity", s.DataIntegrity)

	for _, k := range ignored {
		if v, ok := d.Lookup(k); ok {
			s.Notes = append(s.Notes, fmt.Sprintf("%s=%s (%s) has no effect on TimeSeriesWorkload (Java ignores it too)", k, v.Value, v.Where()))
		}
	}

	var errs []error
	bad := func(key, val, why string) {
		errs = append(errs, &props.Error{Key: key, Value: val, Err: errors.New(why)})
	}
	for _, part := range strings.Split(cardText, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil {
			bad("tagcardinality", cardText, fmt.Sprintf("unable to parse cardinality %q (want comma-separated whole numbers, one per tag)", part))
			break
		}
		if n < 1 {
			bad("tagcardinality", cardText, fmt.Sprintf("cardinality must be greater than zero: %d", n))
			break
		}
		s.TagCardinality = append(s.TagCardinality, n)
	}
	if s.GroupByFunction != "" {
		if groupByKeys == "" {
			bad("groupbykeys", "", "group by was enabled (groupbyfunction) but no keys were specified: give one 0 or 1 per tag")
		}
		for _, g := range strings.Split(groupByKeys, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(g))
			if groupByKeys != "" && err != nil {
				bad("groupbykeys", groupByKeys, fmt.Sprintf("%q is not 0 or 1", g))
				break
			}
			s.GroupBy = append(s.GroupBy, n != 0)
		}
		if groupByKeys != "" && len(s.GroupBy) != s.TagCount {
			bad("groupbykeys", groupByKeys, fmt.Sprintf("only %d group by keys were specified but there are %d tag keys (tagcount)", len(s.GroupBy), s.TagCount))
		}
	}
	if s.DownsamplingFunction != "" {
		n, err := strconv.Atoi(strings.TrimSpace(dsInterval))
		switch {
		case dsInterval == "":
			bad("downsamplinginterval", "", "missing although downsamplingfunction is set")
		case err != nil:
			bad("downsamplinginterval", dsInterval, "not a whole number of timestampunits")
		}
		s.DownsamplingInterval = n
	}
	switch {
	case s.TimestampUnits == "MICROSECONDS" || s.TimestampUnits == "NANOSECONDS":
		bad("timestampunits", s.TimestampUnits, "YCSB doesn't support "+s.TimestampUnits+" at this time (allowed: SECONDS, MILLISECONDS, MINUTES, HOURS, DAYS)")
	case s.TimestampInterval < 1:
		bad("timestampinterval", strconv.FormatInt(s.TimestampInterval, 10), "must be at least 1")
	}
	if s.RequestDistribution == "latest" || s.RequestDistribution == "exponential" {
		bad("requestdistribution", s.RequestDistribution, "TimeSeriesWorkload knows uniform, sequential, zipfian and hotspot")
	}
	if rmw > 0 {
		bad("readmodifywriteproportion", strconv.FormatFloat(rmw, 'g', -1, 64), "TimeSeriesWorkload has no read-modify-write (Java ends the thread at the first one)")
	}
	for _, c := range []struct {
		key string
		n   int
	}{{"fieldcount", s.NumKeys}, {"fieldlength", s.KeyLength}, {"tagcount", s.TagCount}, {"tagkeylength", s.TagKeyLength}, {"tagvaluelength", s.TagValueLength}, {"maxscanlength", s.MaxScanLength}} {
		if c.n < 1 {
			bad(c.key, strconv.Itoa(c.n), "must be at least 1")
		}
	}
	if s.TagKeyLength >= 1 && s.TagCount > 0 && float64(s.TagCount) > math.Pow(float64(len(letters)), float64(min(s.TagKeyLength, 8))) {
		bad("tagcount", strconv.Itoa(s.TagCount), fmt.Sprintf("more tags than there are distinct tag keys of %d letters", s.TagKeyLength))
	}
	if s.Sparsity < 0 || s.Sparsity >= 1 {
		bad("sparsity", strconv.FormatFloat(s.Sparsity, 'g', -1, 64), "must be in [0, 1)")
	}
	if s.DelayedSeries > 0 && s.DelayedIntervals < 1 {
		bad("delayedintervals", strconv.Itoa(s.DelayedIntervals), "must be at least 1 when delayedseries > 0 (Java divides by it)")
	}
	if s.TimestampKey == s.ValueKey {
		bad("valuekey", s.ValueKey, "must differ from timestampkey")
	}
	if s.DataIntegrity {
		// Java's validateSettings.
		switch {
		case s.ValueType != "integers":
			bad("valuetype", s.ValueType, "data integrity was enabled: valuetype must be set to integers")
		case s.GroupByFunction != "":
			bad("groupbyfunction", s.GroupByFunction, "data integrity was enabled: groupbyfunction must be empty")
		case s.DownsamplingFunction != "":
			bad("downsamplingfunction", s.DownsamplingFunction, "data integrity was enabled: downsamplingfunction must be empty")
		case s.QueryTimeSpan > 0:
			bad("querytimespan", strconv.Itoa(s.QueryTimeSpan), "data integrity was enabled: querytimespan must be empty or 0")
		case s.RandomTimeseriesOrder:
			bad("randomtimeseriesorder", "true", "data integrity was enabled: randomtimeseriesorder must be false (its default is true)")
		case !s.StartSet:
			bad("insertstart", "", "data integrity was enabled: insertstart must be set to a Unix epoch timestamp")
		}
	}
	var notes []string
	for _, k := range []string{"querytimespan", "queryrandomtimespan", "querytimespandelimiter", "groupbyfunction", "groupbykeys", "groupbykey", "downsamplingfunction", "downsamplinginterval", "downsamplingkey"} {
		if v, ok := d.Lookup(k); ok && strings.TrimSpace(v.Value) != "" && v.Value != "0" && v.Value != "false" {
			notes = append(notes, k)
		}
	}
	if len(notes) > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("%s set: Java turns them into query predicates passed as a read's or scan's field names, which gobench's drivers do not take (they select fields by position), so reads and scans fetch the metric's record whole; deletes carry them in their key, as in Java", strings.Join(notes, ", ")))
	}
	return s, errors.Join(errs...)
}
