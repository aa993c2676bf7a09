package timeseries

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
)

// worker is one thread: Java's ThreadState (its slice of the metric keys,
// the tag value indexes of the next data point, its timestamp clock) and
// its buffers, reused for every operation.
type worker struct {
	j    *job
	conn drivers.Conn
	m    *engine.Meter
	rnd  *rand.Rand
	load bool

	keyIdx, keyStart, keyEnd int
	tagIdx                   []int
	rollover                 bool
	clk                      *clock
	startTS                  int64 // the thread's first timestamp

	vals    *drivers.Record
	out     *drivers.Record
	key     []byte
	verifyS int
	scanFn  func([]byte, *drivers.Record) error
}

func newWorker(j *job, id int, conn drivers.Conn, rnd *rand.Rand, m *engine.Meter) (*worker, error) {
	total := max(j.threads, 1)
	n := len(j.sr.keys)
	per := n / total
	w := &worker{
		j: j, conn: conn, m: m, rnd: rnd, load: j.spec.Phase == engine.Load,
		keyIdx: per * id, keyStart: per * id, keyEnd: per*id + per,
		tagIdx:  make([]int, j.spec.TagCount),
		vals:    drivers.NewRecord(len(j.schema.Fields)),
		out:     drivers.NewRecord(len(j.schema.Fields)),
		key:     make([]byte, 0, 128),
		verifyS: m.Extra(nameVerify),
	}
	if id == total-1 {
		w.keyEnd = n
	}
	w.clk = newClock(j.spec, j.sr.maxOffsets, rnd)
	// Java sets the thread's start from the first value, so that it does
	// not begin one interval early.
	var err error
	if w.startTS, err = w.clk.advance(); err != nil {
		return nil, err
	}
	w.scanFn = func([]byte, *drivers.Record) error { return nil }
	return w, nil
}

// Step runs one operation: an insert when loading, else one of the mix.
func (w *worker) Step(ctx context.Context) bool {
	if w.load {
		return w.doInsert(ctx)
	}
	switch w.j.ops.Next(w.rnd) {
	case opRead:
		w.doRead(ctx)
	case opUpdate:
		w.doWrite(ctx, opUpdate)
	case opInsert:
		return w.doInsert(ctx) || true // Java's run-phase insert never stops the thread
	case opScan:
		w.doScan(ctx)
	case opDelete:
		w.doDelete(ctx)
	}
	return true
}

// doInsert writes the next data point; a failed load insert ends the
// worker, as Java's ends the thread.
func (w *worker) doInsert(ctx context.Context) bool { return w.doWrite(ctx, opInsert) }

func (w *worker) doWrite(ctx context.Context, op int) bool {
	key, ok := w.nextDataPoint(op == opInsert)
	if !ok {
		return false // randomwritetimestamporder: no interval left (Java throws)
	}
	w.key = append(w.key[:0], key...)
	start := w.m.Now()
	var err error
	if op == opInsert {
		err = w.conn.Insert(ctx, w.j.spec.Table, w.key, w.vals)
	} else {
		err = w.conn.Update(ctx, w.j.spec.Table, w.key, w.vals)
	}
	return w.m.Measure(op, start, err).IsOK()
}

