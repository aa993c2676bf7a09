package core

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/generator"
)

// testSpec is what a run of the core workload is given: its Spec and the
// engine's settings, as the kind's Build makes them from properties.
type testSpec struct {
	Spec
	engine.Settings
}

func spec(mod func(*testSpec)) testSpec {
	s := testSpec{Spec: DefaultSpec(), Settings: engine.DefaultSettings()}
	s.RecordCount = 1000
	s.OperationCount = 1000
	s.Seed, s.SeedSet = 42, true
	if mod != nil {
		mod(&s)
	}
	return s
}

// newRunner builds the core job as the kind's Build does and its runner.
func newRunner(t testing.TB, s testSpec, db drivers.DB) *engine.Runner {
	t.Helper()
	if err := s.Spec.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	cs := s.Spec.ClientSlice()
	set := s.Settings
	if cs.Phase == engine.Load {
		set.Ops = cs.LoadOps()
	} else {
		set.Ops = cs.OperationCount
	}
	job, err := newCore(cs)
	if err != nil {
		t.Fatalf("newCore: %v", err)
	}
	r, err := engine.New(set, job, db)
	if err != nil {
		t.Fatalf("engine.New: %v", err)
	}
	return r
}

func mustRun(t *testing.T, s testSpec, db drivers.DB) *engine.Result {
	t.Helper()
	res, err := newRunner(t, s, db).Run(context.Background())
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

func loadAndRun(t *testing.T, s testSpec) (*countingDB, *engine.Result) {
	t.Helper()
	db := newCountingDB()
	l := s
	l.Phase = engine.Load
	mustRun(t, l, db)
	db.ops, db.keys = map[string]int{}, map[string]map[string]int{}
	return db, mustRun(t, s, db)
}

// Workload C on 1000 records: the hottest key is key number 144 with about
// 3.9 % of reads (Java's scrambled zipfian folds 10^10 ranks onto the keys).
func TestWorkloadCHottestKey(t *testing.T) {
	s := spec(func(s *testSpec) {
		s.OperationCount = 200000
		s.ReadProportion, s.UpdateProportion = 1, 0
		s.RequestDistribution = "zipfian"
		s.Threads = 4
	})
	db, _ := loadAndRun(t, s)
	hot := string(generator.AppendKey(nil, 144, true, 1))
	reads := db.ops["read"]
	if reads != 200000 {
		t.Fatalf("reads = %d, want 200000", reads)
	}
	share := float64(db.keys["read"][hot]) / float64(reads)
	if math.Abs(share-0.039) > 0.004 {
		t.Errorf("key 144 (%s) got %.2f %% of reads, want 3.9 %% ± 0.4", hot, 100*share)
	}
	best, bestN := "", 0
	for k, n := range db.keys["read"] {
		if n > bestN {
			best, bestN = k, n
		}
	}
	if best != hot {
		t.Errorf("hottest key = %s (%d reads), want %s", best, bestN, hot)
	}
}

func TestLoadInsertsEveryKeyOnce(t *testing.T) {
	s := spec(func(s *testSpec) { s.Phase = engine.Load; s.Threads = 7 })
	db := newCountingDB()
	res := mustRun(t, s, db)
	if len(db.data) != 1000 || db.ops["insert"] != 1000 || res.Ops != 1000 {
		t.Fatalf("load: %d records, %d inserts, %d ops; want 1000 each", len(db.data), db.ops["insert"], res.Ops)
	}
	for k := int64(0); k < 1000; k++ {
		if _, ok := db.data[string(generator.AppendKey(nil, k, true, 1))]; !ok {
			t.Fatalf("key number %d missing", k)
		}
	}
}

func TestOpMix(t *testing.T) {
	s := spec(func(s *testSpec) {
		s.OperationCount = 20000
		s.ReadProportion, s.UpdateProportion, s.ScanProportion, s.DeleteProportion = 0.5, 0.25, 0.5, 0.25 // relative weights
	})
	db, res := loadAndRun(t, s)
	total := float64(res.Ops)
	for op, want := range map[string]float64{"read": 1.0 / 3, "update": 1.0 / 6, "scan": 1.0 / 3, "delete": 1.0 / 6} {
		got := float64(db.ops[op]) / total
		if math.Abs(got-want) > 0.02 {
			t.Errorf("%s share = %.3f, want %.3f ± 0.02", op, got, want)
		}
	}
}

// Keys inserted during the run must never be read before they are
// acknowledged: with zipfian and inserts no read hits a missing key.
func TestNoReadOfUnacknowledgedKeys(t *testing.T) {
	for _, dist := range []string{"zipfian", "latest", "exponential", "uniform", "hotspot", "sequential"} {
		t.Run(dist, func(t *testing.T) {
			s := spec(func(s *testSpec) {
				s.OperationCount = 5000
				s.Threads = 8
				s.ReadProportion, s.UpdateProportion, s.InsertProportion = 0.5, 0, 0.5
				s.RequestDistribution = dist
			})
			_, res := loadAndRun(t, s)
			read := res.Snapshot.Lookup("READ")
			if read == nil {
				t.Fatal("no READ series")
			}
			if nf := read.Codes[drivers.NotFound]; nf != 0 {
				t.Errorf("%d reads were NOT_FOUND", nf)
			}
		})
	}
}

func TestThreadClamp(t *testing.T) {
	s := spec(func(s *testSpec) { s.OperationCount = 10; s.Threads = 50 })
	r := newRunner(t, s, newCountingDB())
	if r.Threads() != 10 || r.Total() != 10 {
		t.Errorf("threads = %d, total %d for 10 ops, want 10 and 10 (Java's clamp)", r.Threads(), r.Total())
	}
}

func TestFailedOpsAreCountedApart(t *testing.T) {
	s := spec(func(s *testSpec) { s.ReadProportion, s.UpdateProportion = 0.5, 0.5 })
	db := newCountingDB()
	l := s
	l.Phase = engine.Load
	mustRun(t, l, db)
	db.failOp = "update"
	res := mustRun(t, s, db)
	up, failed := res.Snapshot.Lookup("UPDATE"), res.Snapshot.Lookup("UPDATE-FAILED")
	if up == nil || failed == nil {
		t.Fatal("missing UPDATE or UPDATE-FAILED series")
	}
	if up.Count() != 0 || failed.Count() == 0 || up.Codes[drivers.Error] != failed.Count() {
		t.Errorf("UPDATE count %d, UPDATE-FAILED count %d, Return=ERROR %d: want 0, >0 and equal to the failed count",
			up.Count(), failed.Count(), up.Codes[drivers.Error])
	}
	if res.Ops != 1000 {
		t.Errorf("ops = %d, want 1000 (failed ops count too)", res.Ops)
	}
}

func TestDataIntegrityVerifies(t *testing.T) {
	s := spec(func(s *testSpec) { s.DataIntegrity = true; s.ReadProportion, s.UpdateProportion = 0.7, 0.3 })
	_, res := loadAndRun(t, s)
	v := res.Snapshot.Lookup("VERIFY")
	if v == nil || v.Codes[drivers.OK] == 0 || v.Codes[drivers.UnexpectedState] != 0 || v.Codes[drivers.Error] != 0 {
		t.Fatalf("VERIFY codes = %v, want only OK", v)
	}
}

func TestMaxExecutionTimeStops(t *testing.T) {
	s := spec(func(s *testSpec) { s.OperationCount = 0; s.MaxExecutionTime = 300 * time.Millisecond; s.Target = 1000 })
	_, res := loadAndRun(t, s)
	if res.Stopped != "maxexecutiontime" {
		t.Errorf("Stopped = %q, want maxexecutiontime", res.Stopped)
	}
	if res.RunTime > 5*time.Second || res.Ops == 0 {
		t.Errorf("run time %v with %d ops; want about 0.3 s and some ops", res.RunTime, res.Ops)
	}
}

func TestCancelKeepsReport(t *testing.T) {
	s := spec(func(s *testSpec) { s.OperationCount = 0; s.Threads = 4 })
	db := newCountingDB()
	r := newRunner(t, s, db)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	res, err := r.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped != "interrupted" || res.Ops == 0 {
		t.Errorf("Stopped=%q Ops=%d, want interrupted with some ops", res.Stopped, res.Ops)
	}
	var counted int64
	for _, name := range []string{"READ", "UPDATE"} {
		if se := res.Snapshot.Lookup(name); se != nil {
			for _, n := range se.Codes {
				counted += n
			}
		}
	}
	if counted != res.Ops {
		t.Errorf("return codes add up to %d, ops %d: every operation must be counted", counted, res.Ops)
	}
}

func TestTargetPacesTheRun(t *testing.T) {
	s := spec(func(s *testSpec) {
		s.OperationCount = 200
		s.Target = 1000
		s.Threads = 2
		s.MeasurementInterval = "both"
	})
	_, res := loadAndRun(t, s)
	// 200 ops at 1000/s take about 0.2 s; generous bounds for a busy machine.
	if res.RunTime < 150*time.Millisecond || res.RunTime > 3*time.Second {
		t.Errorf("run time %v for 200 ops at 1000/s, want about 200ms", res.RunTime)
	}
	if res.Snapshot.Lookup("Intended-READ") == nil {
		t.Error("no Intended-READ series with measurement.interval=both")
	}
}

func TestMultiClientRunInsertsAreDisjoint(t *testing.T) {
	seen := map[string]int{}
	for client := 0; client < 3; client++ {
		s := spec(func(s *testSpec) {
			s.Clients, s.Client = 3, client
			s.InsertProportion, s.ReadProportion, s.UpdateProportion = 1, 0, 0
			s.OperationCount = 300
		})
		db := newCountingDB()
		mustRun(t, s, db)
		for k := range db.keys["insert"] {
			seen[k]++
		}
	}
	if len(seen) != 900 {
		t.Errorf("3 clients x 300 inserts made %d distinct keys, want 900", len(seen))
	}
	for k, n := range seen {
		if n > 1 {
			t.Fatalf("key %s inserted by %d clients", k, n)
		}
	}
}

func TestWorkerStepAllocatesNothing(t *testing.T) {
	s := spec(func(s *testSpec) {
		s.ReadProportion, s.UpdateProportion, s.ScanProportion, s.ReadModifyWriteProportion = 1, 1, 1, 1
		s.RequestDistribution = "zipfian"
	})
	w := testWorker(t, s)
	ctx := context.Background()
	for i := 0; i < 1000; i++ { // warm buffers and histograms
		w.doTransaction(ctx)
	}
	if a := testing.AllocsPerRun(1000, func() { w.doTransaction(ctx) }); a != 0 {
		t.Errorf("doTransaction allocates %v per op, want 0", a)
	}
}

func BenchmarkWorkerStep(b *testing.B) {
	s := spec(func(s *testSpec) { s.ReadProportion, s.UpdateProportion = 0.5, 0.5; s.RequestDistribution = "zipfian" })
	w := testWorker(b, s)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		w.doTransaction(ctx)
	}
}

