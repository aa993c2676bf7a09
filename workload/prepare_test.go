package workload

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gobench/gobench/drivers"
	_ "github.com/gobench/gobench/drivers/localfs"
	_ "github.com/gobench/gobench/drivers/memory"
	_ "github.com/gobench/gobench/drivers/pebble"
	"github.com/gobench/gobench/props"
)

func set(kv ...string) *props.Set {
	s := &props.Set{}
	for i := 0; i+1 < len(kv); i += 2 {
		s.Add(props.Value{Key: kv[i], Value: kv[i+1], Source: "-p"})
	}
	return s
}

// watchDriver is a driver whose connections fail every operation and
// count their opens.
type watchDriver struct{ opens *atomic.Int64 }

func (watchDriver) Keys() []props.Key { return []props.Key{{Name: "watch.password"}} }
func (w watchDriver) Configure(*props.Decoder, drivers.Schema) (drivers.DB, error) {
	return watchDB(w), nil
}

type watchDB watchDriver

func (w watchDB) Open(context.Context) (drivers.Conn, error) { w.opens.Add(1); return failConn{}, nil }
func (watchDB) Close() error                                 { return nil }

type failConn struct{}

var errDown = errors.New("dial tcp 127.0.0.1:1: connect: connection refused")

func (failConn) Read(context.Context, string, []byte, drivers.FieldSet, *drivers.Record) error {
	return errDown
}
func (failConn) Scan(context.Context, string, []byte, int, drivers.FieldSet, func([]byte, *drivers.Record) error) error {
	return errDown
}
func (failConn) Update(context.Context, string, []byte, *drivers.Record) error { return errDown }
func (failConn) Insert(context.Context, string, []byte, *drivers.Record) error { return errDown }
func (failConn) Delete(context.Context, string, []byte) error                  { return errDown }
func (failConn) Close(context.Context) error                                   { return nil }

// A kind that needs a capability the driver lacks is refused by Prepare,
// before any connection opens, naming the driver, the kind and what is
// missing (issue 10).
func TestPrepareRefusesMissingCapability(t *testing.T) {
	_, err := Prepare(set("db", "memory", "workload", "produce"))
	if err == nil {
		t.Fatal("Prepare accepted workload=produce on db memory")
	}
	for _, want := range []string{"db memory", "workload produce", "producing to a stream (drivers.Producer)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	var opens atomic.Int64
	_, err = Prepare(set("workload", "dfsio"), WithDriver("watch", watchDriver{&opens}))
	if err == nil || !strings.Contains(err.Error(), "file streams") || opens.Load() != 0 {
		t.Errorf("dfsio on a driver without files: err %v, opens %d; want refused with nothing opened", err, opens.Load())
	}
}

// The library honours a kind set by property exactly as the CLI does.
func TestPrepareHonoursTheKindProperty(t *testing.T) {
	dir := t.TempDir()
	plan, err := Prepare(set("db", "localfs", "localfs.root", dir, "workload", "dfsio",
		"dfsio.test", "write", "dfsio.nrfiles", "3", "dfsio.size", "1MB"))
	if err != nil {
		t.Fatal(err)
	}
	if plan.Kind.Name != "dfsio" || plan.Threads() != 3 {
		t.Fatalf("kind %q threads %d; want dfsio with one worker per file", plan.Kind.Name, plan.Threads())
	}
	res, err := plan.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		fi, err := os.Stat(filepath.Join(dir, "benchmarks/TestDFSIO/io_data/test_io_"+string(rune('0'+i))))
		if err != nil || fi.Size() != 1<<20 {
			t.Errorf("file %d: %v, size %v", i, err, fi)
		}
	}
	if res.Series("WRITE") == nil || res.Count("CLOSE", drivers.OK) != 3 {
		t.Errorf("no WRITE series or %d CLOSEs", res.Count("CLOSE", drivers.OK))
	}
}

func TestPrepareReportsEveryProblemAtOnce(t *testing.T) {
	_, err := Prepare(set("recordcont", "5", "threadcount", "0", "requestdistribution", "zipf", "db", "pebbel", "exporter", "xml"))
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{`recordcont="5" (-p): unknown property (did you mean "recordcount"?)`, "threadcount", "requestdistribution", `unknown db`, `"pebble"`, "exporter"} {
		if !strings.Contains(msg, want) {
			t.Errorf("problems lack %q:\n%s", want, msg)
		}
	}
}

func TestPrepareWarnsAboutOtherDriversKeys(t *testing.T) {
	plan, err := Prepare(set("db", "memory", "pebble.dir", "/x", "recordcount", "10"))
	if err != nil {
		t.Fatal(err)
	}
	defer plan.Close()
	if len(plan.Warnings) != 1 || !strings.Contains(plan.Warnings[0], "pebble.dir") || !strings.Contains(plan.Warnings[0], "pebble driver") {
		t.Errorf("warnings %q; want one about pebble.dir being the pebble driver's", plan.Warnings)
	}
}

