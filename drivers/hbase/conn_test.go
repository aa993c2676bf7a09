package hbase

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/hbase/hbclient"
	"github.com/gobench/gobench/drivers/hbase/hbtest"
	"github.com/gobench/gobench/drivers/hbase/pb"
)

// fakeDB returns a DB whose cluster is an hbtest fake: hbase:meta maps
// every table to one region, Gets of row "missing" find nothing, other Gets
// return fields field0 and field1 (and a cell of an unknown qualifier),
// Scans return rows a, b and c, mutations succeed. It counts Multi calls.
func fakeDB(t *testing.T, kv ...string) (*DB, *atomic.Int32) {
	t.Helper()
	cells := func(row string) *pb.Result {
		return &pb.Result{Cell: []*pb.Cell{hbtest.Cell(row, "family", "field0", "v0-"+row, 1),
			hbtest.Cell(row, "family", "field1", "v1-"+row, 1), hbtest.Cell(row, "family", "other", "x", 1)}}
	}
	getBody, _ := proto.Marshal(&pb.GetResponse{Result: cells("user1")})
	emptyBody, _ := proto.Marshal(&pb.GetResponse{Result: &pb.Result{}})
	scanBody, _ := proto.Marshal(&pb.ScanResponse{ScannerId: proto.Uint64(1), MoreResults: proto.Bool(false),
		Results: []*pb.Result{cells("a"), cells("b"), cells("c")}})
	var multis atomic.Int32
	dial, _ := hbtest.Dialer(t, func(s *hbtest.Server, id uint32, method, param []byte) {
		switch string(method) {
		case "Get":
			if bytes.Contains(param, []byte("missing")) {
				s.Reply(id, emptyBody)
				return
			}
			s.Reply(id, getBody)
		case "Scan":
			if bytes.Contains(param, []byte("hbase:meta")) {
				// One region per table, whatever the table.
				var req pb.ScanRequest
				_ = proto.Unmarshal(param, &req)
				table, _, _ := strings.Cut(string(req.GetScan().GetStartRow()), ",")
				s.ReplyMsg(id, &pb.ScanResponse{Results: []*pb.Result{hbtest.MetaRow(table, "", "", "fake:16020")}, MoreResults: proto.Bool(false)})
				return
			}
			s.Reply(id, scanBody)
		case "Multi":
			multis.Add(1)
			var req pb.MultiRequest
			_ = proto.Unmarshal(param, &req)
			resp := &pb.MultiResponse{}
			for _, ra := range req.GetRegionAction() {
				rar := &pb.RegionActionResult{}
				for _, a := range ra.GetAction() {
					rar.ResultOrException = append(rar.ResultOrException, &pb.ResultOrException{Index: proto.Uint32(a.GetIndex()), Result: &pb.Result{}})
				}
				resp.RegionActionResult = append(resp.RegionActionResult, rar)
			}
			s.ReplyMsg(id, resp)
		default:
			s.Reply(id, nil)
		}
	})
	cfg, err := decodeKV(t, append([]string{KeyCheckTable, "false"}, kv...)...)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Client.Dial, cfg.Client.MetaServer = dial, "fake:16020"
	s := drivers.Schema{Table: "t", Fields: []string{"field0", "field1", "field2"}}
	db := NewDB(cfg, s)
	t.Cleanup(func() { db.Close() })
	return db, &multis
}

