package timeseries_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/gobench/gobench/drivers"
	_ "github.com/gobench/gobench/drivers/basic"
	"github.com/gobench/gobench/drivers/memory"
	_ "github.com/gobench/gobench/drivers/pebble"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
	"github.com/gobench/gobench/workloads"
)

// sharedMemory configures one memory store for every plan, so that a run
// reads what the load wrote.
type sharedMemory struct{ db **memory.DB }

func (d sharedMemory) Keys() []props.Key { return nil }
func (d sharedMemory) Configure(_ *props.Decoder, s drivers.Schema) (drivers.DB, error) {
	if *d.db == nil {
		*d.db = memory.NewDB(s)
	}
	return keepOpen{*d.db}, nil
}

type keepOpen struct{ *memory.DB }

func (keepOpen) Close() error { return nil }

// tsProps is a small TimeSeriesWorkload with data integrity on, no delayed
// series (Java validates against the clock's timestamp, so a delayed point
// never verifies) and no updates (Java writes an update's value for the
// clock's timestamp beside an older one, which never verifies either).
var tsProps = map[string]string{
	"workload": "timeseries", "recordcount": "240", "operationcount": "600", "fieldcount": "6", "fieldlength": "6",
	"tagcount": "3", "tagcardinality": "2,2,3", "insertstart": "1483228800", "randomtimeseriesorder": "false",
	"dataintegrity": "true", "valuetype": "integers", "delayedseries": "0", "threadcount": "3",
	"readproportion": "0.5", "updateproportion": "0", "insertproportion": "0.2", "scanproportion": "0.2",
	"deleteproportion": "0.1", "requestdistribution": "zipfian", "maxscanlength": "5", "gobench.seed": "11",
}

func runTS(t *testing.T, opts []workload.Option, kv ...string) *engine.Result {
	t.Helper()
	m := map[string]string{}
	for k, v := range tsProps {
		m[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	set := &props.Set{}
	set.Add(props.FromMap(m, "test")...)
	plan, err := workload.Prepare(set, opts...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := plan.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRunOnStores: load and run on pebble and memory; every read finds its
// metric and verifies (VERIFY OK), scans and inserts succeed.
func TestRunOnStores(t *testing.T) {
	var mem *memory.DB
	for _, c := range []struct {
		name string
		opts []workload.Option
		kv   []string
	}{
		{"pebble", nil, []string{"db", "pebble", "pebble.dir", t.TempDir()}},
		{"memory", []workload.Option{workload.WithDriver("memory", sharedMemory{&mem})}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			load := runTS(t, c.opts, append(c.kv, "dotransactions", "false")...)
			if n := load.Count("INSERT", drivers.OK); n != 240 {
				t.Fatalf("load: %d inserts OK, want 240", n)
			}
			res := runTS(t, c.opts, c.kv...)
			reads, verified := res.Count("READ", drivers.OK), res.Count("VERIFY", drivers.OK)
			if reads == 0 || verified != reads || res.Count("VERIFY", drivers.UnexpectedState) != 0 {
				t.Errorf("READ OK %d, VERIFY OK %d, UNEXPECTED_STATE %d: want every read verified", reads, verified, res.Count("VERIFY", drivers.UnexpectedState))
			}
			if res.Count("SCAN", drivers.OK) == 0 || res.Count("INSERT", drivers.OK) == 0 {
				t.Errorf("SCAN OK %d, INSERT OK %d", res.Count("SCAN", drivers.OK), res.Count("INSERT", drivers.OK))
			}
			if res.Series("DELETE") == nil {
				t.Errorf("no DELETE ran")
			}
		})
	}
}

// TestRunOnBasic: the basic driver prints Java BasicDB's lines for the
// time-series records, deletes with Java's predicate keys.
func TestRunOnBasic(t *testing.T) {
	var out bytes.Buffer
	res := runTS(t, []workload.Option{workload.WithOutput(&out)}, "db", "basic", "basicdb.verbose", "true", "dataintegrity", "false", "threadcount", "1")
	if res.Count("READ", drivers.OK) == 0 || res.Failed() != 0 {
		t.Errorf("READ OK %d, failed %d", res.Count("READ", drivers.OK), res.Failed())
	}
	text := out.String()
	for _, want := range []string{"INSERT usertable AAAAAA [ AAAAAAAA=AAAAAAAA AAAAAAAB=AAAAAAAA AAAAAAAC=AAAAAAAA YCSBTS=", "READ usertable ", "SCAN usertable ", "DELETE usertable "} {
		if !strings.Contains(text, want) {
			t.Errorf("basic output lacks %q", want)
		}
	}
	// A delete key: metric, each tag, the timestamp, joined by ':'.
	for _, l := range strings.Split(text, "\n") {
		if k, ok := strings.CutPrefix(l, "DELETE usertable "); ok {
			if parts := strings.Split(k, ":"); len(parts) != 5 || !strings.HasPrefix(parts[4], "YCSBTS=") || !strings.HasPrefix(parts[1], "AAAAAAAA=") {
				t.Errorf("delete key %q: want metric:tag=value (3 tags):YCSBTS=t", k)
			}
			break
		}
	}
}

// TestConfigErrors: Java's refusals, named by property.
func TestConfigErrors(t *testing.T) {
	for _, c := range []struct {
		kv   []string
		want string
	}{
		{[]string{"dataintegrity", "true", "valuetype", "floats"}, "valuetype"},
		{[]string{"dataintegrity", "true", "randomtimeseriesorder", "true"}, "randomtimeseriesorder"},
		{[]string{"timestampunits", "NANOSECONDS"}, "doesn't support"},
		{[]string{"tagcardinality", "1,x"}, "tagcardinality"},
		{[]string{"readmodifywriteproportion", "0.1"}, "readmodifywriteproportion"},
		{[]string{"requestdistribution", "latest"}, "requestdistribution"},
		{[]string{"groupbyfunction", "SUM", "groupbykeys", "0,1"}, "groupbykeys"},
		{[]string{"downsamplingfunction", "SUM"}, "downsamplinginterval"},
		{[]string{"threadcount", "7"}, "fieldcount"},
	} {
		m := map[string]string{}
		for k, v := range tsProps {
			m[k] = v
		}
		for i := 0; i < len(c.kv); i += 2 {
			m[c.kv[i]] = c.kv[i+1]
		}
		m["db"] = "basic"
		set := &props.Set{}
		set.Add(props.FromMap(m, "test")...)
		if _, err := workload.Prepare(set); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v; want one naming %s", c.kv, err, c.want)
		}
	}
}

// TestTemplateRuns: the shipped tsworkload_template and tsworkloada load
// as they are (their keys Java ignores are noted, not refused).
func TestTemplateRuns(t *testing.T) {
	for _, name := range []string{"tsworkload_template", "tsworkloada"} {
		set := &props.Set{}
		f, err := workloadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		set.Add(f...)
		set.Add(props.FromMap(map[string]string{"db": "basic", "recordcount": "500", "dotransactions": "false"}, "test")...)
		plan, err := workload.Prepare(set)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if plan.Kind.Name != "timeseries" {
			t.Errorf("%s: kind %s", name, plan.Kind.Name)
		}
		res, err := plan.Run(context.Background())
		if err != nil || res.Count("INSERT", drivers.OK) != 500 {
			t.Errorf("%s: %v, %d inserts", name, err, res.Count("INSERT", drivers.OK))
		}
	}
}

func workloadFile(name string) ([]props.Value, error) {
	f, err := workloads.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return props.Parse(f, name)
}
