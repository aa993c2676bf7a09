package hbclient

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/hbtest"
	"github.com/gobench/gobench/drivers/hbase/pb"
)

// scannerServer fakes a RegionServer's scanners for table t's one region
// [,): an open returns rows r0 and r1 and keeps the scanner; a Next on
// scanner 1 fails as failNext says (the scanner stays open), later Nexts
// (and a reopen after r1) return the last row, r9, and end the scan,
// closing the scanner as HBase does; a close removes it. It tracks the
// scanners open on the "server".
type scannerServer struct {
	failNext string // "hang" (no answer) or an exception class, for scanner 1's first Next
	mu       sync.Mutex
	next     uint64
	open     map[uint64]bool
	failed   bool
}

func (f *scannerServer) openCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.open)
}

func rowsFrom(rows ...string) []*pb.Result {
	var out []*pb.Result
	for _, r := range rows {
		out = append(out, &pb.Result{Cell: []*pb.Cell{pbCell(r, "f", "q", "v", 1)}})
	}
	return out
}

func (f *scannerServer) handle(s *hbtest.Server, id uint32, method, param []byte) {
	var req pb.ScanRequest
	_ = proto.Unmarshal(param, &req)
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case req.Scan != nil && len(req.GetScan().GetStartRow()) > 0: // a reopen after r1
		s.ReplyMsg(id, &pb.ScanResponse{ScannerId: proto.Uint64(99), Results: rowsFrom("r9"),
			MoreResults: proto.Bool(false), MoreResultsInRegion: proto.Bool(false)})
	case req.Scan != nil:
		f.next++
		f.open[f.next] = true
		s.ReplyMsg(id, &pb.ScanResponse{ScannerId: proto.Uint64(f.next), Results: rowsFrom("r0", "r1"),
			MoreResults: proto.Bool(true), MoreResultsInRegion: proto.Bool(true)})
	case req.GetCloseScanner():
		delete(f.open, req.GetScannerId())
		s.ReplyMsg(id, &pb.ScanResponse{})
	case !f.open[req.GetScannerId()]:
		s.ReplyException(id, &pb.ExceptionResponse{ExceptionClassName: proto.String(pkg + "UnknownScannerException"), DoNotRetry: proto.Bool(true)})
	case req.GetScannerId() == 1 && f.failNext != "" && !f.failed:
		f.failed = true
		if f.failNext != "hang" {
			s.ReplyException(id, &pb.ExceptionResponse{ExceptionClassName: proto.String(f.failNext)})
		}
	default:
		delete(f.open, req.GetScannerId()) // the server closes an exhausted scanner itself
		s.ReplyMsg(id, &pb.ScanResponse{ScannerId: proto.Uint64(req.GetScannerId()), Results: rowsFrom("r9"),
			MoreResults: proto.Bool(false), MoreResultsInRegion: proto.Bool(false)})
	}
}

// TestClientScanClosesScannerOnFailure: whatever ends a scan early (a Next
// that times out or fails and is retried elsewhere, a cancelled context,
// the callback's error), the server-side scanner it had open is closed.
func TestClientScanClosesScannerOnFailure(t *testing.T) {
	stop := errors.New("stop")
	for _, tc := range []struct {
		name     string
		failNext string
		fn       func(cancel context.CancelFunc, r *Result) error
		wantErr  error
	}{
		{"next times out", "hang", nil, nil},
		{"next fails, retried", pkg + "RegionTooBusyException", nil, nil},
		{"context cancelled", "hang", func(cancel context.CancelFunc, r *Result) error { cancel(); return nil }, context.Canceled},
		{"callback error", "", func(cancel context.CancelFunc, r *Result) error { return stop }, stop},
	} {
		f := &scannerServer{failNext: tc.failNext, open: map[uint64]bool{}}
		n := hbtest.NewNet(t)
		n.Serve("rs:1", f.handle)
		n.Serve("meta:1", (&metaServer{server: "rs:1"}).handle)
		c := New(Options{Dial: n.Dial, MetaServer: "meta:1", RPCTimeout: 100 * time.Millisecond, RetryPause: time.Millisecond, OperationTimeout: 5 * time.Second})
		c.cache.put(&region{table: "t", name: []byte("t,,1.a."), addr: "rs:1"})
		ctx, cancel := context.WithCancel(context.Background())
		var rows []string
		var res Result
		err := c.Scan(ctx, "t", &ScanSpec{Caching: 2}, &res, func(r *Result) error {
			rows = append(rows, string(r.Row()))
			if tc.fn != nil {
				return tc.fn(cancel, r)
			}
			return nil
		})
		cancel()
		if tc.wantErr == nil && (err != nil || strings.Join(rows, " ") != "r0 r1 r9") || tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
			t.Errorf("%s: scan returned %v (rows %v); want %v", tc.name, err, rows, tc.wantErr)
		}
		for end := time.Now().Add(2 * time.Second); f.openCount() > 0 && time.Now().Before(end); {
			time.Sleep(5 * time.Millisecond)
		}
		if k := f.openCount(); k != 0 {
			t.Errorf("%s: %d scanner(s) left open on the server after the scan (rows %v, err %v)", tc.name, k, rows, err)
		}
		c.Close()
	}
}
