package hbclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/hbtest"
	"github.com/gobench/gobench/drivers/hbase/pb"
)

// getBody is a serialized GetResponse with two cells of row r1.
var getBody = func() []byte {
	b, _ := proto.Marshal(&pb.GetResponse{Result: &pb.Result{Cell: []*pb.Cell{
		pbCell("r1", "f", "field0", strings.Repeat("v", 100), 1), pbCell("r1", "f", "field1", strings.Repeat("w", 100), 1)}}})
	return b
}()

// fakeClient returns a client whose every dial reaches a fake server running
// handle, with table t's single region cached at fake:1.
func fakeClient(t testing.TB, handle func(s *hbtest.Server, id uint32, method, param []byte)) *Client {
	dial, _ := hbtest.Dialer(t, handle)
	c := New(Options{Dial: dial, OperationTimeout: 5 * time.Second, RetryPause: time.Millisecond})
	c.cache.put(&region{table: "t", name: []byte("t,,1.a."), addr: "fake:1"})
	t.Cleanup(func() { c.Close() })
	return c
}

func echoHandler(s *hbtest.Server, id uint32, method, param []byte) {
	switch string(method) {
	case "Get":
		s.Reply(id, getBody)
	default:
		s.Reply(id, nil)
	}
}

func TestClientGetMutate(t *testing.T) {
	c := fakeClient(t, echoHandler)
	ctx := context.Background()
	var res Result
	if err := c.Get(ctx, "t", []byte("r1"), []byte("f"), nil, &res); err != nil || len(res.Cells) != 2 || string(res.Cells[1].Qualifier) != "field1" {
		t.Fatalf("Get: %v, cells %+v", err, res.Cells)
	}
	m := Mutation{Row: []byte("r1"), Type: Put, Family: []byte("f"), Qualifiers: bs("a"), Values: bs("1")}
	if err := c.Mutate(ctx, "t", &m); err != nil {
		t.Fatalf("Mutate: %v", err)
	}
	for _, bad := range []Mutation{
		{Type: Put, Family: []byte("f"), Qualifiers: bs("a"), Values: bs("1")},
		{Row: []byte("r"), Type: Put, Family: []byte("f")},
		{Row: []byte("r"), Type: Put, Family: []byte("f"), Qualifiers: bs("a", "b"), Values: bs("1")},
		{Row: []byte("r"), Type: 9},
		{Row: []byte("r"), Type: Put, Qualifiers: bs("a"), Values: bs("1")},
	} {
		if err := c.Mutate(ctx, "t", &bad); err == nil {
			t.Errorf("Mutate(%+v) accepted", bad)
		}
	}
}

// TestClientHotPathAllocs: Get and Mutate allocate nothing in steady state
// (client, connection and the fake server together).
func TestClientHotPathAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	c := fakeClient(t, echoHandler)
	ctx := context.Background()
	var res Result
	row, fam := []byte("r1"), []byte("f")
	quals := bs("field0", "field1")
	m := Mutation{Row: row, Type: Put, Family: fam, Qualifiers: quals, Values: bs(strings.Repeat("x", 100), strings.Repeat("y", 100))}
	for i := 0; i < 100; i++ { // warm pools and buffers
		_ = c.Get(ctx, "t", row, fam, quals, &res)
		_ = c.Mutate(ctx, "t", &m)
	}
	if n := testing.AllocsPerRun(500, func() {
		if err := c.Get(ctx, "t", row, fam, quals, &res); err != nil {
			t.Fatal(err)
		}
	}); n > 0 {
		t.Errorf("Get allocates %.2f times per call, want 0", n)
	}
	if n := testing.AllocsPerRun(500, func() {
		if err := c.Mutate(ctx, "t", &m); err != nil {
			t.Fatal(err)
		}
	}); n > 0 {
		t.Errorf("Mutate allocates %.2f times per call, want 0", n)
	}
	// under a run's context (cancellable: the connection watches it)
	run, cancel := context.WithCancel(ctx)
	defer cancel()
	for i := 0; i < 100; i++ {
		_ = c.Get(run, "t", row, fam, quals, &res)
	}
	if n := testing.AllocsPerRun(500, func() {
		if err := c.Get(run, "t", row, fam, quals, &res); err != nil {
			t.Fatal(err)
		}
	}); n > 0 {
		t.Errorf("Get under a cancellable context allocates %.2f times per call, want 0", n)
	}
}

