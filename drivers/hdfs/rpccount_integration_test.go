//go:build integration

package hdfs

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
)

// The NameNode calls each YCSB operation costs, as drivers/hdfs/doc.go
// documents them. TestIntegrationNameNodeCallsPerOperation pins them.
var callsPerOp = map[string]map[string]int{
	"insert": {"Create": 1, "AddBlock": 1, "Complete": 1},
	"update": {"GetBlockLocations": 1, "Create": 1, "AddBlock": 1, "Complete": 1, "Rename2": 1},
	"read":   {"GetBlockLocations": 1},
	"delete": {"Delete": 1},
}

// rpcMethods are the ClientProtocol methods counted: every one a small-file
// operation could call.
var rpcMethods = []string{"Create", "AddBlock", "Complete", "GetBlockLocations", "GetFileInfo",
	"Rename", "Rename2", "Delete", "Mkdirs", "GetServerDefaults", "RenewLease", "GetListing",
	"UpdateBlockForPipeline", "UpdatePipeline", "AbandonBlock", "GetContentSummary"}

// nnCounts reads the NameNode's per-method RPC counters (JMX bean
// RpcDetailedActivityForPort<rpc port>, "<Method>NumOps").
func nnCounts(t *testing.T, httpAddr, port string) map[string]int {
	t.Helper()
	u := "http://" + httpAddr + "/jmx?qry=Hadoop:service=NameNode,name=RpcDetailedActivityForPort" + port
	resp, err := http.Get(u)
	if err != nil {
		t.Fatalf("NameNode JMX %s: %v", u, err)
	}
	defer resp.Body.Close()
	var doc struct {
		Beans []map[string]any `json:"beans"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil || len(doc.Beans) != 1 {
		t.Fatalf("NameNode JMX %s: %v (%d beans)", u, err, len(doc.Beans))
	}
	out := make(map[string]int)
	for _, m := range rpcMethods {
		if v, ok := doc.Beans[0][m+"NumOps"].(float64); ok {
			out[m] = int(v)
		}
	}
	return out
}

// settled returns the counters once they include everything done before:
// it makes one getContentSummary call (which nothing else here makes) and
// waits until the counters show it. The NameNode refreshes its JMX values
// at most every metrics period (10 s), so this takes up to that long.
func settled(t *testing.T, db *DB, httpAddr, port string) map[string]int {
	t.Helper()
	before := nnCounts(t, httpAddr, port)["GetContentSummary"]
	ctx := context.Background()
	c, err := db.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	cl, err := c.(*Conn).client()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.GetContentSummary("/"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		n := nnCounts(t, httpAddr, port)
		if n["GetContentSummary"] > before {
			if n["GetContentSummary"] != before+1 {
				t.Fatalf("someone else is using the NameNode (getContentSummary %d -> %d): run this test under flock /tmp/gobench-realservers.lock", before, n["GetContentSummary"])
			}
			return n
		}
		if time.Now().After(deadline) {
			t.Fatal("the NameNode's JMX counters did not show a call within 30 s")
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// TestIntegrationNameNodeCallsPerOperation counts, on the real NameNode, the
// RPCs of N inserts, updates, reads and deletes, and requires exactly the
// documented number of each method per operation (callsPerOp), and no
// other call, except:
//   - complete: once, or twice when the NameNode has not yet had the
//     DataNode's report of the finished block (doc.go);
//   - renewLease, which every idle client of the shared NameNode sends
//     periodically: the driver's own count of it must be 0.
func TestIntegrationNameNodeCallsPerOperation(t *testing.T) {
	httpAddr := os.Getenv("GOBENCH_HDFS_HTTP")
	if httpAddr == "" {
		httpAddr = "127.0.0.1:9870"
	}
	db := openDB(t)
	port := db.cfg.Namenodes[0][strings.LastIndexByte(db.cfg.Namenodes[0], ':')+1:]
	ctx := context.Background()
	table := fmt.Sprintf("gobench-rpccount-%d", time.Now().UnixNano())
	if err := db.CreateTable(ctx, table, nil, true); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.DropTable(context.Background(), table) })
	conn, err := db.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := conn.(*Conn)
	defer c.Close(ctx)
	rec := drivers.NewRecord(len(db.schema.Fields))
	for i := range rec.Len() {
		rec.Set(i, []byte(strings.Repeat("v", 100)))
	}
	one := drivers.NewRecord(len(db.schema.Fields))
	one.Set(0, []byte("updated"))
	out := drivers.NewRecord(len(db.schema.Fields))
	// One warm-up insert: the DB fetches the server defaults once.
	if err := c.Insert(ctx, table, []byte("warmup"), rec); err != nil {
		t.Fatal(err)
	}
	const n = 20
	key := func(i int) []byte { return []byte("user" + strconv.Itoa(i)) }
	phases := []struct {
		name string
		op   func(i int) error
	}{
		{"insert", func(i int) error { return c.Insert(ctx, table, key(i), rec) }},
		{"update", func(i int) error { return c.Update(ctx, table, key(i), one) }},
		{"read", func(i int) error {
			if err := c.Read(ctx, table, key(i), nil, out); err != nil {
				return err
			}
			if v, _ := out.Get(0); string(v) != "updated" {
				return fmt.Errorf("read %s: field0 %q", key(i), v)
			}
			return nil
		}},
		{"delete", func(i int) error { return c.Delete(ctx, table, key(i)) }},
	}
	prev := settled(t, db, httpAddr, port)
	defer func() {
		if r := c.nn.Calls["renewLease"]; r != 0 {
			t.Errorf("the driver made %d renewLease calls", r)
		}
	}()
	for _, ph := range phases {
		for i := range n {
			if err := ph.op(i); err != nil {
				t.Fatalf("%s %d: %v", ph.name, i, err)
			}
		}
		now := settled(t, db, httpAddr, port)
		var got []string
		for _, m := range rpcMethods {
			d := now[m] - prev[m]
			if d != 0 {
				got = append(got, fmt.Sprintf("%s %g", m, float64(d)/n))
			}
			want := callsPerOp[ph.name][m] * n
			switch m {
			case "GetContentSummary":
				want = 1 // settled's marker
			case "RenewLease":
				continue
			case "Complete":
				if d >= want && d <= 2*want {
					continue
				}
			}
			if d != want {
				t.Errorf("%d %ss made %d %s calls, want %d", n, ph.name, d, m, want)
			}
		}
		t.Logf("per %s: %s (GetContentSummary: 1 marker call in all)", ph.name, strings.Join(got, ", "))
		prev = now
	}
}