// nextDataPoint is Java's ThreadState.nextDataPoint: it fills w.vals with
// the next point of this worker's series (its tags, timestamp and value)
// and returns its metric key. Sparsity skips points; an update (insert
// false) takes a random earlier timestamp; delayed series are written
// behind the clock.
func (w *worker) nextDataPoint(insert bool) (string, bool) {
	s, sr := w.j.spec, w.j.sr
	iterations := 1
	if s.Sparsity > 0 {
		// Java: nextInt((int) (perKeyCardinality * sparsity)), which throws
		// below 1; then at least one.
		if bound := int(float64(sr.perKey) * s.Sparsity); bound >= 1 {
			iterations = w.rnd.IntN(bound)
		}
		iterations = max(iterations, 1)
	}
	for {
		iterations--
		if w.rollover {
			if _, err := w.clk.advance(); err != nil {
				return "", false
			}
			w.rollover = false
		}
		var key string
		if iterations <= 0 {
			key = sr.keys[w.keyIdx]
			w.vals.Reset()
			overall := int32(w.keyIdx) * sr.cum[0]
			for i := range w.tagIdx {
				tv := w.tagIdx[i]
				w.vals.SetBuffer(w.j.tagField[i], append(w.vals.Buffer(w.j.tagField[i]), sr.tagValues[tv]...))
				if s.DelayedSeries > 0 {
					overall += int32(tv) * sr.cum[i+1]
				}
			}
			ts := w.clk.current
			switch {
			case !insert:
				delta := (w.clk.current - w.startTS) / s.TimestampInterval
				intervals := int64(0)
				if delta >= 1 && delta <= math.MaxInt32 {
					intervals = int64(w.rnd.IntN(int(delta)))
				}
				ts = w.startTS + intervals*s.TimestampInterval
			case s.DelayedSeries > 0:
				if pct := float64(overall) / float64(sr.total); pct < s.DelayedSeries {
					modulo := overall % int32(s.DelayedIntervals)
					if modulo < 0 {
						modulo = -modulo
					}
					ts = w.clk.current - s.TimestampInterval*int64(modulo)
				}
			}
			w.setNumber(w.j.tsField, uint64(ts))
			switch {
			case s.DataIntegrity:
				w.setNumber(w.j.valField, uint64(w.validation(w.clk.current)))
			case s.ValueType == "integers" || s.ValueType == "mixednumbers" && w.rnd.IntN(2) == 0:
				w.setNumber(w.j.valField, uint64(int64(int32(w.rnd.Uint32()))))
			default:
				w.setNumber(w.j.valField, math.Float64bits(w.rnd.Float64()*100000))
			}
		}

		tagRollover := false
		for i := len(sr.tagCard) - 1; i >= 0; i-- {
			if sr.tagCard[i] <= 1 {
				tagRollover = true // only one value: rolls over every time
				continue
			}
			if w.tagIdx[i]+1 >= sr.tagCard[i] {
				w.tagIdx[i] = 0
				if i == sr.firstIncr {
					tagRollover = true
				}
			} else {
				w.tagIdx[i]++
				break
			}
		}
		if tagRollover {
			if w.keyIdx+1 >= w.keyEnd {
				w.keyIdx = w.keyStart
				w.rollover = true
			} else {
				w.keyIdx++
			}
		}
		if iterations <= 0 {
			return key, true
		}
	}
}

// setNumber stores v as field i in Java NumericByteIterator's bytes: 8,
// big-endian.
func (w *worker) setNumber(i int, v uint64) {
	w.vals.SetBuffer(i, binary.BigEndian.AppendUint64(w.vals.Buffer(i), v))
}

// validation is Java's validationFunction: the String.hashCode of the tag
// keys and values concatenated in key order, as a long, XOR the
// timestamp. (Java's comment says the key is included; its code leaves it
// out.)
func (w *worker) validation(ts int64) int64 {
	var h int32
	for _, i := range w.j.validOrder {
		v, _ := w.vals.Get(w.j.tagField[i])
		h = javaHashBytes(javaHash(h, w.j.sr.tagKeys[i]), v)
	}
	return int64(h) ^ ts
}

// javaHash continues Java's String.hashCode h over s (ASCII: one UTF-16
// unit per byte).
func javaHash(h int32, s string) int32 {
	for i := 0; i < len(s); i++ {
		h = 31*h + int32(s[i])
	}
	return h
}

func javaHashBytes(h int32, b []byte) int32 {
	for _, c := range b {
		h = 31*h + int32(c)
	}
	return h
}

// doRead reads a metric key's record (see the package doc: Java's query
// predicates do not reach gobench's drivers) and, with dataintegrity,
// verifies it as Java's verifyRow does.
func (w *worker) doRead(ctx context.Context) {
	w.key = append(w.key[:0], w.j.sr.keys[w.j.keys.Draw(w.rnd)]...)
	start := w.m.Now()
	err := w.conn.Read(ctx, w.j.spec.Table, w.key, nil, w.out)
	if st := w.m.Measure(opRead, start, err); w.j.spec.DataIntegrity && st == drivers.OK {
		w.verify()
	}
}

