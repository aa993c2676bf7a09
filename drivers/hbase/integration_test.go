//go:build integration

package hbase

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/props"
)

// These tests need the real HBase 2.6 standalone on 127.0.0.1 (start it with
// `testenv/up.sh hbase`); GOBENCH_HBASE_ZK overrides the quorum. With the
// server down they fail.

// requireServer fails the test at once (it does not skip) when HBase's
// ZooKeeper does not answer.
func requireServer(t testing.TB) {
	t.Helper()
	zk := "127.0.0.1:2181"
	if v := os.Getenv("GOBENCH_HBASE_ZK"); v != "" {
		zk = strings.Split(v, ",")[0]
	}
	nc, err := net.DialTimeout("tcp", zk, 3*time.Second)
	if err != nil {
		t.Fatalf("HBase's ZooKeeper is not reachable (start it with testenv/up.sh hbase): %v", err)
	}
	nc.Close()
}

func openDB(t testing.TB, kv ...string) *DB {
	t.Helper()
	var s props.Set
	if zk := os.Getenv("GOBENCH_HBASE_ZK"); zk != "" {
		s.Add(props.Value{Key: KeyQuorum, Value: zk, Source: "env"})
	}
	if len(kv) < 2 || kv[1] != "127.0.0.1:1" { // TestIntegrationUnavailable wants no server
		requireServer(t)
	}
	s.Add(props.Value{Key: KeyOpTimeout, Value: "60s", Source: "test"})
	// driverstest's schema names usertable, but its tests use their own tables.
	s.Add(props.Value{Key: KeyCheckTable, Value: "false", Source: "test"})
	for i := 0; i < len(kv); i += 2 {
		s.Add(props.Value{Key: kv[i], Value: kv[i+1], Source: "test"})
	}
	db, err := Driver{}.Configure(props.NewDecoder(&s), driverstest.Schema())
	if err != nil {
		t.Fatalf("Configure: %v", err)
	}
	return db.(*DB)
}

func TestIntegrationConformance(t *testing.T) {
	driverstest.Run(t, func(t *testing.T) drivers.DB { return openDB(t) })
}

// TestIntegrationBuffered: with clientbuffering, writes return BATCHED_OK,
// are invisible until flushed (here: by the buffer filling up, by Flush and
// by Close), and then all land.
func TestIntegrationBuffered(t *testing.T) {
	db := openDB(t, KeyClientBuffering, "true", KeyWriteBufferSize, "8KB", KeyMultiSize, "7")
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	table := fmt.Sprintf("gobench_buffered_%d", time.Now().UnixNano()%1e6)
	if err := db.CreateTable(ctx, table, SplitKeys(3), false); err != nil {
		t.Fatal(err)
	}
	defer db.DropTable(context.Background(), table)
	c, err := db.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	reader, _ := db.Open(ctx)
	r := drivers.NewRecord(driverstest.NumFields)
	for f := 0; f < driverstest.NumFields; f++ {
		r.Set(f, make([]byte, 100))
	}
	got := drivers.NewRecord(driverstest.NumFields)
	if err := c.Insert(ctx, table, []byte("user0"), r); !errors.Is(err, drivers.ErrBatched) {
		t.Fatalf("buffered insert: %v; want ErrBatched", err)
	}
	if err := reader.Read(ctx, table, []byte("user0"), nil, got); !errors.Is(err, drivers.ErrNotFound) {
		t.Fatalf("read of an unflushed insert: %v; want NOT_FOUND", err)
	}
	// 8KB of buffer holds about 12 records of 600 bytes: 100 inserts flush
	// several times on their own.
	for i := 1; i < 100; i++ {
		if err := c.Insert(ctx, table, []byte("user"+strconv.Itoa(1000+i*90)), r); !errors.Is(err, drivers.ErrBatched) {
			t.Fatalf("buffered insert %d: %v", i, err)
		}
	}
	if err := reader.Read(ctx, table, []byte("user0"), nil, got); err != nil {
		t.Fatalf("read after the buffer filled: %v", err)
	}
	if err := c.(drivers.BatchWriter).Flush(ctx); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	if err := c.Delete(ctx, table, []byte("user0")); !errors.Is(err, drivers.ErrBatched) {
		t.Fatalf("buffered delete: %v", err)
	}
	if err := c.Close(ctx); err != nil {
		t.Fatalf("Close (flushes): %v", err)
	}
	n := 0
	if err := reader.Scan(ctx, table, []byte(""), 1000, nil, func([]byte, *drivers.Record) error { n++; return nil }); err != nil || n != 99 {
		t.Fatalf("scan after flush: %d rows, %v; want 99 (100 inserted, 1 deleted)", n, err)
	}
}

