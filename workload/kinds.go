package workload

import (
	"strings"

	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/workload/core"
	"github.com/gobench/gobench/workload/dfsio"
	"github.com/gobench/gobench/workload/disk"
	"github.com/gobench/gobench/workload/hive"
	"github.com/gobench/gobench/workload/kafkaperf"
	"github.com/gobench/gobench/workload/netperf"
	"github.com/gobench/gobench/workload/timeseries"
)

// kinds is every workload kind the workload property may name, in the order
// listings show them. Adding a kind is adding its package's Kind here.
var kinds = []engine.Kind{
	core.Kind,
	timeseries.Kind,
	dfsio.Kind,
	kafkaperf.ProduceKind,
	kafkaperf.ConsumeKind,
	disk.Kind,
	netperf.Kind,
	hive.Kind,
}

// Kinds lists the workload kinds.
func Kinds() []engine.Kind { return append([]engine.Kind(nil), kinds...) }

// LookupKind finds a kind by its name or an alias.
func LookupKind(name string) (engine.Kind, bool) {
	for _, k := range kinds {
		if k.Name == name {
			return k, true
		}
		for _, a := range k.Aliases {
			if a == name {
				return k, true
			}
		}
	}
	return engine.Kind{}, false
}

func kindList() []string {
	var n []string
	for _, k := range kinds {
		n = append(n, k.Name)
		n = append(n, k.Aliases...)
	}
	return n
}

// kindNames is the allowed values of the workload property, for messages.
func kindNames() string {
	var n []string
	for _, k := range kinds {
		n = append(n, k.Name)
	}
	return strings.Join(n, ", ") + " (core is also site.ycsb.workloads.CoreWorkload, timeseries site.ycsb.workloads.TimeSeriesWorkload)"
}
