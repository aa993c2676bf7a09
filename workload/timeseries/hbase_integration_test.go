//go:build integration

package timeseries_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	_ "github.com/gobench/gobench/drivers/hbase"
	"github.com/gobench/gobench/props"
)

// TestRunOnHBase: the time-series load and run against testenv's real
// HBase (testenv/up.sh hbase; the test fails, never skips, without it):
// every read finds its metric's row and verifies.
func TestRunOnHBase(t *testing.T) {
	table := fmt.Sprintf("gb_ts_%d", time.Now().UnixNano()%1e9)
	hb := []string{"db", "hbase", "table", table, "hbase.zookeeper.quorum", "127.0.0.1:2181"}
	defer func() {
		var set props.Set
		set.Add(props.Value{Key: "hbase.zookeeper.quorum", Value: "127.0.0.1:2181"})
		d, _ := drivers.Lookup("hbase")
		db, err := d.Configure(props.NewDecoder(&set), drivers.Schema{Table: table})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.(drivers.TableAdmin).DropTable(context.Background(), table); err != nil {
			t.Errorf("drop %s: %v", table, err)
		}
	}()
	load := runTS(t, nil, append(hb, "dotransactions", "false", "hbase.createtable", "true", "hbase.droptable", "true")...)
	if n := load.Count("INSERT", drivers.OK); n != 240 {
		t.Fatalf("load: %d inserts OK, want 240", n)
	}
	res := runTS(t, nil, hb...)
	reads, verified := res.Count("READ", drivers.OK), res.Count("VERIFY", drivers.OK)
	if reads == 0 || verified != reads {
		t.Errorf("READ OK %d, VERIFY OK %d: want every read verified", reads, verified)
	}
	if res.Count("SCAN", drivers.OK) == 0 || res.Failed() != 0 {
		t.Errorf("SCAN OK %d, failed %d", res.Count("SCAN", drivers.OK), res.Failed())
	}
}