func BenchmarkClientGetFake(b *testing.B) {
	c := fakeClient(b, echoHandler)
	ctx := context.Background()
	var res Result
	row, fam := []byte("r1"), []byte("f")
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Get(ctx, "t", row, fam, nil, &res); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkClientMutateFake(b *testing.B) {
	c := fakeClient(b, echoHandler)
	ctx := context.Background()
	m := Mutation{Row: []byte("r1"), Type: Put, Family: []byte("f"), Qualifiers: bs("field0", "field1"), Values: bs(strings.Repeat("x", 100), strings.Repeat("y", 100))}
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Mutate(ctx, "t", &m); err != nil {
			b.Fatal(err)
		}
	}
}

// metaRowResult is an hbase:meta row for a region of table [start, end) at server.
func metaRowResult(table, start, end, server string) *pb.Result {
	ri, _ := proto.Marshal(&pb.RegionInfo{RegionId: proto.Uint64(1), TableName: tableName(table), StartKey: []byte(start), EndKey: []byte(end)})
	name := table + "," + start + ",1.x."
	return &pb.Result{Cell: []*pb.Cell{
		pbCell(name, "info", "regioninfo", "PBUF"+string(ri), 1),
		pbCell(name, "info", "server", server, 1),
	}}
}

// TestClientRelocates: NotServingRegion drops the cached region; the client
// re-reads hbase:meta, finds the region's new server and retries there.
func TestClientRelocates(t *testing.T) {
	var gets, metaScans atomic.Int32
	var lastMetaStart atomic.Value
	c := fakeClient(t, func(s *hbtest.Server, id uint32, method, param []byte) {
		switch string(method) {
		case "Get":
			if gets.Add(1) == 1 {
				s.ReplyException(id, &pb.ExceptionResponse{ExceptionClassName: proto.String(pkg + "NotServingRegionException")})
				return
			}
			s.Reply(id, getBody)
		case "Scan":
			metaScans.Add(1)
			var req pb.ScanRequest
			_ = proto.Unmarshal(param, &req)
			lastMetaStart.Store(string(req.GetScan().GetStartRow()))
			s.ReplyMsg(id, &pb.ScanResponse{Results: []*pb.Result{
				metaRowResult("t", "m", "", "fake:2"), metaRowResult("t", "", "m", "fake:2"),
			}, MoreResults: proto.Bool(false)})
		}
	})
	c.metaAddr = "fake:meta"
	var res Result
	if err := c.Get(context.Background(), "t", []byte("r1"), nil, nil, &res); err != nil || len(res.Cells) != 2 {
		t.Fatalf("Get after NotServingRegion: %v", err)
	}
	if gets.Load() != 2 || metaScans.Load() != 1 || lastMetaStart.Load() != "t,r1,99999999999999" {
		t.Errorf("gets %d, meta scans %d (start %v); want 2, 1, t,r1,99999999999999", gets.Load(), metaScans.Load(), lastMetaStart.Load())
	}
	if r := c.cache.get("t", []byte("a")); r == nil || r.addr != "fake:2" || string(r.end) != "m" {
		t.Errorf("prefetched region for row a: %+v; want [,m) at fake:2", r)
	}
	// A table meta does not know is permanent.
	if err := c.Get(context.Background(), "other", []byte("r1"), nil, nil, &res); !errors.Is(err, ErrTableNotFound) {
		t.Errorf("Get on a table meta lacks: %v; want ErrTableNotFound", err)
	}
}

