package hbclient

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/hbtest"
	"github.com/gobench/gobench/drivers/hbase/pb"
)

// scanBody is a ScanResponse with 10 rows that ends the scan.
var scanBody = func() []byte {
	sr := &pb.ScanResponse{ScannerId: proto.Uint64(3), MoreResults: proto.Bool(false), MoreResultsInRegion: proto.Bool(false)}
	for i := 0; i < 10; i++ {
		row := string(rune('a' + i))
		sr.Results = append(sr.Results, &pb.Result{Cell: []*pb.Cell{pbCell(row, "f", "field0", strings.Repeat("v", 100), 1)}})
	}
	b, _ := proto.Marshal(sr)
	return b
}()

func TestClientScanAllocs(t *testing.T) {
	c := fakeClient(t, func(s *hbtest.Server, id uint32, method, param []byte) { s.Reply(id, scanBody) })
	ctx := context.Background()
	var res Result
	rows := 0
	fn := func(r *Result) error { rows++; return nil }
	spec := ScanSpec{Start: []byte("a"), Family: []byte("f"), Limit: 10}
	if err := c.Scan(ctx, "t", &spec, &res, fn); err != nil || rows != 10 {
		t.Fatalf("Scan: %d rows, %v; want 10", rows, err)
	}
	if raceEnabled {
		return
	}
	if n := testing.AllocsPerRun(200, func() { _ = c.Scan(ctx, "t", &spec, &res, fn) }); n > 0 {
		t.Errorf("a 10-row Scan allocates %.2f times, want 0", n)
	}
}

// TestClientScanCrossesRegions: a scan continues in the next region after
// the server says the region is exhausted, telling it the remaining row
// count, and stops at its limit without opening another scanner.
func TestClientScanCrossesRegions(t *testing.T) {
	rowsOf := func(rows ...string) []*pb.Result {
		var out []*pb.Result
		for _, r := range rows {
			out = append(out, &pb.Result{Cell: []*pb.Cell{pbCell(r, "f", "q", "v", 1)}})
		}
		return out
	}
	var mu sync.Mutex
	var opens []string
	c := fakeClient(t, func(s *hbtest.Server, id uint32, method, param []byte) {
		var req pb.ScanRequest
		if err := proto.Unmarshal(param, &req); err != nil {
			t.Errorf("scan request: %v", err)
		}
		mu.Lock()
		opens = append(opens, fmt.Sprintf("%s@%s/%d", req.GetRegion().GetValue(), req.GetScan().GetStartRow(), req.GetLimitOfRows()))
		mu.Unlock()
		if string(req.GetRegion().GetValue()) == "t,,1.a." {
			s.ReplyMsg(id, &pb.ScanResponse{ScannerId: proto.Uint64(1), Results: rowsOf("a", "b"), MoreResults: proto.Bool(true), MoreResultsInRegion: proto.Bool(false)})
			return
		}
		rows := rowsOf("m", "n")
		if n := int(req.GetLimitOfRows()); n > 0 && n < len(rows) {
			rows = rows[:n] // the server honours limit_of_rows
		}
		s.ReplyMsg(id, &pb.ScanResponse{ScannerId: proto.Uint64(2), Results: rows, MoreResults: proto.Bool(false)})
	})
	c.cache.removeTable("t")
	c.cache.put(&region{table: "t", name: []byte("t,,1.a."), end: []byte("m"), addr: "fake:1"})
	c.cache.put(&region{table: "t", name: []byte("t,m,1.b."), start: []byte("m"), addr: "fake:1"})
	for _, tc := range []struct {
		limit int
		want  string
		opens string
	}{
		{0, "a b m n", "t,,1.a.@/0 t,m,1.b.@m/0"},
		{2, "a b", "t,,1.a.@/2"},
		{3, "a b m", "t,,1.a.@/3 t,m,1.b.@m/1"},
	} {
		opens = nil
		var got []string
		var res Result
		err := c.Scan(context.Background(), "t", &ScanSpec{Limit: tc.limit}, &res, func(r *Result) error {
			got = append(got, string(r.Row()))
			return nil
		})
		if err != nil || strings.Join(got, " ") != tc.want || strings.Join(opens, " ") != tc.opens {
			t.Errorf("scan limit %d: rows %v, opens %v, %v; want rows %s, opens %s", tc.limit, got, opens, err, tc.want, tc.opens)
		}
	}
}

// TestClientScanReopensLostScanner: when the server loses the scanner
// (lease expired), the scan reopens after the last row it delivered,
// excluding that row, and no row is seen twice.
func TestClientScanReopensLostScanner(t *testing.T) {
	var mu sync.Mutex
	var calls []string
	c := fakeClient(t, func(s *hbtest.Server, id uint32, method, param []byte) {
		var req pb.ScanRequest
		_ = proto.Unmarshal(param, &req)
		mu.Lock()
		n := len(calls)
		if req.Scan != nil {
			calls = append(calls, fmt.Sprintf("open@%s/incl=%v", req.GetScan().GetStartRow(), req.GetScan().GetIncludeStartRow()))
		} else {
			calls = append(calls, fmt.Sprintf("next#%d", req.GetScannerId()))
		}
		mu.Unlock()
		switch n {
		case 0:
			s.ReplyMsg(id, &pb.ScanResponse{ScannerId: proto.Uint64(7), Results: []*pb.Result{
				{Cell: []*pb.Cell{pbCell("a", "f", "q", "1", 1)}}, {Cell: []*pb.Cell{pbCell("b", "f", "q", "1", 1)}},
			}, MoreResults: proto.Bool(true), MoreResultsInRegion: proto.Bool(true)})
		case 1:
			s.ReplyException(id, &pb.ExceptionResponse{ExceptionClassName: proto.String(pkg + "UnknownScannerException"), DoNotRetry: proto.Bool(true)})
		default:
			s.ReplyMsg(id, &pb.ScanResponse{ScannerId: proto.Uint64(8), Results: []*pb.Result{
				{Cell: []*pb.Cell{pbCell("c", "f", "q", "1", 1)}},
			}, MoreResults: proto.Bool(false)})
		}
	})
	var got []string
	var res Result
	err := c.Scan(context.Background(), "t", &ScanSpec{Caching: 2}, &res, func(r *Result) error {
		got = append(got, string(r.Row()))
		return nil
	})
	want := "open@/incl=true next#7 open@b/incl=false"
	if err != nil || strings.Join(got, " ") != "a b c" || strings.Join(calls, " ") != want {
		t.Fatalf("rows %v, calls %v, err %v; want rows a b c, calls %s", got, calls, err, want)
	}
}