// verify recomputes the value from the tags and timestamp read; VERIFY is
// OK when it matches (compared as doubles, as Java does), else
// UNEXPECTED_STATE.
func (w *worker) verify() {
	start := w.m.Now()
	var ts int64
	var value float64
	var h int32
	for _, i := range w.j.validOrder {
		v, _ := w.out.Get(w.j.tagField[i])
		h = javaHashBytes(javaHash(h, w.j.sr.tagKeys[i]), v)
	}
	if b, ok := w.out.Get(w.j.tsField); ok && len(b) == 8 {
		ts = int64(binary.BigEndian.Uint64(b))
	}
	if b, ok := w.out.Get(w.j.valField); ok && len(b) == 8 {
		value = float64(int64(binary.BigEndian.Uint64(b)))
	}
	st := drivers.UnexpectedState
	if float64(int64(h)^ts) == value {
		st = drivers.OK
	}
	w.m.Sample(w.verifyS, start)
	w.m.Count(w.verifyS, st)
}

// doScan scans from a random metric key (Java chooses it uniformly, not
// with requestdistribution) for 1 to maxscanlength records.
func (w *worker) doScan(ctx context.Context) {
	w.key = append(w.key[:0], w.j.sr.keys[w.rnd.IntN(len(w.j.sr.keys))]...)
	n := int(w.j.scanLen.Draw(w.rnd))
	start := w.m.Now()
	w.m.Measure(opScan, start, w.conn.Scan(ctx, w.j.spec.Table, w.key, n, nil, w.scanFn))
}

// doDelete deletes with Java's flattened key: a random metric key, each
// tag as key=value (or the bare key when grouped), and the timestamp or
// time span, joined by deletedelimiter.
func (w *worker) doDelete(ctx context.Context) {
	w.key = append(w.key[:0], w.j.sr.keys[w.rnd.IntN(len(w.j.sr.keys))]...)
	start := w.startTime(w.rnd.IntN(int(max(w.j.sr.maxOffsets-1, 1))))
	w.key = w.appendPredicates(w.key, w.j.spec.DeleteDelimiter, start)
	t0 := w.m.Now()
	w.m.Measure(opDelete, t0, w.conn.Delete(ctx, w.j.spec.Table, w.key))
}

// startTime is the thread's start plus offsets intervals.
func (w *worker) startTime(offsets int) int64 {
	if offsets > 0 {
		return w.startTS + w.clk.offset(int64(offsets))
	}
	return w.startTS
}

// appendPredicates appends Java's query predicates (tags and time) to
// dst, each after sep.
func (w *worker) appendPredicates(dst []byte, sep string, start int64) []byte {
	s, sr := w.j.spec, w.j.sr
	for i, k := range sr.tagKeys {
		dst = append(dst, sep...)
		dst = append(dst, k...)
		if s.GroupBy != nil && s.GroupBy[i] {
			continue
		}
		dst = append(dst, s.PairDelimiter...)
		dst = append(dst, sr.tagValues[w.rnd.IntN(max(sr.tagCard[i], 1))]...)
	}
	dst = append(dst, sep...)
	dst = append(dst, s.TimestampKey...)
	dst = append(dst, s.PairDelimiter...)
	dst = strconv.AppendInt(dst, start, 10)
	if s.QueryTimeSpan > 0 {
		end := start + int64(s.QueryTimeSpan)
		if s.QueryRandomTimeSpan {
			k := 0
			if n := int64(s.QueryTimeSpan) / s.TimestampInterval; n >= 1 {
				k = w.rnd.IntN(int(n))
			}
			end = start + s.TimestampInterval*int64(k)
		}
		dst = append(dst, s.QueryTimeSpanDelimiter...)
		dst = strconv.AppendInt(dst, end, 10)
	}
	return dst
}
