//go:build integration

package hbclient

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// These tests need the real HBase 2.6 standalone on 127.0.0.1 (ZooKeeper on
// 127.0.0.1:2181, or GOBENCH_HBASE_ZK): start it with
// `testenv/up.sh hbase`. With the server down they fail.

func testClient(t *testing.T) *Client {
	t.Helper()
	c := New(testOptions(t, Options{OperationTimeout: 60 * time.Second}))
	t.Cleanup(func() { c.Close() })
	return c
}

// testOptions returns o pointed at the test cluster's ZooKeeper
// (GOBENCH_HBASE_ZK, default 127.0.0.1:2181); it fails the test when that
// is not reachable. Every client of a test is made with it, so that a test
// run against another cluster (a private server, the multi-node cluster)
// touches no other.
func testOptions(t *testing.T, o Options) Options {
	t.Helper()
	zk := "127.0.0.1:2181"
	if v := os.Getenv("GOBENCH_HBASE_ZK"); v != "" {
		zk = v
	}
	// Fail fast (not skip) when the server is down.
	if nc, err := net.DialTimeout("tcp", strings.Split(zk, ",")[0], 3*time.Second); err != nil {
		t.Fatalf("HBase's ZooKeeper is not reachable (start it with testenv/up.sh hbase): %v", err)
	} else {
		nc.Close()
	}
	o.ZKQuorum = strings.Split(zk, ",")
	return o
}

// testTable creates a fresh table with family "f" split at splits and drops
// it when the test ends.
func testTable(t *testing.T, c *Client, splits ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	name := fmt.Sprintf("gobench_hbclient_%s_%d", strings.ToLower(t.Name()), time.Now().UnixNano()%1e6)
	var keys [][]byte
	for _, s := range splits {
		keys = append(keys, []byte(s))
	}
	if err := c.CreateTable(ctx, name, []string{"f"}, keys); err != nil {
		t.Fatalf("CreateTable(%s, splits %q): %v", name, splits, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		if err := c.DropTable(ctx, name); err != nil {
			t.Errorf("DropTable(%s): %v", name, err)
		}
	})
	return name
}

