//go:build cluster

package hbclient

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/pb"
	"github.com/gobench/gobench/testenv/cluster"
)

// scanWatch dials the real servers and reads the RPC stream both ways, to
// learn every scanner the servers opened for the client: it matches each
// response to its request's method by call id and records the scanner id
// of every Scan response, per server.
type scanWatch struct {
	d        net.Dialer
	mu       sync.Mutex
	scanners map[string]map[uint64]bool // addr -> scanner id -> seen
}

func newScanWatch() *scanWatch { return &scanWatch{scanners: map[string]map[uint64]bool{}} }

func (w *scanWatch) dial(ctx context.Context, addr string) (net.Conn, error) {
	nc, err := w.d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	return &watchedConn{Conn: nc, w: w, addr: addr, methods: map[uint32]string{}}, nil
}

func (w *scanWatch) saw(addr string, id uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.scanners[addr] == nil {
		w.scanners[addr] = map[uint64]bool{}
	}
	w.scanners[addr][id] = true
}

type watchedConn struct {
	net.Conn
	w    *scanWatch
	addr string

	mu      sync.Mutex
	methods map[uint32]string // call id -> method, of requests not answered yet
	out     []byte            // request bytes not parsed yet
	hello   bool              // preamble and connection header parsed
	in      []byte            // response bytes not parsed yet
}

func (c *watchedConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	c.mu.Lock()
	c.out = append(c.out, b[:n]...)
	c.parseRequests()
	c.mu.Unlock()
	return n, err
}

func (c *watchedConn) parseRequests() {
	if !c.hello {
		if len(c.out) < 10 {
			return
		}
		hl := int(binary.BigEndian.Uint32(c.out[6:10]))
		if len(c.out) < 10+hl {
			return
		}
		c.out, c.hello = c.out[10+hl:], true
	}
	for len(c.out) >= 4 {
		fl := int(binary.BigEndian.Uint32(c.out))
		if len(c.out) < 4+fl {
			return
		}
		f := c.out[4 : 4+fl]
		c.out = c.out[4+fl:]
		h, n := protowire.ConsumeBytes(f)
		if n < 0 {
			continue
		}
		var id uint32
		var method string
		for len(h) > 0 {
			num, typ, k := protowire.ConsumeTag(h)
			if k < 0 {
				break
			}
			h = h[k:]
			switch {
			case num == 1 && typ == protowire.VarintType:
				v, k := protowire.ConsumeVarint(h)
				id, h = uint32(v), h[max(k, 0):]
			case num == 3 && typ == protowire.BytesType:
				v, k := protowire.ConsumeBytes(h)
				method, h = string(v), h[max(k, 0):]
			default:
				k := protowire.ConsumeFieldValue(num, typ, h)
				h = h[max(k, 0):]
			}
		}
		c.methods[id] = method
	}
}

func (c *watchedConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.mu.Lock()
	c.in = append(c.in, b[:n]...)
	for len(c.in) >= 4 {
		fl := int(binary.BigEndian.Uint32(c.in))
		if len(c.in) < 4+fl {
			break
		}
		r, perr := parseResponseFrame(c.in[4 : 4+fl])
		if perr == nil {
			if c.methods[r.callID] == "Scan" && r.exception == nil {
				if sr, err := parseScanResponse(r.body, nil, nil); err == nil && sr.scannerID != 0 {
					c.w.saw(c.addr, sr.scannerID)
				}
			}
			delete(c.methods, r.callID)
		}
		c.in = c.in[4+fl:]
	}
	c.mu.Unlock()
	return n, err
}

// openScanners asks each server about every scanner it opened for the
// client (a Next on it): it returns those still open, and closes them.
// A closed scanner answers UnknownScannerException or, while the server
// remembers closing it, a response with no rows and no flags.
func (w *scanWatch) openScanners(t *testing.T, ctx context.Context, c *Client) (open []string, probed int) {
	t.Helper()
	w.mu.Lock()
	type probe struct {
		addr string
		id   uint64
	}
	var probes []probe
	for addr, ids := range w.scanners {
		for id := range ids {
			probes = append(probes, probe{addr, id})
		}
	}
	w.mu.Unlock()
	var mu sync.Mutex
	var wg sync.WaitGroup
	ch := make(chan probe)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range ch {
				rc, err := c.regionConn(ctx, p.addr, time.Now().Add(30*time.Second))
				if err != nil {
					mu.Lock()
					open = append(open, fmt.Sprintf("%s/%d: %v", p.addr, p.id, err))
					mu.Unlock()
					continue
				}
				cl, err := rc.call(ctx, "Scan", appendScanNext(nil, p.id, 1, 0), 30*time.Second)
				var re *RemoteError
				switch {
				case err == nil:
					var m pb.ScanResponse
					perr := proto.Unmarshal(cl.resp.body, &m)
					live := perr != nil || len(m.Results) > 0 || len(m.CellsPerResult) > 0 || m.MoreResults != nil || m.MoreResultsInRegion != nil
					cl.release()
					if live {
						if cl, err := rc.call(ctx, "Scan", appendScanClose(nil, p.id), 10*time.Second); err == nil {
							cl.release()
						}
						mu.Lock()
						open = append(open, fmt.Sprintf("%s/%d: open (%v)", p.addr, p.id, &m))
						mu.Unlock()
					}
				case errors.As(err, &re) && re.Class == pkg+"UnknownScannerException":
				default:
					mu.Lock()
					open = append(open, fmt.Sprintf("%s/%d: %v", p.addr, p.id, err))
					mu.Unlock()
				}
			}
		}()
	}
	for _, p := range probes {
		ch <- p
	}
	close(ch)
	wg.Wait()
	sort.Strings(open)
	return open, len(probes)
}

