package core

import (
	"time"

	"github.com/gobench/gobench/engine"
)

// Spec is YCSB CoreWorkload's typed, validated description: the key space,
// the record shape, the operation mix and the distributions. [Decode] reads
// it from properties; the hot path reads only a Spec and the generators
// built from it, never properties. How the run is driven (threads, target,
// op count, time limit) is engine.Settings.
type Spec struct {
	Phase engine.Phase // load (insert the key range) or transactions (the mix)

	RecordCount int64 // recordcount
	// OperationCount is the run's operation count (operationcount, set
	// from engine.Settings.Ops by the kind's Build): the zipfian chooser's
	// head-room for keys inserted during the run.
	OperationCount int64
	InsertStart    int64 // insertstart
	InsertCount    int64 // insertcount; -1 = recordcount - insertstart
	Clients        int   // gobench.clients: processes sharing the key space
	Client         int   // gobench.client: this process, 0..Clients-1

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

	// Notes are set-up notices for the user from Decode: properties that
	// Java YCSB knows but that have no effect here.
	Notes []string
}

// DefaultSpec returns Java YCSB's defaults (the values CoreWorkload uses
// when a property is absent). Every default lives here only.
func DefaultSpec() Spec {
	return Spec{
		Phase:       engine.Transactions,
		InsertCount: -1,
		Clients:     1,

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

// LoadOps returns the number of inserts of the load phase over all
// threads: insertcount, or recordcount - insertstart. (Java loads
// recordcount keys from insertstart when insertcount is absent, overshooting
// the key space; gobench loads the keys up to recordcount.)
func (s *Spec) LoadOps() int64 { return s.insertCount() }

// ClientSlice returns the spec of client s.Client of s.Clients processes
// loading one key space together: when insertstart and insertcount are not
// given, each client loads a disjoint, contiguous slice of recordcount, and
// the slices add up to it exactly.
func (s Spec) ClientSlice() Spec {
	if s.Clients <= 1 || s.Phase != engine.Load || s.InsertStart != 0 || s.InsertCount >= 0 {
		return s
	}
	r, n, i := s.recordCount(), int64(s.Clients), int64(s.Client)
	s.InsertStart = i * r / n
	s.InsertCount = (i+1)*r/n - s.InsertStart
	return s
}
