package core

import (
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/generator"
)

// keyChooser picks key numbers for reads, updates, scans and deletes. Like
// the field- and scan-length choices, it draws without recording its last
// value (nothing reads it, as in Java): see [generator.Drawer].
type keyChooser = generator.Drawer

// core holds YCSB CoreWorkload's shared state: the generators built once from
// a Spec. Generators that several workers advance (the insert sequences,
// sequential, latest) are safe for concurrent use; the rest are immutable.
type core struct {
	spec   *Spec
	schema drivers.Schema

	ops         *generator.Discrete[Op] // op choice
	keys        keyChooser              // nil for exponential
	exponential *generator.Exponential
	fieldLen    generator.Drawer
	scanLen     generator.Drawer

	loadSeq *generator.Counter             // load-phase key numbers
	runSeq  *generator.AcknowledgedCounter // run-phase inserts (counter positions)
	// Run-phase inserts of client I of N use key number R + c*N + I for
	// counter position c = 0, 1, ...: disjoint between clients.
	r, clients, client int64

	allFields drivers.FieldSet // every field by name (readallfieldsbyname, dataintegrity)
	oneField  []drivers.FieldSet

	warnings []string // set-up notices for the user (hotspot fractions)
}

// Schema returns the record shape a Spec describes.
func (s Spec) Schema() drivers.Schema {
	f := make([]string, s.FieldCount)
	for i := range f {
		f[i] = s.FieldNamePrefix + fmt.Sprint(i)
	}
	return drivers.Schema{Table: s.Table, Fields: f}
}

func newCore(spec Spec) (*core, error) {
	s := &spec
	c := &core{spec: s, schema: s.Schema(), r: s.recordCount(), clients: int64(s.Clients), client: int64(s.Client)}
	c.allFields = make(drivers.FieldSet, s.FieldCount)
	c.oneField = make([]drivers.FieldSet, s.FieldCount)
	for i := range c.allFields {
		c.allFields[i] = i
		c.oneField[i] = drivers.FieldSet{i}
	}

	// Operation chooser: Java's order, only weights > 0.
	var choices []generator.Weighted[Op]
	weights := [NumOps]float64{OpRead: s.ReadProportion, OpUpdate: s.UpdateProportion, OpInsert: s.InsertProportion,
		OpScan: s.ScanProportion, OpReadModifyWrite: s.ReadModifyWriteProportion, OpDelete: s.DeleteProportion}
	for op, wt := range weights {
		w := generator.Weighted[Op]{Weight: wt, Value: Op(op)}
		if w.Weight > 0 {
			choices = append(choices, w)
		}
	}
	var err error
	if s.Phase == engine.Transactions {
		if c.ops, err = generator.NewDiscrete(choices...); err != nil {
			return nil, fmt.Errorf("operation proportions: %w", err)
		}
	}

	start, count := s.InsertStart, s.insertCount()
	c.loadSeq = generator.NewCounter(start)
	c.runSeq = generator.NewAcknowledgedCounter(c.r)

	wrap := func(key string, err error) error { return fmt.Errorf("%s: %w", key, err) }
	switch s.RequestDistribution {
	case "uniform":
		c.keys, err = generator.NewUniform(start, start+count-1)
	case "sequential":
		c.keys, err = generator.NewSequential(start, start+count-1)
	case "zipfian":
		// Head-room for keys inserted during the run (Java's x2 fudge),
		// scaled by the number of clients whose inserts interleave.
		newKeys := int64(float64(s.OperationCount)*s.InsertProportion*2) * c.clients
		c.keys, err = generator.NewScrambledZipfianTheta(start, start+count+newKeys, s.ZipfianConstant)
	case "latest":
		c.keys = generator.NewSkewedLatest(lastKey{c})
	case "hotspot":
		var h *generator.Hotspot
		h, c.warnings, err = generator.NewHotspot(start, start+count-1, s.HotspotDataFraction, s.HotspotOpnFraction)
		c.keys = h
	case "exponential":
		c.exponential, err = generator.NewExponential(s.ExponentialPercentile, float64(c.r)*s.ExponentialFrac)
	default:
		err = fmt.Errorf("unknown %q", s.RequestDistribution)
	}
	if err != nil {
		return nil, wrap("requestdistribution "+s.RequestDistribution, err)
	}

	switch s.FieldLengthDistribution {
	case "constant":
		c.fieldLen = generator.NewConstant(int64(s.FieldLength))
	case "uniform":
		c.fieldLen, err = generator.NewUniform(int64(s.MinFieldLength), int64(s.FieldLength))
	case "zipfian":
		c.fieldLen, err = generator.NewZipfian(int64(s.MinFieldLength), int64(s.FieldLength))
	case "histogram":
		f, ferr := os.Open(s.FieldLengthHistogram)
		if ferr != nil {
			return nil, wrap("fieldlengthhistogram", ferr)
		}
		c.fieldLen, err = generator.ParseHistogram(f, s.FieldLengthHistogram)
		f.Close()
	}
	if err != nil {
		return nil, wrap("fieldlengthdistribution "+s.FieldLengthDistribution, err)
	}

	if s.ScanLengthDistribution == "zipfian" {
		c.scanLen, err = generator.NewZipfian(int64(s.MinScanLength), int64(s.MaxScanLength))
	} else {
		c.scanLen, err = generator.NewUniform(int64(s.MinScanLength), int64(s.MaxScanLength))
	}
	if err != nil {
		return nil, wrap("scanlengthdistribution", err)
	}
	return c, nil
}

// insertKeynum maps a run-phase counter position to this client's key number.
func (c *core) insertKeynum(pos int64) int64 { return c.r + (pos-c.r)*c.clients + c.client }

// lastAcked is the newest key number below which every run-phase insert of
// this client has been acknowledged (R-1 before the first).
func (c *core) lastAcked() int64 {
	l := c.runSeq.Last()
	if l < c.r {
		return c.r - 1
	}
	return c.insertKeynum(l)
}

// The core workload as a Job.

const nameVerify = "VERIFY"

func (c *core) Ops() []string {
	n := make([]string, NumOps)
	for i := range n {
		n[i] = Op(i).String()
	}
	return n
}

func (c *core) Extra() []string    { return []string{nameVerify} }
func (c *core) Warnings() []string { return c.warnings }

func (c *core) Schema() drivers.Schema { return c.schema }

func (c *core) NewTask(id int, conn drivers.Conn, rnd *rand.Rand, m *engine.Meter) (engine.Task, error) {
	return newWorker(c, conn, rnd, m), nil
}

// lastKey adapts lastAcked as the basis of the skewed-latest chooser.
type lastKey struct{ c *core }

func (l lastKey) Last() int64 { return l.c.lastAcked() }

// nextKeynum is Java's nextKeynum: a key number that has been inserted,
// redrawing keys beyond the last acknowledged insert.
func (c *core) nextKeynum(r *rand.Rand) int64 {
	if c.exponential != nil {
		for {
			k := c.lastAcked() - c.exponential.Draw(r)
			if k >= 0 {
				return k
			}
		}
	}
	for {
		k := c.keys.Draw(r)
		if k <= c.lastAcked() {
			return k
		}
	}
}
