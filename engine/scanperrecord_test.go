package engine_test

import (
	"context"
	"testing"

	_ "github.com/gobench/gobench/drivers/pebble"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
)

// TestScanLatencyPerRecord: with gobench.scanlatencyperrecord, every scan
// that returned rows records its latency per row (YCSB master); without
// it the series does not exist, so the report keeps 0.17.0's shape.
func TestScanLatencyPerRecord(t *testing.T) {
	dir := t.TempDir()
	run := func(kv ...string) *engine.Result {
		m := map[string]string{"db": "pebble", "pebble.dir": dir, "recordcount": "200", "operationcount": "300",
			"readproportion": "0", "updateproportion": "0", "scanproportion": "1", "maxscanlength": "20", "gobench.seed": "3"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		set := &props.Set{}
		set.Add(props.FromMap(m, "test")...)
		plan, err := workload.Prepare(set)
		if err != nil {
			t.Fatal(err)
		}
		res, err := plan.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	run("dotransactions", "false")
	res := run()
	if s := res.Snapshot.Lookup(engine.NameScanLatencyPerRecord); s != nil {
		t.Errorf("SCAN-LATENCY-PER-RECORD recorded without the property (%d samples)", s.Count())
	}
	res = run("gobench.scanlatencyperrecord", "true")
	per, scan := res.Series(engine.NameScanLatencyPerRecord), res.Series("SCAN")
	if per == nil || scan == nil || per.Count() == 0 || per.Count() > scan.Count() {
		t.Fatalf("SCAN-LATENCY-PER-RECORD %v, SCAN %v: want one per scan with rows", per, scan)
	}
	if per.Max() > scan.Max() {
		t.Errorf("per-record max %d µs above the scans' max %d µs", per.Max(), scan.Max())
	}
}
