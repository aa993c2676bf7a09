package core

import (
	"bytes"
	"context"
	"maps"
	"testing"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/generator"
)

// blindDB is a countingDB whose Conns declare that they never read the
// bytes of written values (drivers.ValueBytesIgnorer).
type blindDB struct{ *countingDB }

func (d blindDB) Open(context.Context) (drivers.Conn, error) {
	return blindConn{&countingConn{d.countingDB}}, nil
}

type blindConn struct{ *countingConn }

func (blindConn) IgnoresValueBytes() bool { return true }

// A Conn that ignores value bytes is given the same operations, keys,
// fields and value lengths as one that reads them, without the bytes:
// only the random bytes are skipped, not a draw of the worker's stream.
func TestValueBytesLeftForABlindConn(t *testing.T) {
	s := spec(func(s *testSpec) {
		s.OperationCount = 3000
		s.ReadProportion, s.UpdateProportion, s.InsertProportion = 0.2, 0.5, 0.3
		s.FieldLengthDistribution, s.MinFieldLength, s.FieldLength = "uniform", 1, 100
		s.RequestDistribution = "zipfian"
	})
	run := func(db drivers.DB) {
		t.Helper()
		l := s
		l.Phase = engine.Load
		mustRun(t, l, db)
		mustRun(t, s, db)
	}
	seeing, blind := newCountingDB(), newCountingDB()
	run(seeing)
	run(blindDB{blind})
	for _, op := range []string{"read", "update", "insert"} {
		if seeing.ops[op] == 0 || !maps.Equal(seeing.keys[op], blind.keys[op]) {
			t.Errorf("%s: %d and %d calls, not the same keys for both Conns", op, seeing.ops[op], blind.ops[op])
		}
	}
	if len(seeing.data) != len(blind.data) {
		t.Fatalf("%d and %d records", len(seeing.data), len(blind.data))
	}
	same := 0
	for k, rec := range seeing.data {
		brec := blind.data[k]
		if len(rec) != len(brec) {
			t.Fatalf("record %s: %d and %d fields", k, len(rec), len(brec))
		}
		for i, v := range rec {
			b, ok := brec[i]
			if !ok || len(b) != len(v) {
				t.Fatalf("record %s field %d: %d bytes and %d (present %v), want equal lengths", k, i, len(v), len(b), ok)
			}
			if bytes.Equal(v, b) {
				same++
			}
			for j, c := range v {
				if c < ' ' || c > ' '+95 {
					t.Fatalf("record %s field %d byte %d = %#x: not one of Java's value bytes", k, i, j, c)
				}
			}
		}
	}
	// The blind buffers were never written, so they hold zeros, which is
	// none of Java's value bytes.
	if same > 0 {
		t.Errorf("%d of the blind Conn's values equal the seeing one's: the bytes were made", same)
	}
}

// The blind path allocates nothing either.
func TestBlindWorkerStepAllocatesNothing(t *testing.T) {
	s := spec(func(s *testSpec) {
		s.ReadProportion, s.UpdateProportion, s.InsertProportion = 1, 1, 1
		s.WriteAllFields = true
	})
	c, err := newCore(s.Spec)
	if err != nil {
		t.Fatal(err)
	}
	w := newWorker(c, blindNop{}, generator.NewRand(1, 0), engine.NewMeter(s.Settings, c))
	if !w.blind {
		t.Fatal("worker not blind with a Conn that ignores value bytes")
	}
	ctx := context.Background()
	for range 1000 {
		w.doTransaction(ctx)
	}
	if a := testing.AllocsPerRun(1000, func() { w.doTransaction(ctx) }); a != 0 {
		t.Errorf("doTransaction allocates %v per op, want 0", a)
	}
}

type blindNop struct{ driverstest.NopConn }

func (blindNop) IgnoresValueBytes() bool { return true }
