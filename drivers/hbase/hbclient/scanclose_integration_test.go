//go:build integration

package hbclient

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/pb"
)

// dropProxy dials the real address and can drop one response frame, so
// that the call waiting for it times out while the server went on. It
// remembers the scanner id of the last ScanResponse it passed.
type dropProxy struct {
	mu      sync.Mutex
	armed   bool
	lastID  uint64
	dropped uint64 // scanner id of the response before the dropped one
	real    net.Dialer
}

func (p *dropProxy) dial(ctx context.Context, addr string) (net.Conn, error) {
	c, err := p.real.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	return &dropConn{Conn: c, p: p}, nil
}

// arm makes the proxy drop the next response frame.
func (p *dropProxy) arm() {
	p.mu.Lock()
	p.armed = true
	p.mu.Unlock()
}

func (p *dropProxy) drop(frame []byte) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.armed {
		p.armed, p.dropped = false, p.lastID
		return true
	}
	if r, err := parseResponseFrame(frame); err == nil && r.body != nil {
		if sr, err := parseScanResponse(r.body, nil, nil); err == nil && sr.scannerID != 0 {
			p.lastID = sr.scannerID
		}
	}
	return false
}

type dropConn struct {
	net.Conn
	p   *dropProxy
	buf []byte
}

func (d *dropConn) Read(b []byte) (int, error) {
	for len(d.buf) == 0 {
		var lb [4]byte
		if _, err := io.ReadFull(d.Conn, lb[:]); err != nil {
			return 0, err
		}
		frame := make([]byte, binary.BigEndian.Uint32(lb[:]))
		if _, err := io.ReadFull(d.Conn, frame); err != nil {
			return 0, err
		}
		if !d.p.drop(frame) {
			d.buf = append(lb[:], frame...)
		}
	}
	n := copy(b, d.buf)
	d.buf = d.buf[n:]
	return n, nil
}

// TestIntegrationScanClosesScannerOnFailure: a scan whose Next call times
// out (its response lost) still returns every row once, and closes the
// scanner the lost call left open on the real RegionServer: a Next on that
// scanner id afterwards gets UnknownScannerException.
func TestIntegrationScanClosesScannerOnFailure(t *testing.T) {
	admin := testClient(t)
	table := testTable(t, admin)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var muts []Mutation
	for i := 0; i < 200; i++ {
		muts = append(muts, Mutation{Row: []byte(fmt.Sprintf("r%03d", i)), Type: Put, Family: []byte("f"), Qualifiers: bs("q"), Values: bs("v")})
	}
	if err := admin.Multi(ctx, table, muts); err != nil {
		t.Fatalf("load 200 rows: %v", err)
	}
	p := &dropProxy{}
	c := New(testOptions(t, Options{Dial: p.dial, RPCTimeout: 500 * time.Millisecond, RetryPause: 20 * time.Millisecond, OperationTimeout: 30 * time.Second}))
	defer c.Close()
	var rows []string
	var res Result
	err := c.Scan(ctx, table, &ScanSpec{Caching: 2, Limit: 10}, &res, func(r *Result) error {
		rows = append(rows, string(r.Row()))
		if len(rows) == 2 {
			p.arm() // lose the response of the next Next
		}
		return nil
	})
	want := "r000 r001 r002 r003 r004 r005 r006 r007 r008 r009"
	if err != nil || strings.Join(rows, " ") != want {
		t.Fatalf("scan with a lost Next response: %v, rows %v; want %s", err, rows, want)
	}
	p.mu.Lock()
	id := p.dropped
	p.mu.Unlock()
	if id == 0 {
		t.Fatalf("no response was dropped")
	}
	reg := c.cache.get(table, []byte("r000"))
	if reg == nil {
		t.Fatalf("no cached region for r000")
	}
	time.Sleep(time.Second) // the close runs in the background
	rc, err := admin.regionConn(ctx, reg.addr, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	// A Next on a closed scanner gets UnknownScannerException, or, while the
	// server remembers closing it, a response with only the scanner id
	// (RSRpcServices.SCANNER_ALREADY_CLOSED); on an open one, rows and the
	// more-results flags.
	cl, err := rc.call(ctx, "Scan", appendScanNext(nil, id, 1, 0), 10*time.Second)
	var re *RemoteError
	if err == nil {
		var m pb.ScanResponse
		perr := proto.Unmarshal(cl.resp.body, &m)
		open := perr != nil || len(m.Results) > 0 || len(m.CellsPerResult) > 0 || m.MoreResults != nil || m.MoreResultsInRegion != nil
		cl.release()
		if open {
			if cl, err := rc.call(ctx, "Scan", appendScanClose(nil, id), 10*time.Second); err == nil {
				cl.release()
			}
			t.Fatalf("scanner %d of the failed call is still open on the RegionServer (a Next on it returned %v, %v)", id, &m, perr)
		}
	} else if !errors.As(err, &re) || re.Class != pkg+"UnknownScannerException" {
		t.Fatalf("Next on scanner %d after the scan: %v; want UnknownScannerException or the already-closed answer", id, err)
	}
}