func put(t *testing.T, c *Client, table, row string, kv ...string) {
	t.Helper()
	m := Mutation{Row: []byte(row), Type: Put, Family: []byte("f")}
	for i := 0; i < len(kv); i += 2 {
		m.Qualifiers = append(m.Qualifiers, []byte(kv[i]))
		m.Values = append(m.Values, []byte(kv[i+1]))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Mutate(ctx, table, &m); err != nil {
		t.Fatalf("put %s %v: %v", row, kv, err)
	}
}

func TestIntegrationGetPutDelete(t *testing.T) {
	c := testClient(t)
	table := testTable(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	put(t, c, table, "row1", "a", "1", "b", "22")
	var res Result
	if err := c.Get(ctx, table, []byte("row1"), []byte("f"), nil, &res); err != nil {
		t.Fatalf("get row1: %v", err)
	}
	if v, ok := res.Value([]byte("f"), []byte("b")); !ok || string(v) != "22" || len(res.Cells) != 2 {
		t.Fatalf("get row1: cells %d, f:b = %q %v; want 2 cells, f:b = 22", len(res.Cells), v, ok)
	}
	if err := c.Get(ctx, table, []byte("row1"), []byte("f"), [][]byte{[]byte("a")}, &res); err != nil || len(res.Cells) != 1 || string(res.Cells[0].Value) != "1" {
		t.Fatalf("get row1 f:a: err %v, cells %+v; want one cell 1", err, res.Cells)
	}
	if err := c.Get(ctx, table, []byte("nope"), []byte("f"), nil, &res); err != nil || len(res.Cells) != 0 {
		t.Fatalf("get missing row: err %v, %d cells; want nil, 0", err, len(res.Cells))
	}
	if err := c.Mutate(ctx, table, &Mutation{Row: []byte("row1"), Type: Delete}); err != nil {
		t.Fatalf("delete row1: %v", err)
	}
	if err := c.Get(ctx, table, []byte("row1"), nil, nil, &res); err != nil || len(res.Cells) != 0 {
		t.Fatalf("get deleted row: err %v, %d cells; want nil, 0", err, len(res.Cells))
	}
	// A missing family is a permanent error, returned without retrying.
	start := time.Now()
	err := c.Get(ctx, table, []byte("row1"), []byte("nofam"), nil, &res)
	var re *RemoteError
	if !errors.As(err, &re) || time.Since(start) > 5*time.Second {
		t.Fatalf("get with unknown family: %v after %v; want a RemoteError at once", err, time.Since(start))
	}
}

func TestIntegrationScanAcrossRegions(t *testing.T) {
	c := testClient(t)
	table := testTable(t, c, "k03", "k06", "k09")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if n, err := c.Regions(ctx, table); err != nil || n != 4 {
		t.Fatalf("Regions(%s) = %d, %v; want 4 regions", table, n, err)
	}
	var muts []Mutation
	for i := 0; i < 12; i++ {
		muts = append(muts, Mutation{Row: []byte(fmt.Sprintf("k%02d", i)), Type: Put, Family: []byte("f"),
			Qualifiers: [][]byte{[]byte("q")}, Values: [][]byte{[]byte(fmt.Sprint(i))}})
	}
	if err := c.Multi(ctx, table, muts); err != nil {
		t.Fatalf("multi put of 12 rows over 4 regions: %v", err)
	}
	for _, tc := range []struct {
		start, stop    string
		limit, caching int
		want           []string
	}{
		{"", "", 0, 0, []string{"k00", "k01", "k02", "k03", "k04", "k05", "k06", "k07", "k08", "k09", "k10", "k11"}},
		{"k02", "", 5, 0, []string{"k02", "k03", "k04", "k05", "k06"}},
		{"k02", "k07", 0, 1, []string{"k02", "k03", "k04", "k05", "k06"}},
		{"k05", "", 100, 2, []string{"k05", "k06", "k07", "k08", "k09", "k10", "k11"}},
		{"k055", "k06", 0, 0, nil},
	} {
		var got []string
		var res Result
		s := ScanSpec{Start: []byte(tc.start), Stop: []byte(tc.stop), Family: []byte("f"), Limit: tc.limit, Caching: tc.caching}
		err := c.Scan(ctx, table, &s, &res, func(r *Result) error {
			got = append(got, string(r.Row()))
			return nil
		})
		if err != nil || strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("scan start %q stop %q limit %d caching %d = %v, %v; want %v", tc.start, tc.stop, tc.limit, tc.caching, got, err, tc.want)
		}
	}
	// Stopping early from the callback closes the scanner and returns the error.
	stop := errors.New("stop")
	n := 0
	var res Result
	err := c.Scan(ctx, table, &ScanSpec{Caching: 3}, &res, func(r *Result) error {
		n++
		if n == 4 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 4 {
		t.Errorf("scan stopped by callback: %v after %d rows; want stop after 4", err, n)
	}
	// Multi delete, then the table is empty.
	for i := range muts {
		muts[i].Type = Delete
		muts[i].Qualifiers, muts[i].Values = nil, nil
	}
	if err := c.Multi(ctx, table, muts); err != nil {
		t.Fatalf("multi delete: %v", err)
	}
	rows := 0
	if err := c.Scan(ctx, table, &ScanSpec{}, &res, func(*Result) error { rows++; return nil }); err != nil || rows != 0 {
		t.Fatalf("scan after deleting all: %d rows, %v; want 0", rows, err)
	}
}

func TestIntegrationAdmin(t *testing.T) {
	c := testClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	table := testTable(t, c, "user5", "user2", "user2") // unsorted, duplicate
	if n, err := c.Regions(ctx, table); err != nil || n != 3 {
		t.Fatalf("regions of %s split at user2, user5: %d, %v; want 3", table, n, err)
	}
	ok, err := c.TableExists(ctx, table)
	if err != nil || !ok {
		t.Fatalf("TableExists(%s) = %v, %v; want true", table, ok, err)
	}
	if err := c.CreateTable(ctx, table, []string{"f"}, nil); !errors.Is(err, ErrTableExists) {
		t.Fatalf("CreateTable of existing %s: %v; want ErrTableExists", table, err)
	}
	ok, err = c.TableExists(ctx, table+"_missing")
	if err != nil || ok {
		t.Fatalf("TableExists(missing) = %v, %v; want false", ok, err)
	}
	if err := c.DropTable(ctx, table+"_missing"); !errors.Is(err, ErrTableNotFound) {
		t.Fatalf("DropTable(missing): %v; want ErrTableNotFound", err)
	}
	var res Result
	if err := c.Get(ctx, table+"_missing", []byte("x"), nil, nil, &res); !errors.Is(err, ErrTableNotFound) {
		t.Fatalf("Get on a missing table: %v; want ErrTableNotFound", err)
	}
}