// Scans run while regions move every 2 s, the balancer runs and regions
// split: every scan returns exactly the rows it should, in order, none lost
// and none twice, and afterwards no scanner the client opened is still open
// on any server.
func TestClusterScansDuringMovesAndSplits(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	cl := openCluster(t, ctx)
	table := clusterTable(t, ctx, cl, 6)
	const n = 3000
	loadRows(t, ctx, clusterClient(t, Options{}), table, n)
	w := newScanWatch()
	c := clusterClient(t, Options{Dial: w.dial, OperationTimeout: 60 * time.Second})
	rows := make([]string, n)
	for i := range rows {
		rows[i] = rowKey(i, n)
	}

	var scans, scanned atomic.Int64
	stop := make(chan struct{})
	errs := make(chan error, 16)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(uint64(g), 11))
			var res Result
			for k := 0; ; k++ {
				select {
				case <-stop:
					return
				default:
				}
				from, limit, caching := 0, 0, 100 // a whole-table scan, 100 rows per RPC
				if k%4 != 0 {
					from, limit, caching = rnd.IntN(n), 50+rnd.IntN(400), 10+rnd.IntN(60)
				}
				var got []string
				err := c.Scan(context.WithoutCancel(ctx), table, &ScanSpec{Start: []byte(rows[from]), Family: []byte("f"), Limit: limit, Caching: caching},
					&res, func(r *Result) error {
						got = append(got, string(r.Row()))
						return nil
					})
				want := rows[from:]
				if limit > 0 {
					want = want[:min(limit, len(want))]
				}
				if err == nil && strings.Join(got, ",") != strings.Join(want, ",") {
					err = fmt.Errorf("scan from %s limit %d: %d rows, want %d; %s", rows[from], limit, len(got), len(want), firstDiff(got, want))
				}
				if err != nil {
					errs <- err
					return
				}
				scans.Add(1)
				scanned.Add(int64(len(got)))
			}
		}()
	}

	// The fault schedule: a random region moved every 2 s; splits at new
	// rows and balancer runs in between, for about 40 s.
	h := cl.HBase()
	var actions []string
	var faultErr error
	t0 := time.Now()
	for step := 0; step < 16 && faultErr == nil; step++ {
		time.Sleep(time.Until(t0.Add(time.Duration(step) * 2 * time.Second)))
		switch step % 4 {
		case 0, 2:
			var mv []cluster.Move
			if mv, faultErr = h.MoveRegions(ctx, table, 1); faultErr == nil {
				actions = append(actions, fmt.Sprintf("move %v", mv))
			}
		case 1:
			row := rows[(step*617)%n]
			if faultErr = h.Split(ctx, table, row); faultErr == nil {
				actions = append(actions, "split at "+row)
			}
		case 3:
			var b cluster.Balance
			if b, faultErr = h.Balance(ctx); faultErr == nil {
				actions = append(actions, fmt.Sprintf("balance %+v", b))
			}
		}
		select {
		case err := <-errs:
			errs <- err
			faultErr = fmt.Errorf("a scan failed: stopping the faults")
		default:
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if faultErr != nil {
		t.Errorf("fault schedule: %v", faultErr)
	}
	regions, _ := h.Regions(ctx, table)
	t.Logf("%d scans (%d rows) in %v during: %s; the table has %d regions now; client stats %+v", scans.Load(), scanned.Load(),
		time.Since(t0).Round(time.Second), strings.Join(actions, "; "), len(regions), c.Stats())
	if scans.Load() < 20 {
		t.Errorf("only %d scans completed", scans.Load())
	}
	time.Sleep(2 * time.Second) // closes after failed calls run in the background
	open, probed := w.openScanners(t, ctx, c)
	t.Logf("%d scanners opened by the servers for the client; %d still open", probed, len(open))
	for i, s := range open {
		if i == 10 {
			t.Errorf("... and %d more", len(open)-10)
			break
		}
		t.Errorf("scanner left behind: %s", s)
	}
	if probed == 0 {
		t.Errorf("no scanner seen: the watch saw no Scan response")
	}
}

func firstDiff(got, want []string) string {
	for i := 0; i < min(len(got), len(want)); i++ {
		if got[i] != want[i] {
			return fmt.Sprintf("first difference at %d: %s, want %s", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("one is a prefix of the other (%d vs %d)", len(got), len(want))
}