// TestIntegrationCreatePresplit: hbase.droptable + hbase.createtable with
// hbase.splits=N create the table with N+1 regions at YCSB's split keys.
func TestIntegrationCreatePresplit(t *testing.T) {
	requireServer(t)
	table := fmt.Sprintf("gobench_presplit_%d", time.Now().UnixNano()%1e6)
	schema := driverstest.Schema()
	schema.Table = table
	var s props.Set
	if zk := os.Getenv("GOBENCH_HBASE_ZK"); zk != "" {
		s.Add(props.Value{Key: KeyQuorum, Value: zk, Source: "env"})
	}
	s.Add(props.Value{Key: KeyCreateTable, Value: "true"}, props.Value{Key: KeySplits, Value: "20"},
		props.Value{Key: KeyDropTable, Value: "true"}, props.Value{Key: KeyDurability, Value: "SKIP_WAL"})
	d, err := Driver{}.Configure(props.NewDecoder(&s), schema)
	if err != nil {
		t.Fatal(err)
	}
	db := d.(*DB)
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := db.Open(ctx)
	if err != nil {
		t.Fatalf("first Open with createtable: %v", err)
	}
	defer db.DropTable(context.Background(), table)
	if n, err := db.Client().Regions(ctx, table); err != nil || n != 21 {
		t.Fatalf("regions of %s with hbase.splits=20: %d, %v; want 21", table, n, err)
	}
	r := drivers.NewRecord(driverstest.NumFields)
	for i := 0; i < 200; i++ {
		r.Set(0, []byte(strconv.Itoa(i)))
		key := []byte("user" + strconv.Itoa(1000+i*45))
		if err := c.Insert(ctx, table, key, r); err != nil {
			t.Fatalf("insert %s: %v", key, err)
		}
	}
	n := 0
	if err := c.Scan(ctx, table, []byte("user1000"), 150, nil, func(k []byte, r *drivers.Record) error { n++; return nil }); err != nil || n != 150 {
		t.Fatalf("scan of 150 over several regions: %d rows, %v", n, err)
	}
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
	// A second DB with droptable starts from an empty table.
	d2, _ := Driver{}.Configure(props.NewDecoder(&s), schema)
	c2, err := d2.Open(ctx)
	if err != nil {
		t.Fatalf("Open with droptable on an existing table: %v", err)
	}
	if err := c2.Read(ctx, table, []byte("user1000"), nil, r); !errors.Is(err, drivers.ErrNotFound) {
		t.Fatalf("read after droptable+createtable: %v; want NOT_FOUND", err)
	}
	c2.Close(ctx)
	d2.Close()
}

// TestIntegrationCheckTable: by default the first Open fails for a missing
// table, naming it.
func TestIntegrationCheckTable(t *testing.T) {
	requireServer(t)
	var s props.Set
	if zk := os.Getenv("GOBENCH_HBASE_ZK"); zk != "" {
		s.Add(props.Value{Key: KeyQuorum, Value: zk, Source: "env"})
	}
	schema := driverstest.Schema()
	schema.Table = "gobench_no_such_table"
	d, err := Driver{}.Configure(props.NewDecoder(&s), schema)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Open(context.Background()); err == nil || !strings.Contains(err.Error(), "gobench_no_such_table") {
		t.Fatalf("Open on a missing table: %v; want an error naming it", err)
	}
}

// TestIntegrationUnavailable: a quorum nobody listens on gives
// SERVICE_UNAVAILABLE within the operation timeout.
func TestIntegrationUnavailable(t *testing.T) {
	db := openDB(t, KeyQuorum, "127.0.0.1:1", KeyOpTimeout, "1500ms")
	defer db.Close()
	c, err := db.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = c.Read(context.Background(), "usertable", []byte("user1"), nil, drivers.NewRecord(driverstest.NumFields))
	if drivers.Classify(err) != drivers.ServiceUnavailable || time.Since(start) > 10*time.Second {
		t.Fatalf("read with ZooKeeper down: %v (%v) after %v; want SERVICE_UNAVAILABLE", err, drivers.Classify(err), time.Since(start))
	}
}

// BenchmarkIntegration runs driverstest's benchmarks against the real
// server: go test -tags integration -run XXX -bench Integration ./drivers/hbase/
func BenchmarkIntegration(b *testing.B) {
	driverstest.Bench(b, func(b *testing.B) drivers.DB {
		db := openDB(b)
		b.Cleanup(func() { db.Close() })
		return db
	})
}