func TestConnOperations(t *testing.T) {
	db, _ := fakeDB(t)
	ctx := context.Background()
	c, err := db.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rec := drivers.NewRecord(3)
	if err := c.Read(ctx, "t", []byte("user1"), nil, rec); err != nil || rec.Count() != 2 {
		t.Fatalf("Read: %v, %d fields", err, rec.Count())
	}
	if v, _ := rec.Get(1); string(v) != "v1-user1" {
		t.Errorf("field1 = %q", v)
	}
	if err := c.Read(ctx, "t", []byte("missing"), drivers.FieldSet{0}, rec); !errors.Is(err, drivers.ErrNotFound) || rec.Count() != 0 {
		t.Errorf("Read of a missing row: %v, %d fields; want ErrNotFound, empty record", err, rec.Count())
	}
	if err := c.Read(ctx, "t", []byte("user1"), drivers.FieldSet{7}, rec); err == nil {
		t.Errorf("Read of field 7 of 3 accepted")
	}
	var keys []string
	if err := c.Scan(ctx, "t", []byte("a"), 3, nil, func(k []byte, r *drivers.Record) error {
		v, _ := r.Get(0)
		keys = append(keys, string(k)+"="+string(v))
		return nil
	}); err != nil || strings.Join(keys, " ") != "a=v0-a b=v0-b c=v0-c" {
		t.Errorf("Scan: %v, %v", keys, err)
	}
	stop := errors.New("stop")
	if err := c.Scan(ctx, "t", []byte("a"), 3, nil, func([]byte, *drivers.Record) error { return stop }); err != stop {
		t.Errorf("Scan stopped by its callback returned %v, want the callback's error", err)
	}
	rec.Reset()
	if err := c.Update(ctx, "t", []byte("user1"), rec); drivers.Classify(err) != drivers.BadRequest {
		t.Errorf("Update without fields: %v; want BAD_REQUEST", err)
	}
	rec.Set(2, []byte("v"))
	if err := c.Insert(ctx, "t", []byte("user1"), rec); err != nil {
		t.Errorf("Insert: %v", err)
	}
	if err := c.Delete(ctx, "t", []byte("user1")); err != nil {
		t.Errorf("Delete: %v", err)
	}
	if err := c.Close(ctx); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestConnBuffering(t *testing.T) {
	db, multis := fakeDB(t, KeyClientBuffering, "true", KeyWriteBufferSize, "1000", KeyMultiSize, "3")
	ctx := context.Background()
	c, _ := db.Open(ctx)
	rec := drivers.NewRecord(3)
	rec.Set(0, make([]byte, 100))
	for i := 0; i < 5; i++ { // about 130 bytes each: the 8th write fills 1000 bytes
		if err := c.Insert(ctx, "t", []byte("user1"), rec); !errors.Is(err, drivers.ErrBatched) {
			t.Fatalf("buffered insert %d: %v", i, err)
		}
	}
	if multis.Load() != 0 {
		t.Fatalf("%d Multi calls before the buffer filled", multis.Load())
	}
	if err := c.(drivers.BatchWriter).Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if got := multis.Load(); got != 2 { // 5 writes, at most 3 per Multi
		t.Errorf("flush of 5 writes with hbase.multi.maxactions=3: %d Multi calls, want 2", got)
	}
	for i := 0; i < 8; i++ {
		_ = c.Insert(ctx, "t", []byte("user2"), rec)
	}
	if got := multis.Load(); got != 5 { // the 8th insert reached 1000 bytes: 8 writes in 3 calls
		t.Errorf("after 8 more writes: %d Multi calls, want 5", got)
	}
	// A write to another table flushes the first table's writes first.
	_ = c.Insert(ctx, "t", []byte("user3"), rec)
	_ = c.Delete(ctx, "t2", []byte("user3"))
	if got := multis.Load(); got != 6 {
		t.Errorf("after switching tables: %d Multi calls, want 6", got)
	}
}

// TestConnHotPathAllocs: Read, Update, Insert, Delete and a 3-row Scan
// allocate nothing once warm (driver, client and fake server together).
func TestConnHotPathAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	db, _ := fakeDB(t)
	ctx := context.Background()
	c, _ := db.Open(ctx)
	rec := drivers.NewRecord(3)
	upd := drivers.NewRecord(3)
	upd.Set(0, make([]byte, 100))
	upd.Set(2, make([]byte, 100))
	key := []byte("user1")
	fn := func([]byte, *drivers.Record) error { return nil }
	some := drivers.FieldSet{1, 2}
	for _, tc := range []struct {
		name string
		op   func() error
	}{
		{"Read", func() error { return c.Read(ctx, "t", key, nil, rec) }},
		{"ReadFields", func() error { return c.Read(ctx, "t", key, some, rec) }},
		{"Update", func() error { return c.Update(ctx, "t", key, upd) }},
		{"Insert", func() error { return c.Insert(ctx, "t", key, upd) }},
		{"Delete", func() error { return c.Delete(ctx, "t2", key) }},
		{"Scan", func() error { return c.Scan(ctx, "t", key, 3, nil, fn) }},
	} {
		for i := 0; i < 50; i++ {
			if err := tc.op(); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		if n := testing.AllocsPerRun(200, func() { _ = tc.op() }); n > 0 {
			t.Errorf("%s allocates %.2f times per call, want 0", tc.name, n)
		}
	}
}

// TestDBNotes: after a run the DB tells what locating regions and reaching
// servers cost; before any operation it says nothing.
func TestDBNotes(t *testing.T) {
	db, _ := fakeDB(t)
	if n := db.Notes(); n != nil {
		t.Errorf("Notes before any operation: %q; want none", n)
	}
	ctx := context.Background()
	c, err := db.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	rec := drivers.NewRecord(3)
	if err := c.Read(ctx, "t", []byte("user1"), nil, rec); err != nil {
		t.Fatal(err)
	}
	want := []string{"hbase: 1 hbase:meta lookups (at most 1 at once), 1 RegionServer dials (0 failed), 0 RegionMovedException locations followed"}
	if n := db.Notes(); strings.Join(n, "|") != strings.Join(want, "|") {
		t.Errorf("Notes = %q; want %q", n, want)
	}
}

// TestFillMatchesQualifiers: fill puts every cell naming a schema field into
// that field, whatever the cells' order (a row's cells come sorted by
// qualifier: field10 before field2) and skipping qualifiers outside the
// schema.
func TestFillMatchesQualifiers(t *testing.T) {
	var fields []string
	for i := 0; i < 12; i++ {
		fields = append(fields, fmt.Sprintf("field%d", i))
	}
	db := NewDB(Config{Family: "f"}, drivers.Schema{Table: "t", Fields: fields})
	defer db.Close()
	c := &conn{db: db}
	for _, quals := range [][]string{
		{"field0", "field1", "field10", "field11", "field2", "field3", "field4", "field5", "field6", "field7", "field8", "field9"}, // HBase's order
		{"aaa", "field1", "field10", "other", "field5", "zzz"},
		{"field9", "field3", "field10", "field0"}, // out of order
		{"field7"},
	} {
		c.res.Reset()
		c.res.Cells = c.res.Cells[:0]
		for _, q := range quals {
			c.res.Cells = append(c.res.Cells, hbclient.Cell{Qualifier: []byte(q), Value: []byte("v-" + q)})
		}
		rec := drivers.NewRecord(len(fields))
		c.fill(rec)
		want := 0
		for _, q := range quals {
			var f int
			if _, err := fmt.Sscanf(q, "field%d", &f); err != nil {
				continue
			}
			want++
			if v, ok := rec.Get(f); !ok || string(v) != "v-"+q {
				t.Errorf("cells %v: field %d = %q, %v; want %q", quals, f, v, ok, "v-"+q)
			}
		}
		if rec.Count() != want {
			t.Errorf("cells %v: %d fields set, want %d", quals, rec.Count(), want)
		}
	}
}