func testWorker(t testing.TB, s testSpec) *worker {
	c, err := newCore(s.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return newWorker(c, driverstest.NopConn{}, generator.NewRand(1, 0), engine.NewMeter(s.Settings, c))
}

// Four clients loading together write disjoint slices whose union is
// exactly recordcount.
func TestMultiClientLoadSlices(t *testing.T) {
	seen := map[string]int{}
	for client := 0; client < 4; client++ {
		s := spec(func(s *testSpec) { s.Phase, s.RecordCount, s.Clients, s.Client = engine.Load, 1001, 4, client })
		db := newCountingDB()
		mustRun(t, s, db)
		for k := range db.keys["insert"] {
			seen[k]++
		}
	}
	if len(seen) != 1001 {
		t.Fatalf("4 clients loaded %d distinct keys, want 1001", len(seen))
	}
	for k := int64(0); k < 1001; k++ {
		key := string(generator.AppendKey(nil, k, true, 1))
		if seen[key] != 1 {
			t.Fatalf("key number %d written %d times, want once", k, seen[key])
		}
	}
}

// Operations during the warm-up run but are not in the report.
func TestWarmupExcluded(t *testing.T) {
	s := spec(func(s *testSpec) {
		s.OperationCount = 0
		s.Target = 2000
		s.Warmup = 300 * time.Millisecond
		s.MaxExecutionTime = 300 * time.Millisecond
	})
	db, res := loadAndRun(t, s)
	executed := int64(db.ops["read"] + db.ops["update"])
	if res.Ops == 0 || res.Ops >= executed {
		t.Fatalf("reported %d ops of %d executed; want the warm-up's excluded", res.Ops, executed)
	}
	if res.RunTime < 200*time.Millisecond || res.RunTime > 3*time.Second {
		t.Errorf("RunTime %v, want about the 300 ms after the warm-up", res.RunTime)
	}
	var counted int64
	for _, n := range []string{"READ", "UPDATE"} {
		if se := res.Series(n); se != nil {
			for _, c := range se.Codes {
				counted += c
			}
		}
	}
	if counted != res.Ops {
		t.Errorf("the report counts %d return codes for %d ops", counted, res.Ops)
	}
}

// A load with a warm-up inserts exactly its key range: the warm-up's inserts
// count toward the load (issue 17, defect 1: it wrote 2999 of 1000).
func TestLoadWithWarmupInsertsExactlyTheKeyRange(t *testing.T) {
	s := spec(func(s *testSpec) {
		s.Phase = engine.Load
		s.Threads = 4
		s.Target = 4000 // 1000 inserts take about 250 ms, half of them in the warm-up
		s.Warmup = 120 * time.Millisecond
	})
	db := newCountingDB()
	res := mustRun(t, s, db)
	if len(db.data) != 1000 || db.ops["insert"] != 1000 {
		t.Fatalf("load with warm-up: %d records, %d inserts; want exactly 1000", len(db.data), db.ops["insert"])
	}
	if res.Ops == 0 || res.Ops >= 1000 {
		t.Errorf("report counts %d inserts; want those after the warm-up only (0 < n < 1000)", res.Ops)
	}
	for k := int64(0); k < 1000; k++ {
		if _, ok := db.data[string(generator.AppendKey(nil, k, true, 1))]; !ok {
			t.Fatalf("key number %d missing", k)
		}
	}
}
