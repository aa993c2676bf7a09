package workload

import (
	"time"
)

// Phase says whether a run loads records or runs transactions.
type Phase uint8

const (
	// Load inserts recordcount (or insertcount) records: YCSB's -load.
	Load Phase = iota
	// Transactions runs the operation mix: YCSB's -t (run).
	Transactions
)

func (p Phase) String() string {
	if p == Load {
		return "load"
	}
	return "run"
}

// Spec is a validated, typed workload description. Build one with
// [DefaultSpec] and set fields, or decode one from properties with [Decode].
// The hot path reads only a Spec and the generators built from it, never
// properties.
type Spec struct {
	Phase Phase
	// Kind is the workload kind (the workload property): "core" (YCSB's
	// CoreWorkload) or another registered kind such as dfsio or produce.
	Kind string
	job  Job // built by Decode for kinds other than core

	// Driver settings (YCSB's Client).
	Threads          int           // threadcount
	Target           float64       // target: total ops/s over all threads; 0 = unthrottled
	OperationCount   int64         // operationcount: run-phase ops; 0 = unbounded
	RecordCount      int64         // recordcount
	InsertStart      int64         // insertstart
	InsertCount      int64         // insertcount; -1 = recordcount - insertstart
	MaxExecutionTime time.Duration // maxexecutiontime; 0 = no limit
	Warmup           time.Duration // gobench.warmup: excluded from the report
	Seed             uint64        // gobench.seed
	SeedSet          bool          // whether Seed was given (else random, printed)
	Status           bool          // status (-s)
	StatusInterval   time.Duration // status.interval
	Label            string        // label
	SpinSleep        bool          // spin.sleep
	Clients          int           // gobench.clients: processes sharing the key space
	Client           int           // gobench.client: this process, 0..Clients-1

	// CoreWorkload.
	Table                   string
	FieldCount              int
	FieldNamePrefix         string
	FieldLength             int
	MinFieldLength          int
	FieldLengthDistribution string // constant, uniform, zipfian, histogram
	FieldLengthHistogram    string // file for histogram
	ReadAllFields           bool
	ReadAllFieldsByName     bool
	WriteAllFields          bool
	DataIntegrity           bool

	ReadProportion            float64
	UpdateProportion          float64
	InsertProportion          float64
	ScanProportion            float64
	ReadModifyWriteProportion float64
	DeleteProportion          float64 // gobench: DELETE operations

	RequestDistribution    string // uniform, zipfian, latest, hotspot, sequential, exponential
	ZipfianConstant        float64
	HotspotDataFraction    float64
	HotspotOpnFraction     float64
	ExponentialPercentile  float64
	ExponentialFrac        float64
	MinScanLength          int
	MaxScanLength          int
	ScanLengthDistribution string // uniform, zipfian
	InsertOrderHashed      bool   // insertorder=hashed (else ordered)
	ZeroPadding            int

	InsertionRetryLimit    int
	InsertionRetryInterval time.Duration
	KeepGoingOnError       bool

	// Measurement.
	MeasurementType       string // hdrhistogram, histogram, timeseries
	MeasurementInterval   string // op, intended, both
	Percentiles           []float64
	HdrFileOutput         bool
	HdrOutputPath         string
	TimeseriesGranularity time.Duration
	HistogramBuckets      int
	ReportLatencyPerError bool
	LatencyTrackedErrors  []string
	Exporter              string
	ExportFile            string

	// Notes are set-up notices for the user from Decode: properties that
	// Java YCSB knows but that have no effect here.
	Notes []string
}

// DefaultSpec returns Java YCSB's defaults (the values CoreWorkload and
// Client use when a property is absent). Every default lives here only.
func DefaultSpec() Spec {
	return Spec{
		Phase:          Transactions,
		Kind:           KindCore,
		Threads:        1,
		InsertCount:    -1,
		StatusInterval: 10 * time.Second,
		Clients:        1,

		Table:                   "usertable",
		FieldCount:              10,
		FieldNamePrefix:         "field",
		FieldLength:             100,
		MinFieldLength:          1,
		FieldLengthDistribution: "constant",
		FieldLengthHistogram:    "hist.txt",
		ReadAllFields:           true,

		ReadProportion:   0.95,
		UpdateProportion: 0.05,

		RequestDistribution:    "uniform",
		ZipfianConstant:        0.99,
		HotspotDataFraction:    0.2,
		HotspotOpnFraction:     0.8,
		ExponentialPercentile:  95,
		ExponentialFrac:        0.8571428571,
		MinScanLength:          1,
		MaxScanLength:          1000,
		ScanLengthDistribution: "uniform",
		InsertOrderHashed:      true,
		ZeroPadding:            1,
		InsertionRetryInterval: 3 * time.Second,

		MeasurementType:       "hdrhistogram",
		MeasurementInterval:   "op",
		Percentiles:           []float64{50, 95, 99},
		TimeseriesGranularity: time.Second,
		HistogramBuckets:      1000,
		Exporter:              "text",
	}
}

// recordCount returns R as CoreWorkload uses it (0 means 2^31-1).
func (s *Spec) recordCount() int64 {
	if s.RecordCount == 0 {
		return 1<<31 - 1
	}
	return s.RecordCount
}

// insertCount returns C: insertcount, or recordcount - insertstart.
func (s *Spec) insertCount() int64 {
	if s.InsertCount >= 0 {
		return s.InsertCount
	}
	return s.recordCount() - s.InsertStart
}

// TotalOps returns the number of operations of the phase over all threads
// (0 = unbounded): operationcount when running; when loading, insertcount,
// or recordcount - insertstart. (Java loads recordcount keys from
// insertstart when insertcount is absent, overshooting the key space; gobench
// loads the keys up to recordcount.)
func (s *Spec) TotalOps() int64 {
	if s.Phase == Load {
		return s.insertCount()
	}
	return s.OperationCount
}

// ClientSlice returns the spec of client s.Client of s.Clients processes
// loading one key space together: when insertstart and insertcount are not
// given, each client loads a disjoint, contiguous slice of recordcount, and
// the slices add up to it exactly.
func (s Spec) ClientSlice() Spec {
	if s.Clients <= 1 || s.Phase != Load || s.InsertStart != 0 || s.InsertCount >= 0 {
		return s
	}
	r, n, i := s.recordCount(), int64(s.Clients), int64(s.Client)
	s.InsertStart = i * r / n
	s.InsertCount = (i+1)*r/n - s.InsertStart
	return s
}