// TestClientMultiRetriesFailedActions: one action fails with a retryable
// exception and is resent alone; a permanent one fails the call.
func TestClientMultiRetriesFailedActions(t *testing.T) {
	var rounds atomic.Int32
	var sizes []int
	c := fakeClient(t, func(s *hbtest.Server, id uint32, method, param []byte) {
		var req pb.MultiRequest
		if err := proto.Unmarshal(param, &req); err != nil {
			t.Errorf("multi request: %v", err)
		}
		round := rounds.Add(1)
		ra := req.GetRegionAction()[0]
		sizes = append(sizes, len(ra.GetAction()))
		rar := &pb.RegionActionResult{}
		for _, a := range ra.GetAction() {
			roe := &pb.ResultOrException{Index: proto.Uint32(a.GetIndex()), Result: &pb.Result{}}
			row := string(a.GetMutation().GetRow())
			if round == 1 && row == "b" {
				roe = &pb.ResultOrException{Index: proto.Uint32(a.GetIndex()), Exception: &pb.NameBytesPair{Name: proto.String(pkg + "RegionTooBusyException")}}
			}
			if row == "bad" {
				roe = &pb.ResultOrException{Index: proto.Uint32(a.GetIndex()), Exception: &pb.NameBytesPair{Name: proto.String(pkg + "regionserver.NoSuchColumnFamilyException"), Value: []byte("no family x")}}
			}
			rar.ResultOrException = append(rar.ResultOrException, roe)
		}
		s.ReplyMsg(id, &pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{rar}})
	})
	muts := []Mutation{
		{Row: []byte("a"), Type: Put, Family: []byte("f"), Qualifiers: bs("q"), Values: bs("1")},
		{Row: []byte("b"), Type: Put, Family: []byte("f"), Qualifiers: bs("q"), Values: bs("2")},
		{Row: []byte("c"), Type: Delete},
	}
	if err := c.Multi(context.Background(), "t", muts); err != nil {
		t.Fatalf("Multi: %v", err)
	}
	if len(sizes) != 2 || sizes[0] != 3 || sizes[1] != 1 {
		t.Errorf("actions per round %v; want [3 1]", sizes)
	}
	muts[2].Row = []byte("bad")
	err := c.Multi(context.Background(), "t", muts)
	var re *RemoteError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "1 of 3 mutations failed") || !strings.Contains(err.Error(), "no family x") {
		t.Errorf("Multi with a permanent failure: %v", err)
	}
}

func TestClientGivesUpAtDeadline(t *testing.T) {
	c := fakeClient(t, func(s *hbtest.Server, id uint32, method, param []byte) {
		s.ReplyException(id, &pb.ExceptionResponse{ExceptionClassName: proto.String(pkg + "RegionTooBusyException")})
	})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	var res Result
	err := c.Get(ctx, "t", []byte("r"), nil, nil, &res)
	if err == nil || !strings.Contains(err.Error(), "RegionTooBusyException") || time.Since(start) > 2*time.Second {
		t.Fatalf("Get against a busy region: %v after %v; want RegionTooBusy within the 200ms deadline (+slack)", err, time.Since(start))
	}
}

func BenchmarkClientGetParallelFake(b *testing.B) {
	b.Run("background", func(b *testing.B) { benchGetParallel(b, context.Background()) })
	run, cancel := context.WithCancel(context.Background()) // as a run's operations
	defer cancel()
	b.Run("run-context", func(b *testing.B) { benchGetParallel(b, run) })
}

func benchGetParallel(b *testing.B, ctx context.Context) {
	c := fakeClient(b, echoHandler)
	row, fam := []byte("r1"), []byte("f")
	b.ReportAllocs()
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		var res Result
		for pb.Next() {
			if err := c.Get(ctx, "t", row, fam, nil, &res); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func TestMultiResponseClean(t *testing.T) {
	batches := []*regionBatch{{idxs: []int{0, 1}}, {idxs: []int{2}}}
	ok := func(i uint32) *pb.ResultOrException {
		return &pb.ResultOrException{Index: proto.Uint32(i), Result: &pb.Result{}}
	}
	ex := &pb.NameBytesPair{Name: proto.String("X")}
	for _, tc := range []struct {
		name string
		resp *pb.MultiResponse
		want bool
	}{
		{"all ok", &pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{{ResultOrException: []*pb.ResultOrException{ok(1), ok(2)}}, {ResultOrException: []*pb.ResultOrException{ok(1)}}}, Processed: proto.Bool(true)}, true},
		{"action exception", &pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{{ResultOrException: []*pb.ResultOrException{ok(1), {Index: proto.Uint32(2), Exception: ex}}}, {ResultOrException: []*pb.ResultOrException{ok(1)}}}}, false},
		{"region exception", &pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{{ResultOrException: []*pb.ResultOrException{ok(1), ok(2)}}, {Exception: ex}}}, false},
		{"result missing", &pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{{ResultOrException: []*pb.ResultOrException{ok(1)}}, {ResultOrException: []*pb.ResultOrException{ok(1)}}}}, false},
		{"region missing", &pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{{ResultOrException: []*pb.ResultOrException{ok(1), ok(2)}}}}, false},
	} {
		b, _ := proto.Marshal(tc.resp)
		if got := multiResponseClean(b, batches); got != tc.want {
			t.Errorf("%s: multiResponseClean = %v, want %v", tc.name, got, tc.want)
		}
	}
	if multiResponseClean([]byte{0x0A, 0x05, 0x0A}, batches) {
		t.Errorf("a truncated response is clean")
	}
}