func TestEffectiveShowsDefaultsAndHidesSecrets(t *testing.T) {
	plan, err := Prepare(set("recordcount", "10"))
	if err != nil {
		t.Fatal(err)
	}
	defer plan.Close()
	got := map[string]Setting{}
	for _, s := range plan.Effective() {
		got[s.Key] = s
	}
	for k, v := range map[string]string{"db": "pebble", "pebble.dir": "gobench-data", "workload": "core", "threadcount": "1", "measurementtype": "hdrhistogram"} {
		if s := got[k]; s.Value != v || s.Origin != "default" {
			t.Errorf("effective %s = %+v, want %s (default)", k, s, v)
		}
	}
	if s := got["recordcount"]; s.Value != "10" || s.Origin != "-p" {
		t.Errorf("recordcount = %+v", s)
	}
	var opens atomic.Int64
	plan, err = Prepare(set("recordcount", "10", "watch.password", "hunter2"), WithDriver("watch", watchDriver{&opens}))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range plan.Effective() {
		if strings.Contains(s.Value, "hunter2") {
			t.Errorf("secret shown: %+v", s)
		}
	}
	if v := plan.Config()["watch.password"]; v != props.Redacted {
		t.Errorf("secret in the result config: %q", v)
	}
}

// TestClockProperty: gobench.clock picks the Meters' clock, the effective
// configuration names the one that runs when none is given, and a bad
// value is an error naming the key and what is allowed.
func TestClockProperty(t *testing.T) {
	plan, err := Prepare(set("db", "memory", "recordcount", "10"))
	if err != nil {
		t.Fatal(err)
	}
	plan.Close()
	var shown Setting
	for _, s := range plan.Effective() {
		if s.Key == "gobench.clock" {
			shown = s
		}
	}
	if shown.Origin != "default" || shown.Value != plan.Settings.ClockInUse() || (shown.Value != "tsc" && shown.Value != "system") {
		t.Errorf("effective gobench.clock = %+v, want the clock in use (%s) as a default", shown, plan.Settings.ClockInUse())
	}
	plan, err = Prepare(set("db", "memory", "recordcount", "10", "gobench.clock", "system"))
	if err != nil {
		t.Fatal(err)
	}
	plan.Close()
	if plan.Settings.Clock != "system" || plan.Settings.ClockInUse() != "system" {
		t.Errorf("gobench.clock=system: settings %q, in use %q", plan.Settings.Clock, plan.Settings.ClockInUse())
	}
	_, err = Prepare(set("db", "memory", "recordcount", "10", "gobench.clock", "hpet"))
	if err == nil || !strings.Contains(err.Error(), `gobench.clock="hpet"`) || !strings.Contains(err.Error(), "auto, tsc, system") {
		t.Errorf("gobench.clock=hpet: %v", err)
	}
}

func TestJavaTemplateKeysAreNoted(t *testing.T) {
	plan, err := Prepare(set("db", "memory", "workload", "site.ycsb.workloads.CoreWorkload", "recordcount", "10",
		"measurementtype", "histogram", "measurement.trackjvm", "true"))
	if err != nil {
		t.Fatal(err)
	}
	defer plan.Close()
	notes := strings.Join(plan.Notes, "\n")
	if !strings.Contains(notes, "measurement.trackjvm=true") {
		t.Errorf("notes lack measurement.trackjvm:\n%s", notes)
	}
	// measurementtype=histogram is Java's shape now: 1 ms buckets counted.
	if strings.Contains(notes, "measurementtype") || plan.Settings.Buckets != 1000 {
		t.Errorf("measurementtype=histogram: notes %q, buckets %d; want no note and Java's 1000 buckets", notes, plan.Settings.Buckets)
	}
	if plan.Kind.Name != "core" {
		t.Errorf("kind %q, want core (Java's class name)", plan.Kind.Name)
	}
}

// A run whose operations failed is reported as failed, naming the first
// failure; gobench.maxerrorratio allows a share (issue 17, defect 2).
func TestRunFailsWhenOperationsFail(t *testing.T) {
	var opens atomic.Int64
	plan, err := Prepare(set("operationcount", "100", "threadcount", "2"), WithDriver("watch", watchDriver{&opens}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := plan.Run(context.Background())
	var fe *FailedError
	if !errors.As(err, &fe) || fe.Failed != 100 || fe.Attempted != 100 {
		t.Fatalf("err %v; want a FailedError of 100/100", err)
	}
	if !strings.Contains(err.Error(), "127.0.0.1:1") || res == nil || res.Failed() != 100 {
		t.Errorf("error %q should name the address; result %v", err, res)
	}
	plan, err = Prepare(set("operationcount", "100", "gobench.maxerrorratio", "1"), WithDriver("watch", watchDriver{&opens}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Run(context.Background()); err != nil {
		t.Errorf("gobench.maxerrorratio=1: %v", err)
	}
	if _, err := Prepare(set("gobench.maxerrorratio", "2")); err == nil || !strings.Contains(err.Error(), "gobench.maxerrorratio") {
		t.Errorf("maxerrorratio=2 accepted: %v", err)
	}
}
