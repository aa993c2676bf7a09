//go:build integration

package hbclient

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// frameTap counts, on the connections it dials, the request frames sent
// with a cell block and the response frames received with one.
type frameTap struct {
	reqCells, respCells, reqs, resps atomic.Int32
	d                                net.Dialer
}

func (ft *frameTap) dial(ctx context.Context, addr string) (net.Conn, error) {
	c, err := ft.d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	return &tapConn{Conn: c, ft: ft}, nil
}

type tapConn struct {
	net.Conn
	ft     *frameTap
	mu     sync.Mutex
	out    []byte // written bytes not yet framed
	hello  bool   // the preamble and connection header were skipped
	in     []byte
	inLock sync.Mutex
}

func (c *tapConn) Write(b []byte) (int, error) {
	c.mu.Lock()
	c.out = append(c.out, b...)
	if !c.hello && len(c.out) >= 10 {
		if n := 10 + int(binary.BigEndian.Uint32(c.out[6:])); len(c.out) >= n {
			c.out, c.hello = c.out[n:], true
		}
	}
	for c.hello && len(c.out) >= 4 {
		n := 4 + int(binary.BigEndian.Uint32(c.out))
		if len(c.out) < n {
			break
		}
		f := c.out[4:n]
		h, _ := protowire.ConsumeBytes(f)
		c.ft.reqs.Add(1)
		if hasField(h, 5) {
			c.ft.reqCells.Add(1)
		}
		c.out = c.out[n:]
	}
	c.mu.Unlock()
	return c.Conn.Write(b)
}

func (c *tapConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.inLock.Lock()
	c.in = append(c.in, b[:n]...)
	for len(c.in) >= 4 {
		m := 4 + int(binary.BigEndian.Uint32(c.in))
		if len(c.in) < m {
			break
		}
		if r, err := parseResponseFrame(c.in[4:m]); err == nil {
			c.ft.resps.Add(1)
			if r.cells != nil {
				c.ft.respCells.Add(1)
			}
		}
		c.in = c.in[m:]
	}
	c.inLock.Unlock()
	return n, err
}

// rowsOf scans table with c and renders every row as row{q=v,...}.
func rowsOf(t *testing.T, c *Client, table string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out []string
	var res Result
	err := c.Scan(ctx, table, &ScanSpec{Caching: 7}, &res, func(r *Result) error {
		var kv []string
		for _, cell := range r.Cells {
			kv = append(kv, string(cell.Qualifier)+"="+string(cell.Value))
		}
		out = append(out, string(r.Row())+"{"+strings.Join(kv, ",")+"}")
		return nil
	})
	if err != nil {
		t.Fatalf("scan %s: %v", table, err)
	}
	return strings.Join(out, " ")
}

// TestIntegrationCellBlocks: against the real HBase 2.6, the default
// client sends a Multi's Put and Delete cells in request cell blocks and a
// single Mutate's in its protobuf (as Java's client), and gets Get, Scan
// and meta results in response cell blocks; what it writes reads back
// the same through a client with protobuf cells, and the other way round.
func TestIntegrationCellBlocks(t *testing.T) {
	admin := testClient(t)
	table := testTable(t, admin, "row2", "row4")
	ft := &frameTap{}
	c := New(testOptions(t, Options{Dial: ft.dial, OperationTimeout: 30 * time.Second}))
	defer c.Close()
	p := New(testOptions(t, Options{PBCells: true, OperationTimeout: 30 * time.Second}))
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	fam := []byte("f")

	// Mutate with cells inline, read back both ways.
	m := Mutation{Row: []byte("row1"), Type: Put, Family: fam, Qualifiers: bs("a", "b", "c"), Values: bs("1", "", strings.Repeat("x", 3000))}
	if err := c.Mutate(ctx, table, &m); err != nil {
		t.Fatalf("put: %v", err)
	}
	if n := ft.reqCells.Load(); n != 0 {
		t.Errorf("%d requests went with a cell block after a single Mutate (Java's client sends its cells in the protobuf)", n)
	}
	for name, cl := range map[string]*Client{"cell blocks": c, "pb cells": p} {
		before := ft.respCells.Load()
		var res Result
		if err := cl.Get(ctx, table, []byte("row1"), fam, nil, &res); err != nil || len(res.Cells) != 3 {
			t.Fatalf("get row1 (%s): %v, %d cells", name, err, len(res.Cells))
		}
		if v, _ := res.Value(fam, []byte("c")); string(v) != strings.Repeat("x", 3000) || res.Cells[1].Type != CellPut || res.Cells[0].Timestamp < uint64(time.Now().Add(-time.Hour).UnixMilli()) {
			t.Errorf("get row1 (%s): cells %+v", name, res.Cells[:2])
		}
		if cl == c && ft.respCells.Load() == before {
			t.Errorf("the Get's result did not come in a cell block")
		}
	}

	// Multi over 3 regions: puts, a column delete, a row delete.
	var muts []Mutation
	for i := 0; i < 6; i++ {
		muts = append(muts, Mutation{Row: []byte(fmt.Sprintf("row%d", i)), Type: Put, Family: fam, Qualifiers: bs("q1", "q2"), Values: bs(fmt.Sprint(i), "v")})
	}
	if err := c.Multi(ctx, table, muts); err != nil {
		t.Fatalf("multi put with cell blocks: %v", err)
	}
	if ft.reqCells.Load() == 0 {
		t.Errorf("the Multi's request went without a cell block")
	}
	dels := []Mutation{
		{Row: []byte("row3"), Type: Delete, Family: fam, Qualifiers: bs("q2")},
		{Row: []byte("row5"), Type: Delete},
	}
	if err := c.Multi(ctx, table, dels); err != nil {
		t.Fatalf("multi delete with cell blocks: %v", err)
	}
	if err := c.Mutate(ctx, table, &Mutation{Row: []byte("row1"), Type: Delete, Family: fam, Qualifiers: bs("a", "b", "c")}); err != nil {
		t.Fatalf("delete of columns: %v", err)
	}
	want := "row0{q1=0,q2=v} row1{q1=1,q2=v} row2{q1=2,q2=v} row3{q1=3} row4{q1=4,q2=v}"
	before := ft.respCells.Load()
	if got := rowsOf(t, c, table); got != want {
		t.Errorf("scan with cell blocks:\n got %s\nwant %s", got, want)
	}
	if ft.respCells.Load() == before {
		t.Errorf("the scan's results did not come in cell blocks")
	}
	if got := rowsOf(t, p, table); got != want {
		t.Errorf("scan with pb cells:\n got %s\nwant %s", got, want)
	}
	// The other way: written with pb cells, read with cell blocks.
	if err := p.Multi(ctx, table, []Mutation{{Row: []byte("row6"), Type: Put, Family: fam, Qualifiers: bs("z"), Values: bs("pb")}}); err != nil {
		t.Fatal(err)
	}
	var res Result
	if err := c.Get(ctx, table, []byte("row6"), fam, nil, &res); err != nil || len(res.Cells) != 1 || string(res.Cells[0].Value) != "pb" {
		t.Errorf("get of a pb-written row with cell blocks: %v, %+v", err, res.Cells)
	}
	t.Logf("%d requests (%d with cells), %d responses (%d with cells)", ft.reqs.Load(), ft.reqCells.Load(), ft.resps.Load(), ft.respCells.Load())
}
