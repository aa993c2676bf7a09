package kafkaperf

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/generator"
)

// TestLinesRoundAsJavaPrintf: the numbers in the lines are Java's %.Nf,
// which rounds the shortest decimal digits (Double.toString's) half up, not
// the exact binary value: Java 17's printf("%.2f") gives 1.01 for 1.005
// (1.00499999... in binary) and 10.00 for 9.995, %.1f gives -0.0 for -0.04.
func TestLinesRoundAsJavaPrintf(t *testing.T) {
	s := ProducerSummary{Records: 1000, Bytes: 1000 * 100, Elapsed: 8 * time.Second, AvgMs: 1.005, MaxMs: 9.995, RateDecimals: 1}
	if want := "1000 records sent, 125.0 records/sec (0.01 MB/sec), 1.01 ms avg latency, 10.00 ms max latency, 0 ms 50th, 0 ms 95th, 0 ms 99th, 0 ms 99.9th."; s.Line() != want {
		t.Errorf("summary line\n got %s\nwant %s", s.Line(), want)
	}
	w := ProducerWindowLine(3, 300, time.Second, 0.15, 2.675)
	if want := "3 records sent, 3.0 records/sec (0.00 MB/sec), 0.2 ms avg latency, 2.7 ms max latency."; w != want {
		t.Errorf("window line\n got %s\nwant %s", w, want)
	}
	m := MetricsTable([]Metric{{Name: "producer-metrics:x:{}", Value: 1.0005}})
	if want := "producer-metrics:x:{} : 1.001"; m[len(m)-1] != want {
		t.Errorf("metrics line %q, want %q", m[len(m)-1], want)
	}
	for v, want := range map[float64]string{nan(): "NaN", inf(1): "Infinity", inf(-1): "-Infinity"} {
		if m := MetricsTable([]Metric{{Name: "a", Value: v}}); m[len(m)-1] != "a : "+want {
			t.Errorf("metric %v printed %q, want %q", v, m[len(m)-1], "a : "+want)
		}
	}
}

func nan() float64 { z := 0.0; return z / z }
func inf(s int) float64 {
	z := 0.0
	return float64(s) / z
}

