package core

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/generator"
)

// worker is one client thread: it owns its RNG, buffers, Conn and recorder,
// so the per-operation path takes no lock and allocates nothing.
type worker struct {
	c     *core
	conn  drivers.Conn
	m     *engine.Meter
	rnd   *rand.Rand
	vrnd  valueRand // value bytes
	blind bool      // the Conn never reads value bytes (drivers.ValueBytesIgnorer): none are made
	load  bool      // load phase: Step inserts

	key     []byte
	vals    *drivers.Record // values to write
	out     *drivers.Record // read results
	expect  []byte          // dataintegrity comparison buffer
	rows    int             // rows seen by the current scan
	scanFn  func(key []byte, r *drivers.Record) error
	verifyS int // VERIFY series
	perRecS int // SCAN-LATENCY-PER-RECORD series, -1 when not recorded
}

func newWorker(c *core, conn drivers.Conn, rnd *rand.Rand, m *engine.Meter) *worker {
	n := c.spec.FieldCount
	w := &worker{
		c: c, conn: conn, m: m, rnd: rnd, load: c.spec.Phase == engine.Load,
		key:     make([]byte, 0, 32),
		vals:    drivers.NewRecord(n),
		out:     drivers.NewRecord(n),
		verifyS: m.Extra(nameVerify),
		perRecS: m.Extra(engine.NameScanLatencyPerRecord),
	}
	w.vrnd = newValueRand(rnd)
	if ig, ok := conn.(drivers.ValueBytesIgnorer); ok {
		w.blind = ig.IgnoresValueBytes()
	}
	w.scanFn = func([]byte, *drivers.Record) error { w.rows++; return nil }
	return w
}

// Step runs one operation: an insert when loading, else one of the mix.
func (w *worker) Step(ctx context.Context) bool {
	if w.load {
		return w.doInsert(ctx)
	}
	w.doTransaction(ctx)
	return true
}

func (w *worker) now() time.Duration { return w.m.Now() }

func (w *worker) measure(op Op, start time.Duration, err error) drivers.Status {
	return w.m.Measure(int(op), start, err)
}

func (w *worker) buildKey(keynum int64) {
	w.key = generator.AppendKey(w.key[:0], keynum, w.c.spec.InsertOrderHashed, w.c.spec.ZeroPadding)
}

// fillValues prepares the values of a write: every field, or one random one.
func (w *worker) fillValues(all bool) {
	w.vals.Reset()
	if all {
		for i := range w.c.schema.Fields {
			w.fillField(i)
		}
		return
	}
	w.fillField(w.rnd.IntN(len(w.c.schema.Fields)))
}

func (w *worker) fillField(i int) {
	n := int(w.c.fieldLen.Draw(w.rnd))
	b := w.vals.Buffer(i)
	switch {
	case w.c.spec.DataIntegrity:
		b = appendIntegrityValue(b, w.key, w.c.schema.Fields[i], n)
	case w.blind:
		b = slices.Grow(b, n)[:n] // the length drawn, the bytes left as they are
	default:
		b = appendRandomValue(b, &w.vrnd, n)
	}
	w.vals.SetBuffer(i, b)
}

// readFields is the field set of a read: one random field, an explicit list of
// all (dataintegrity, readallfieldsbyname), or nil for all.
func (w *worker) readFields() drivers.FieldSet {
	s := w.c.spec
	switch {
	case !s.ReadAllFields:
		return w.c.oneField[w.rnd.IntN(len(w.c.oneField))]
	case s.DataIntegrity || s.ReadAllFieldsByName:
		return w.c.allFields
	}
	return nil
}

// scanFields is the field set of scans and read-modify-write reads.
func (w *worker) scanFields() drivers.FieldSet {
	if !w.c.spec.ReadAllFields {
		return w.c.oneField[w.rnd.IntN(len(w.c.oneField))]
	}
	return nil
}

// doInsert is the load phase's operation. It reports whether the thread
// should go on (Java stops a thread whose insert finally failed).
func (w *worker) doInsert(ctx context.Context) (ok bool) {
	s := w.c.spec
	w.buildKey(w.c.loadSeq.Next(w.rnd))
	w.fillValues(true)
	for attempt := 0; ; attempt++ {
		start := w.now()
		err := w.conn.Insert(ctx, s.Table, w.key, w.vals)
		st := w.measure(OpInsert, start, err)
		if st.IsOK() {
			return true
		}
		if ctx.Err() != nil || attempt >= s.InsertionRetryLimit {
			return s.KeepGoingOnError
		}
		// Sleep interval x U[0.8, 1.2), then retry the same key and values.
		d := time.Duration(float64(s.InsertionRetryInterval) * (0.8 + 0.4*w.rnd.Float64()))
		select {
		case <-ctx.Done():
			return false
		case <-time.After(d):
		}
	}
}

