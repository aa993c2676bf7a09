package engine

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
)

// countJob is a Job whose one operation, OP, succeeds except every fail-th
// call; it counts the calls.
type countJob struct {
	calls atomic.Int64
	fail  int64
	setUp atomic.Int64
}

func (j *countJob) Ops() []string          { return []string{"OP"} }
func (j *countJob) Extra() []string        { return nil }
func (j *countJob) Warnings() []string     { return nil }
func (j *countJob) Schema() drivers.Schema { return drivers.Schema{Table: "t"} }
func (j *countJob) NewTask(id int, conn drivers.Conn, rnd *rand.Rand, m *Meter) (Task, error) {
	return &countTask{j: j, m: m}, nil
}
func (j *countJob) SetUp(ctx context.Context, conn drivers.Conn, log io.Writer) error {
	j.setUp.Add(1)
	_, err := io.WriteString(log, "set up\n")
	return err
}

type countTask struct {
	j *countJob
	m *Meter
}

func (t *countTask) Step(ctx context.Context) bool {
	n := t.j.calls.Add(1)
	var err error
	if t.j.fail > 0 && n%t.j.fail == 0 {
		err = errors.New("boom")
	}
	t.m.Measure(0, t.m.Now(), err)
	return true
}

// runLogged runs job under set against a no-op DB and returns its result
// and what it logged; any error fails the test.
func runLogged(t *testing.T, set Settings, job Job) (*Result, string) {
	t.Helper()
	r, err := New(set, job, driverstest.NopDB{})
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	res, err := r.Run(context.Background(), WithLog(&log))
	if err != nil {
		t.Fatal(err)
	}
	return res, log.String()
}

func TestOpDivision(t *testing.T) {
	set := DefaultSettings()
	set.Ops, set.Threads = 10, 4
	r, err := New(set, &countJob{}, driverstest.NopDB{})
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{3, 3, 2, 2}
	for i, q := range r.quota {
		if q != want[i] {
			t.Fatalf("quota = %v, want %v (Java's division)", r.quota, want)
		}
	}
}

func TestRunCountsFailuresAndSetsUpOnce(t *testing.T) {
	set := DefaultSettings()
	set.Ops, set.Threads = 1000, 3
	j := &countJob{fail: 10}
	res, log := runLogged(t, set, j)
	if j.setUp.Load() != 1 || !strings.Contains(log, "set up") {
		t.Errorf("SetUp ran %d times, log %q; want once, logged", j.setUp.Load(), log)
	}
	if res.Ops != 1000 || res.Attempted() != 1000 || res.Failed() != 100 {
		t.Errorf("ops %d, attempted %d, failed %d; want 1000, 1000, 100", res.Ops, res.Attempted(), res.Failed())
	}
	if got := res.Count("OP", drivers.Error); got != 100 {
		t.Errorf("Return=ERROR %d, want 100", got)
	}
	if p := res.Percentile("OP", 50); p < 0 || res.Series("OP") == nil {
		t.Errorf("no OP series (p50 %d)", p)
	}
}

func TestSettingsValidateNamesEveryProperty(t *testing.T) {
	set := Settings{Threads: 0, Ops: -1, Target: -2, MaxExecutionTime: -1, Warmup: -1, MeasurementInterval: "x"}
	err := set.Validate()
	for _, k := range []string{"threadcount", "operationcount", "target", "maxexecutiontime", "gobench.warmup", "measurement.interval"} {
		if err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("Validate() = %v; want a problem naming %s", err, k)
		}
	}
}