// Kafka's formats, as scripts parse them.
var (
	windowRe  = regexp.MustCompile(`^\d+ records sent, \d+\.\d records/sec \(\d+\.\d\d MB/sec\), \d+\.\d ms avg latency, \d+\.\d ms max latency\.$`)
	summaryRe = regexp.MustCompile(`^\d+ records sent, \d+\.\d+ records/sec \(\d+\.\d\d MB/sec\), \d+\.\d\d ms avg latency, \d+\.\d\d ms max latency, \d+ ms 50th, \d+ ms 95th, \d+ ms 99th, \d+ ms 99\.9th\.$`)
	rowRe     = regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}, \d+\.\d{4}, \d+\.\d{4}, \d+, \d+\.\d{4}, \d+, \d+, \d+\.\d{4}, \d+\.\d{4}$`)
)

func TestKafkaLines(t *testing.T) {
	w := ProducerWindowLine(51651, 51651*1024, 5001*time.Millisecond, 2.7, 63)
	if want := "51651 records sent, 10328.1 records/sec (10.09 MB/sec), 2.7 ms avg latency, 63.0 ms max latency."; w != want {
		t.Errorf("window line\n got %s\nwant %s", w, want)
	}
	s := ProducerSummary{Records: 30000, Bytes: 30000 * 1000, Elapsed: 150020 * time.Millisecond, AvgMs: 1.26, MaxMs: 205,
		P50: 1, P95: 2, P99: 2, P999: 14, RateDecimals: -1}
	if want := "30000 records sent, 199.973337 records/sec (0.19 MB/sec), 1.26 ms avg latency, 205.00 ms max latency, 1 ms 50th, 2 ms 95th, 2 ms 99th, 14 ms 99.9th."; s.Line() != want {
		t.Errorf("summary line\n got %s\nwant %s", s.Line(), want)
	}
	s.RateDecimals = 1
	if !summaryRe.MatchString(s.Line()) || !windowRe.MatchString(w) {
		t.Errorf("lines do not match Kafka's formats: %q %q", s.Line(), w)
	}
	start := time.Date(2023, 2, 7, 17, 53, 25, 127e6, time.Local)
	end := start.Add(3291 * time.Millisecond)
	row := ConsumerSummaryRow(start, end, 3446*1000, 3446, 3222*time.Millisecond)
	if want := "2023-02-07 17:53:25:127, 2023-02-07 17:53:28:418, 3.2864, 0.9986, 3446, 1047.0981, 3222, 69, 47.6284, 49942.0290"; row != want {
		t.Errorf("consumer row\n got %s\nwant %s", row, want)
	}
	if !rowRe.MatchString(row) {
		t.Errorf("row %q does not match", row)
	}
	d := ConsumerDetailRow(end, 2<<20, 2000, 1<<20, 1000, time.Second, 0)
	if want := "2023-02-07 17:53:28:418, 0, 2.0000, 1.0000, 2000, 1000.0000, 0, 1000, 1.0000, 1000.0000"; d != want {
		t.Errorf("detail row\n got %s\nwant %s", d, want)
	}
	if d := ConsumerDetailRow(end, 0, 0, 0, 0, time.Second, time.Second); d[len(d)-16:] != "0.0000, 0.0000" && !regexp.MustCompile(`, 1000, 0, 0\.0000, 0\.0000$`).MatchString(d) {
		t.Errorf("detail row with only rebalance time = %q, want fetch rates 0.0000", d)
	}
}

func TestKafkaThrottleKeepsTheRate(t *testing.T) {
	// Simulated clock: each send takes no time, sleeps advance the clock.
	for _, target := range []float64{10, 1000, 50000} {
		thr := newKafkaThrottle(target, 0)
		var now time.Duration
		sleeps := 0
		n := int64(target * 3) // three seconds' worth
		for i := int64(0); i < n; i++ {
			if thr.should(i+1, now) {
				if d := thr.owed(); d > 0 {
					if d < kafkaMinSleep {
						t.Fatalf("target %v: slept %v, below the 2 ms granularity", target, d)
					}
					now += d
					sleeps++
				}
			}
			now += time.Microsecond
		}
		rate := float64(n) / now.Seconds()
		if rate > target*1.05 || rate < target*0.9 {
			t.Errorf("target %v records/s: simulated rate %.1f (%d records in %v), want within -10%%/+5%%", target, rate, n, now)
		}
	}
	un := newKafkaThrottle(-1, 0)
	if un.should(1e9, time.Millisecond) {
		t.Error("throughput -1 throttles")
	}
	zero := newKafkaThrottle(0, 0)
	if !zero.should(1, time.Millisecond) || zero.owed() != -1 {
		t.Error("throughput 0 does not block")
	}
}

func TestLoadPayloads(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "p.txt")
	os.WriteFile(f, []byte("a,b,,c,\n"), 0o644)
	p, abs, err := LoadPayloads(f, ",")
	if err != nil || len(p) != 5 || string(p[3]) != "c" || string(p[4]) != "\n" || abs != f {
		t.Errorf("LoadPayloads(%q, \",\") = %q, %q, %v", f, p, abs, err)
	}
	p, _, err = LoadPayloads(f, `[,\n]+`)
	if err != nil || len(p) != 3 {
		t.Errorf("regexp delimiter: %q, %v; want [a b c]", p, err)
	}
	os.WriteFile(f, nil, 0o644)
	if _, _, err := LoadPayloads(f, "\n"); err == nil {
		t.Error("empty payload file accepted")
	}
	if _, _, err := LoadPayloads(filepath.Join(dir, "missing"), "\n"); err == nil {
		t.Error("missing payload file accepted")
	}
}

// streamDB is a fake stream backend: produce acknowledges asynchronously
// (failing every failEvery-th record), consume hands out n records.
type streamDB struct {
	mu        sync.Mutex
	produced  int
	failEvery int
	left      int
}

func (d *streamDB) Open(context.Context) (drivers.Conn, error) { return &streamConn{d: d}, nil }
func (d *streamDB) Close() error                               { return nil }

type streamConn struct {
	driverstest.UnsupportedConn
	d  *streamDB
	wg sync.WaitGroup
}

func (c *streamConn) Produce(_ context.Context, _ string, _, value []byte, tag int64, done func(int64, error)) error {
	c.d.mu.Lock()
	c.d.produced++
	fail := c.d.failEvery > 0 && c.d.produced%c.d.failEvery == 0
	c.d.mu.Unlock()
	c.wg.Go(func() {
		time.Sleep(100 * time.Microsecond)
		if fail {
			done(tag, errors.New("broker says no"))
			return
		}
		done(tag, nil)
	})
	return nil
}

func (c *streamConn) Flush(context.Context) error { c.wg.Wait(); return nil }
func (c *streamConn) Close(context.Context) error { c.wg.Wait(); return nil }

func (c *streamConn) Consume(ctx context.Context, _ string, fn func(k, v []byte)) error {
	c.d.mu.Lock()
	ok := c.d.left > 0
	c.d.left--
	c.d.mu.Unlock()
	if !ok {
		<-ctx.Done()
		return ctx.Err()
	}
	fn([]byte("key"), make([]byte, 10))
	return nil
}

// settings returns the engine settings of a run of n records on threads
// workers.
func settings(n int64, threads int) engine.Settings {
	s := engine.DefaultSettings()
	s.Ops, s.Threads = n, threads
	return s
}

func rnd(id int) *rand.Rand { return generator.NewRand(1, uint64(id)) }

func TestProduceCountsAcknowledgements(t *testing.T) {
	db := &streamDB{failEvery: 10}
	set := settings(1000, 3)
	cfg := DefaultProduceConfig()
	cfg.Topic, cfg.RecordSize, cfg.BufferMemory = "t", 50, 20*50 // 20 records in flight
	job := NewProduce(set.Threads, set.Ops, cfg)
	r, err := engine.New(set, job, db)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	s := res.Snapshot.Lookup(NameProduce)
	failed := res.Snapshot.Lookup(NameProduce + "-FAILED")
	if s == nil || failed == nil {
		t.Fatalf("no PRODUCE or PRODUCE-FAILED series")
	}
	ok, bad := s.Codes[drivers.OK], s.Codes[drivers.Error]
	if db.produced != 1000 || ok != 900 || bad != 100 {
		t.Errorf("produced %d, OK %d, ERROR %d; want 1000, 900, 100", db.produced, ok, bad)
	}
	if rec, b := job.Acked(); rec != 900 || b != 900*50 {
		t.Errorf("Acked() = %d records, %d bytes; want 900, 45000", rec, b)
	}
	if s.MinMicros < 100 {
		t.Errorf("min latency %d µs, want at least the fake's 100 µs", s.MinMicros)
	}
}

func TestProduceThroughputIsThrottled(t *testing.T) {
	set := settings(300, 1)
	cfg := DefaultProduceConfig()
	cfg.Topic, cfg.Throughput = "t", 1000
	r, _ := engine.New(set, NewProduce(set.Threads, set.Ops, cfg), &streamDB{})
	res, err := r.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// 300 records at 1000/s take about 0.3 s; generous bounds for a busy CI.
	if res.RunTime < 250*time.Millisecond || res.RunTime > 3*time.Second {
		t.Errorf("300 records at --throughput 1000 took %v, want about 300 ms", res.RunTime)
	}
}

func TestConsumeStopsAtTimeout(t *testing.T) {
	db := &streamDB{left: 25}
	job := NewConsume(ConsumeConfig{Topic: "t", Timeout: 200 * time.Millisecond})
	r, _ := engine.New(settings(100, 1), job, db)
	res, err := r.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if n, b := job.Consumed(); n != 25 || b != 25*13 || !job.TimedOut() {
		t.Errorf("consumed %d records, %d bytes, timed out %v; want 25, 325, true", n, b, job.TimedOut())
	}
	if res.RunTime < 200*time.Millisecond || res.RunTime > 5*time.Second {
		t.Errorf("run took %v, want the 200 ms timeout plus a little", res.RunTime)
	}
}

func TestStreamJobsRefuseOtherDrivers(t *testing.T) {
	for _, job := range []engine.Job{NewProduce(1, 10, DefaultProduceConfig()), NewConsume(ConsumeConfig{Timeout: time.Second})} {
		r, _ := engine.New(settings(10, 1), job, driverstest.NopDB{})
		if _, err := r.Run(t.Context()); err == nil {
			t.Errorf("%T ran on a driver without streams", job)
		}
	}
}

// syncStream acknowledges and hands out records at once, allocating
// nothing, so that allocation tests see only the tasks' own.
type syncStream struct {
	driverstest.UnsupportedConn
	val  []byte
	seen []string // payloads produced, when keep is set
	keep bool
}

func (s *syncStream) Produce(_ context.Context, _ string, _, v []byte, tag int64, done func(int64, error)) error {
	if s.keep {
		s.seen = append(s.seen, string(v))
	}
	done(tag, nil)
	return nil
}
func (s *syncStream) Flush(context.Context) error { return nil }
func (s *syncStream) Consume(_ context.Context, _ string, fn func(k, v []byte)) error {
	fn(nil, s.val)
	return nil
}

func newStreamTasks(t testing.TB) (produce, consume engine.Task) {
	job := NewProduce(1, 0, DefaultProduceConfig())
	m := engine.NewMeter(settings(0, 1), job)
	s := &syncStream{val: make([]byte, 100)}
	p, err := job.NewTask(0, s, rnd(0), m)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewConsume(ConsumeConfig{Timeout: time.Minute}).NewTask(0, s, rnd(0), m)
	if err != nil {
		t.Fatal(err)
	}
	return p, c
}

func TestStreamStepsDoNotAllocate(t *testing.T) {
	p, c := newStreamTasks(t)
	ctx := context.Background()
	p.Step(ctx)
	c.Step(ctx)
	if n := testing.AllocsPerRun(1000, func() { p.Step(ctx) }); n != 0 {
		t.Errorf("produce Step allocates %v times", n)
	}
	if n := testing.AllocsPerRun(1000, func() { c.Step(ctx) }); n != 0 {
		t.Errorf("consume Step allocates %v times", n)
	}
}

func BenchmarkProduceStep(b *testing.B) {
	p, _ := newStreamTasks(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		p.Step(ctx)
	}
}

func BenchmarkConsumeStep(b *testing.B) {
	_, c := newStreamTasks(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		c.Step(ctx)
	}
}

func TestProducePayloads(t *testing.T) {
	m := engine.NewMeter(settings(6, 2), NewProduce(2, 6, DefaultProduceConfig()))
	cases := []struct {
		name string
		cfg  func(*ProduceConfig)
		ok   func(v string) bool
	}{
		{"uppercase", func(c *ProduceConfig) { c.RecordSize = 7 }, regexp.MustCompile(`^[A-Z]{7}$`).MatchString},
		{"monotonic", func(c *ProduceConfig) { c.Monotonic = true }, regexp.MustCompile(`^[135]$`).MatchString},
		{"file", func(c *ProduceConfig) { c.Payloads = [][]byte{[]byte("x"), []byte("yy")} }, func(v string) bool { return v == "x" || v == "yy" }},
	}
	for _, c := range cases {
		cfg := DefaultProduceConfig()
		c.cfg(&cfg)
		s := &syncStream{keep: true}
		task, err := NewProduce(2, 6, cfg).NewTask(1, s, rnd(1), m)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			task.Step(t.Context())
		}
		if len(s.seen) != 3 || s.seen[0] == s.seen[1] && c.name != "file" {
			t.Errorf("%s: payloads %q, want 3 distinct", c.name, s.seen)
		}
		for _, v := range s.seen {
			if !c.ok(v) {
				t.Errorf("%s: payload %q", c.name, v)
			}
		}
	}
}
