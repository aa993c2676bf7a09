package timeseries

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/generator"
)

// Operations, by id (the job's Ops).
const (
	opRead = iota
	opUpdate
	opInsert
	opScan
	opDelete
	numOps
)

var opNames = [numOps]string{"READ", "UPDATE", "INSERT", "SCAN", "DELETE"}

const nameVerify = "VERIFY"

// job is the TimeSeriesWorkload as an engine.Job.
type job struct {
	spec    *Spec
	sr      *series
	threads int
	schema  drivers.Schema
	// Field positions in the schema: each tag key's, the timestamp's and
	// the value's.
	tagField          []int
	tsField, valField int
	validOrder        []int // tag indexes in the order of their keys (Java's TreeMap)

	ops      *generator.Discrete[int]
	keys     generator.Drawer // draws leave Last alone: nothing reads it
	scanLen  generator.Drawer
	warnings []string
}

func newJob(s Spec, threads int, seed uint64) (*job, error) {
	sr, err := newSeries(&s, seed)
	if err != nil {
		return nil, err
	}
	j := &job{spec: &s, sr: sr, threads: threads}
	names := append(slices.Clone(sr.tagKeys), s.TimestampKey, s.ValueKey)
	slices.Sort(names)
	j.schema = drivers.Schema{Table: s.Table, Fields: names}
	pos := func(name string) int { return slices.Index(names, name) }
	for _, k := range sr.tagKeys {
		j.tagField = append(j.tagField, pos(k))
	}
	j.tsField, j.valField = pos(s.TimestampKey), pos(s.ValueKey)
	for i := range sr.tagKeys {
		j.validOrder = append(j.validOrder, i)
	}
	slices.SortStableFunc(j.validOrder, func(a, b int) int {
		if sr.tagKeys[a] < sr.tagKeys[b] {
			return -1
		} else if sr.tagKeys[a] > sr.tagKeys[b] {
			return 1
		}
		return 0
	})

	if s.Phase == engine.Transactions {
		var choices []generator.Weighted[int]
		for op, w := range [numOps]float64{s.ReadProportion, s.UpdateProportion, s.InsertProportion, s.ScanProportion, s.DeleteProportion} {
			if w > 0 {
				choices = append(choices, generator.Weighted[int]{Weight: w, Value: op})
			}
		}
		if j.ops, err = generator.NewDiscrete(choices...); err != nil {
			return nil, fmt.Errorf("operation proportions: %w", err)
		}
	}
	n := int64(s.NumKeys)
	switch s.RequestDistribution {
	case "uniform":
		j.keys, err = generator.NewUniform(0, n-1)
	case "sequential":
		j.keys, err = generator.NewSequential(0, n-1)
	case "zipfian":
		j.keys, err = generator.NewScrambledZipfian(0, n-1)
	case "hotspot":
		var h *generator.Hotspot
		h, j.warnings, err = generator.NewHotspot(0, n-1, s.HotspotDataFraction, s.HotspotOpnFraction)
		j.keys = h
	}
	if err != nil {
		return nil, fmt.Errorf("requestdistribution %s: %w", s.RequestDistribution, err)
	}
	if s.ScanLengthDistribution == "zipfian" {
		j.scanLen, err = generator.NewZipfian(1, int64(s.MaxScanLength))
	} else {
		j.scanLen, err = generator.NewUniform(1, int64(s.MaxScanLength))
	}
	if err != nil {
		return nil, fmt.Errorf("maxscanlength: %w", err)
	}
	return j, nil
}

func (j *job) Ops() []string          { return opNames[:] }
func (j *job) Extra() []string        { return []string{nameVerify} }
func (j *job) Warnings() []string     { return j.warnings }
func (j *job) Schema() drivers.Schema { return j.schema }

func (j *job) NewTask(id int, conn drivers.Conn, rnd *rand.Rand, m *engine.Meter) (engine.Task, error) {
	return newWorker(j, id, conn, rnd, m)
}

// Keys returns the metric keys in the order the workers own them (after
// randomtimeseriesorder's shuffle), for tests and tools.
func (j *job) Keys() []string { return slices.Clone(j.sr.keys) }