// doTransaction runs one operation of the mix.
func (w *worker) doTransaction(ctx context.Context) {
	switch Op(w.c.ops.Next(w.rnd)) {
	case OpRead:
		w.doRead(ctx)
	case OpUpdate:
		w.doUpdate(ctx)
	case OpInsert:
		w.doRunInsert(ctx)
	case OpScan:
		w.doScan(ctx)
	case OpReadModifyWrite:
		w.doReadModifyWrite(ctx)
	case OpDelete:
		w.doDelete(ctx)
	}
}

func (w *worker) doRead(ctx context.Context) {
	w.buildKey(w.c.nextKeynum(w.rnd))
	fields := w.readFields()
	start := w.now()
	err := w.conn.Read(ctx, w.c.spec.Table, w.key, fields, w.out)
	st := w.measure(OpRead, start, err)
	if w.c.spec.DataIntegrity && st == drivers.OK {
		w.verify()
	}
}

// verify compares every field read with the value dataintegrity wrote, timed
// as VERIFY and counted OK, UNEXPECTED_STATE (a mismatch) or ERROR (nothing).
func (w *worker) verify() {
	start := w.now()
	st := drivers.OK
	if w.out.Count() == 0 {
		st = drivers.Error
	} else {
		for i, name := range w.c.schema.Fields {
			got, ok := w.out.Get(i)
			if !ok {
				st = drivers.UnexpectedState
				break
			}
			w.expect = appendIntegrityValue(w.expect[:0], w.key, name, len(got))
			if len(got) != w.c.spec.FieldLength || !bytes.Equal(got, w.expect) {
				st = drivers.UnexpectedState
				break
			}
		}
	}
	w.m.Sample(w.verifyS, start)
	w.m.Count(w.verifyS, st)
}

func (w *worker) doUpdate(ctx context.Context) {
	w.buildKey(w.c.nextKeynum(w.rnd))
	w.fillValues(w.c.spec.WriteAllFields)
	start := w.now()
	w.measure(OpUpdate, start, w.conn.Update(ctx, w.c.spec.Table, w.key, w.vals))
}

func (w *worker) doRunInsert(ctx context.Context) {
	pos := w.c.runSeq.Next(w.rnd)
	w.buildKey(w.c.insertKeynum(pos))
	w.fillValues(true)
	start := w.now()
	w.measure(OpInsert, start, w.conn.Insert(ctx, w.c.spec.Table, w.key, w.vals))
	// Acknowledged even when the insert failed, as in Java, so that one
	// failure does not freeze the set of readable keys.
	if err := w.c.runSeq.Acknowledge(pos); err != nil {
		w.m.Count(w.m.Plain(int(OpInsert)), drivers.UnexpectedState)
	}
}

func (w *worker) doScan(ctx context.Context) {
	w.buildKey(w.c.nextKeynum(w.rnd))
	n := int(w.c.scanLen.Draw(w.rnd))
	fields := w.scanFields()
	w.rows = 0
	start := w.now()
	err := w.conn.Scan(ctx, w.c.spec.Table, w.key, n, fields, w.scanFn)
	if w.perRecS < 0 {
		w.measure(OpScan, start, err)
		return
	}
	// YCSB master's SCAN-LATENCY-PER-RECORD: the scan's whole microseconds
	// divided by its rows (Java throws on a scan of no rows; none is
	// recorded here).
	end := w.now()
	w.m.MeasureSpan(int(OpScan), start, end, w.m.Intended(), err)
	if w.rows > 0 {
		us := int64((end-start)/time.Microsecond) / int64(w.rows)
		w.m.SampleValue(w.perRecS, time.Duration(us)*time.Microsecond)
	}
}

func (w *worker) doReadModifyWrite(ctx context.Context) {
	w.buildKey(w.c.nextKeynum(w.rnd))
	fields := w.scanFields()
	w.fillValues(w.c.spec.WriteAllFields)
	start := w.now()
	err := w.conn.Read(ctx, w.c.spec.Table, w.key, fields, w.out)
	st := w.measure(OpRead, start, err)
	if w.c.spec.DataIntegrity && st == drivers.OK {
		w.verify()
	}
	ustart := w.now()
	err = w.conn.Update(ctx, w.c.spec.Table, w.key, w.vals)
	w.measure(OpUpdate, ustart, err)
	w.m.Sample(w.m.Plain(int(OpReadModifyWrite)), start)
}

func (w *worker) doDelete(ctx context.Context) {
	w.buildKey(w.c.nextKeynum(w.rnd))
	start := w.now()
	w.measure(OpDelete, start, w.conn.Delete(ctx, w.c.spec.Table, w.key))
}