// TestClientMultiAllocs: a flush of 100 puts to one region allocates a
// handful of times per call (grouping, one goroutine per server), not per
// mutation.
func TestClientMultiAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const n = 100
	rar := &pb.RegionActionResult{}
	for i := 1; i <= n; i++ {
		rar.ResultOrException = append(rar.ResultOrException, &pb.ResultOrException{Index: proto.Uint32(uint32(i)), Result: &pb.Result{}})
	}
	body, _ := proto.Marshal(&pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{rar}})
	c := fakeClient(t, func(s *hbtest.Server, id uint32, method, param []byte) { s.Reply(id, body) })
	muts := make([]Mutation, n)
	for i := range muts {
		muts[i] = Mutation{Row: []byte(fmt.Sprintf("row%03d", i)), Type: Put, Family: []byte("f"), Qualifiers: bs("q"), Values: bs("v")}
	}
	ctx := context.Background()
	if err := c.Multi(ctx, "t", muts); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(50, func() { _ = c.Multi(ctx, "t", muts) }); a > 20 {
		t.Errorf("Multi of %d puts allocates %.0f times, want at most 20", n, a)
	} else {
		t.Logf("Multi of %d puts: %.0f allocations", n, a)
	}
}

// TestClientGetResultOwnsFrame: a Get's Result keeps the response frame its
// cells point into (no copy), so they stay intact while other Gets run and
// reuse pooled frames, until the Result is reset; with cell blocks and with
// protobuf cells.
func TestClientGetResultOwnsFrame(t *testing.T) {
	for _, cellBlock := range []bool{true, false} {
		// The value of every cell names the row asked for.
		c := fakeClient(t, func(s *hbtest.Server, id uint32, method, param []byte) {
			var req pb.GetRequest
			if err := proto.Unmarshal(param, &req); err != nil {
				t.Errorf("GetRequest: %v", err)
			}
			row := string(req.GetGet().GetRow())
			cells := []*pb.Cell{pbCell(row, "f", "field0", "v-"+row, 1), pbCell(row, "f", "field1", "w-"+row, 1)}
			if cellBlock {
				body, _ := proto.Marshal(&pb.GetResponse{Result: &pb.Result{AssociatedCellCount: proto.Int32(2)}})
				s.ReplyCells(id, body, hbtest.KeyValues(cells...))
				return
			}
			s.ReplyMsg(id, &pb.GetResponse{Result: &pb.Result{Cell: cells}})
		})
		ctx := context.Background()
		var first Result
		if err := c.Get(ctx, "t", []byte("r0"), []byte("f"), nil, &first); err != nil {
			t.Fatal(err)
		}
		if first.frame == nil {
			t.Errorf("cell block %v: the Result did not keep the response frame", cellBlock)
		}
		var other Result
		for i := 1; i <= 50; i++ {
			row := fmt.Sprintf("r%d", i)
			if err := c.Get(ctx, "t", []byte(row), []byte("f"), nil, &other); err != nil {
				t.Fatal(err)
			}
			if v, _ := other.Value([]byte("f"), []byte("field1")); string(v) != "w-"+row {
				t.Fatalf("cell block %v: Get %s: field1 = %q", cellBlock, row, v)
			}
		}
		if len(first.Cells) != 2 || string(first.Row()) != "r0" || string(first.Cells[0].Value) != "v-r0" || string(first.Cells[1].Value) != "w-r0" {
			t.Errorf("cell block %v: the first Get's cells changed under later Gets: %+v", cellBlock, first.Cells)
		}
		first.Reset()
		if first.frame != nil || len(first.Cells) != 0 {
			t.Errorf("cell block %v: Reset kept the frame or cells", cellBlock)
		}
	}
}
