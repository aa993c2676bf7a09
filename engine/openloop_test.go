package engine_test

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/gobench/gobench/drivers/basic"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
)

// runBasic runs workload A's mix against the basic driver with the given
// extra properties and returns the result and the READ latency (p50, µs)
// of every interval cut every 100 ms, in order.
func runBasic(t *testing.T, kv map[string]string) (*engine.Result, []int64, string) {
	t.Helper()
	m := map[string]string{
		"db": "basic", "recordcount": "1000", "readproportion": "0.5", "updateproportion": "0.5",
		"requestdistribution": "uniform", "gobench.seed": "7",
	}
	for k, v := range kv {
		m[k] = v
	}
	set := &props.Set{}
	set.Add(props.FromMap(m, "test")...)
	plan, err := workload.Prepare(set)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var p50 []int64
	var log strings.Builder
	res, err := plan.Run(context.Background(), workload.WithLog(&log), workload.OnInterval(100*time.Millisecond, func(iv *measure.Snapshot) {
		if s := iv.Lookup("READ"); s != nil && s.Count() > 0 {
			mu.Lock()
			p50 = append(p50, s.Percentile(50))
			mu.Unlock()
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	return res, p50, log.String()
}

// TestOpenLoopOverloadQueues: 2 threads whose operations take 10 ms serve
// at most 200 ops/s. Offered 1000 ops/s, the open loop's arrivals queue:
// the queue grows, latency measured from arrival grows interval after
// interval, and the run warns. The closed loop at the same -target never
// has more than 2 operations outstanding, so its latency stays at the
// 10 ms of the call.
func TestOpenLoopOverloadQueues(t *testing.T) {
	slow := map[string]string{
		"threadcount": "2", "target": "1000", "operationcount": "300",
		"basicdb.simulatedelay": "10", "basicdb.randomizedelay": "false",
	}
	open := map[string]string{"gobench.arrival": "constant"}
	for k, v := range slow {
		open[k] = v
	}
	res, p50, log := runBasic(t, open)
	ol := res.OpenLoop
	if ol == nil {
		t.Fatal("no open-loop stats")
	}
	t.Logf("open: %+v, READ p50 per interval %v", *ol, p50)
	if !ol.Short() || ol.Achieved > 250 {
		t.Errorf("achieved %.1f ops/s of %.0f: want short of the offered rate, at most the 200 ops/s the threads serve", ol.Achieved, ol.Offered)
	}
	if ol.PeakQueue < 150 {
		t.Errorf("peak queue %d; want > 150 (300 arrivals in 0.3 s, about 60 served by then)", ol.PeakQueue)
	}
	if ol.MeanQueue < 20 || ol.Late < 250 {
		t.Errorf("mean queue %.1f, late %d; want a standing queue and nearly every operation late", ol.MeanQueue, ol.Late)
	}
	if len(p50) < 5 || p50[len(p50)-1] < 5*p50[0] || p50[len(p50)-1] < 500_000 {
		t.Errorf("READ p50 per interval %v µs: want latency from arrival growing to more than 0.5 s", p50)
	}
	if max := res.Series("READ").Max(); max < 800_000 {
		t.Errorf("READ max %d µs; the last arrivals waited over a second", max)
	}
	if !strings.Contains(log, "Warning: open loop: achieved") {
		t.Errorf("no warning about the short rate in the log:\n%s", log)
	}
	lines := res.ReportLines()
	if len(lines) == 0 || lines[0].Metric != "OVERALL" || lines[0].Value.String() != "constant" {
		t.Errorf("report lines %v", lines)
	}

	res, p50, _ = runBasic(t, slow)
	t.Logf("closed: READ p50 per interval %v", p50)
	if res.OpenLoop != nil || res.ReportLines() != nil {
		t.Errorf("closed loop has open-loop stats %+v", res.OpenLoop)
	}
	for _, v := range p50 {
		if v > 100_000 {
			t.Errorf("closed loop READ p50 per interval %v µs: want about the 10 ms of the call in every interval", p50)
			break
		}
	}
}

// TestOpenLoopServableRate: 1000 ops/s against operations that take no
// time holds the offered rate within 1 %.
func TestOpenLoopServableRate(t *testing.T) {
	for _, arrival := range []string{"constant", "poisson"} {
		retryStalled(t, arrival, func() []string {
			res, _, log := runBasic(t, map[string]string{
				"threadcount": "4", "target": "1000", "operationcount": "1500", "gobench.arrival": arrival,
			})
			ol := res.OpenLoop
			t.Logf("%s: %+v, throughput %.1f", arrival, *ol, res.Throughput())
			var bad []string
			if ol.Started != 1500 || ol.Unstarted != 0 {
				bad = append(bad, fmt.Sprintf("%s: started %d, unstarted %d; want all 1500", arrival, ol.Started, ol.Unstarted))
			}
			// Poisson arrivals deviate from their mean rate by about
			// 1/sqrt(1500) = 2.6 %: compare with the rate of the arrivals
			// this seed offered.
			offered := 1000.0
			if arrival == "poisson" {
				at := engine.ArrivalTimes(res.Settings, 1500)
				offered = 1499 / (at[1499] - at[0]).Seconds()
			}
			if math.Abs(ol.Achieved/offered-1) > 0.01 {
				bad = append(bad, fmt.Sprintf("%s: achieved %.2f ops/s; want the %.2f offered within 1 %%", arrival, ol.Achieved, offered))
			}
			if strings.Contains(log, "Warning: open loop") {
				bad = append(bad, fmt.Sprintf("%s: warned on a servable rate:\n%s", arrival, log))
			}
			return bad
		})
	}
}

// retryStalled runs try up to three times until it finds nothing wrong,
// and fails t with the last try's findings. A servable open loop holds its
// rate only when the process gets the CPU: on a loaded 2-core machine
// (or under -race) a worker may be descheduled for 50-100 ms, late enough
// at the end of a run of a second or less to cost more than 1 % of its
// rate. Three stalled runs in a row fail, as does a loop that is short
// for any other reason every time.
func retryStalled(t *testing.T, name string, try func() []string) {
	t.Helper()
	var bad []string
	for i := 0; i < 3; i++ {
		if bad = try(); len(bad) == 0 {
			return
		}
		t.Logf("%s: try %d: %s", name, i+1, strings.Join(bad, "; "))
	}
	for _, b := range bad {
		t.Error(b)
	}
}

// TestArrivalTimesSeeded: the same seed gives the same arrival times,
// another seed others; constant arrivals are exactly 1/rate apart and
// Poisson gaps average 1/rate.
func TestArrivalTimesSeeded(t *testing.T) {
	set := engine.DefaultSettings()
	set.Arrival, set.Target, set.Seed, set.SeedSet = engine.ArrivalPoisson, 2000, 42, true
	a, b := engine.ArrivalTimes(set, 20000), engine.ArrivalTimes(set, 20000)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("arrival %d: %v then %v with the same seed", i, a[i], b[i])
		}
		if i > 0 && a[i] < a[i-1] {
			t.Fatalf("arrival %d at %v before arrival %d at %v", i, a[i], i-1, a[i-1])
		}
	}
	mean := float64(a[len(a)-1]) / float64(len(a)) / float64(time.Second)
	if math.Abs(mean*2000-1) > 0.03 { // 20000 gaps: the mean is within 3 % (4 sigma)
		t.Errorf("mean gap %.6f s; want 1/2000", mean)
	}
	set.Seed = 43
	c := engine.ArrivalTimes(set, 10)
	same := 0
	for i := range c {
		if c[i] == a[i] {
			same++
		}
	}
	if same == len(c) {
		t.Errorf("seeds 42 and 43 gave the same arrivals %v", c)
	}
	set.Arrival = engine.ArrivalConstant
	for i, at := range engine.ArrivalTimes(set, 5) {
		if want := time.Duration(i) * 500 * time.Microsecond; at != want {
			t.Errorf("constant arrival %d at %v, want %v", i, at, want)
		}
	}
}

func TestOpenLoopSettings(t *testing.T) {
	set := engine.DefaultSettings()
	set.Arrival = engine.ArrivalPoisson
	if err := set.Validate(); err == nil || !strings.Contains(err.Error(), "target") {
		t.Errorf("poisson without a target: %v; want a problem naming target", err)
	}
	set.Arrival, set.Target = "bursty", 10
	if err := set.Validate(); err == nil || !strings.Contains(err.Error(), "gobench.arrival") {
		t.Errorf("unknown arrival: %v", err)
	}
}

// TestOpenLoopTimeLimit: stopped by maxexecutiontime after a warm-up, an
// overloaded open loop reports the arrivals still waiting as unstarted,
// and its achieved rate is the rate the workers served after the warm-up
// (about the throughput), not diluted by the warm-up's backlog.
func TestOpenLoopTimeLimit(t *testing.T) {
	res, _, _ := runBasic(t, map[string]string{
		"threadcount": "2", "target": "1000", "operationcount": "0", "maxexecutiontime": "1", "gobench.warmup": "0.5",
		"gobench.arrival": "poisson", "basicdb.simulatedelay": "10", "basicdb.randomizedelay": "false",
	})
	ol := res.OpenLoop
	t.Logf("%+v, throughput %.1f", *ol, res.Throughput())
	if res.Stopped != "maxexecutiontime" || ol.Unstarted < 500 {
		t.Errorf("stopped %q, unstarted %d; want the time limit and about 1500 - 300 arrivals left waiting", res.Stopped, ol.Unstarted)
	}
	if r := ol.Achieved / res.Throughput(); r < 0.8 || r > 1.25 {
		t.Errorf("achieved %.1f ops/s, throughput %.1f: want the same service rate", ol.Achieved, res.Throughput())
	}
}

// TestOpenLoopPoissonServableNoWarning: Poisson arrivals at a rate the
// threads serve offer, by chance, a few per cent more or less than the
// target over a short run; keeping up with them is not falling short, so
// no seed warns (each seed retried when stalled: see retryStalled), while
// a rate the threads cannot serve still does.
func TestOpenLoopPoissonServableNoWarning(t *testing.T) {
	for seed := 1; seed <= 4; seed++ {
		retryStalled(t, fmt.Sprintf("seed %d", seed), func() []string {
			res, _, log := runBasic(t, map[string]string{
				"threadcount": "4", "target": "2000", "operationcount": "1000", "gobench.arrival": "poisson",
				"gobench.seed": strconv.Itoa(seed),
			})
			at := engine.ArrivalTimes(res.Settings, 1000)
			sample := 999 / (at[999] - at[0]).Seconds()
			if ol := res.OpenLoop; ol.Short() || strings.Contains(log, "Warning: open loop") {
				return []string{fmt.Sprintf("seed %d: achieved %.1f ops/s with arrivals at %.1f ops/s (target 2000): short %v\n%s", seed, ol.Achieved, sample, ol.Short(), log)}
			}
			return nil
		})
	}
	res, _, _ := runBasic(t, map[string]string{
		"threadcount": "1", "target": "2000", "operationcount": "100", "gobench.arrival": "poisson",
		"basicdb.simulatedelay": "2", "basicdb.randomizedelay": "false",
	})
	if !res.OpenLoop.Short() {
		t.Errorf("1 thread of 2 ms operations at 2000 ops/s: %+v; want short", *res.OpenLoop)
	}
}
