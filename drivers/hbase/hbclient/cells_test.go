package hbclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/hbtest"
	"github.com/gobench/gobench/drivers/hbase/pb"
)

func TestConnectionHeaderWithCodec(t *testing.T) {
	b := appendConnectionHeader(nil, "u", "ClientService", true)
	if !bytes.HasPrefix(b, preamble) || int(beUint32(b[6:])) != len(b)-10 {
		t.Fatalf("hello % x: bad preamble or length", b)
	}
	h := b[10:]
	var ch pb.ConnectionHeader
	if err := proto.Unmarshal(h, &ch); err != nil || ch.GetCellBlockCodecClass() != keyValueCodec || ch.GetServiceName() != "ClientService" || ch.GetUserInfo().GetEffectiveUser() != "u" {
		t.Fatalf("header %v, %v", &ch, err)
	}
	// Field 5, VersionInfo: six required strings, then major 2, minor 6.
	var vi []byte
	for len(h) > 0 {
		num, typ, n := protowire.ConsumeTag(h)
		h = h[n:]
		n = protowire.ConsumeFieldValue(num, typ, h)
		if num == 5 {
			vi, _ = protowire.ConsumeBytes(h)
		}
		h = h[n:]
	}
	var strs []string
	var major, minor uint64
	for len(vi) > 0 {
		num, typ, n := protowire.ConsumeTag(vi)
		vi = vi[n:]
		switch typ {
		case protowire.BytesType:
			v, n := protowire.ConsumeBytes(vi)
			if int(num) != len(strs)+1 {
				t.Errorf("VersionInfo string field %d out of order", num)
			}
			strs = append(strs, string(v))
			vi = vi[n:]
		case protowire.VarintType:
			v, n := protowire.ConsumeVarint(vi)
			if num == 7 {
				major = v
			} else if num == 8 {
				minor = v
			}
			vi = vi[n:]
		}
	}
	if len(strs) != 6 || !strings.HasPrefix(strs[0], "2.6") || major != 2 || minor != 6 {
		t.Errorf("VersionInfo strings %q, major %d, minor %d; want 6 strings, version 2.6.x, 2, 6", strs, major, minor)
	}
}

func beUint32(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

func TestRequestFrameWithCells(t *testing.T) {
	cells := hbtest.KeyValues(hbtest.Cell("r", "f", "q", "v", 1))
	f := appendRequestFrame(nil, 5, "Mutate", prioNormal, 100, []byte("param"), cells)
	if int(beUint32(f)) != len(f)-4 {
		t.Fatalf("total length %d, frame %d", beUint32(f), len(f)-4)
	}
	h, n := protowire.ConsumeBytes(f[4:])
	var hdr pb.RequestHeader
	if n < 0 || proto.Unmarshal(h, &hdr) != nil || int(hdr.GetCellBlockMeta().GetLength()) != len(cells) || hdr.GetTimeout() != 100 || hdr.Priority == nil || hdr.GetPriority() != 0 {
		t.Fatalf("header %v", &hdr)
	}
	p, m := protowire.ConsumeBytes(f[4+n:])
	if string(p) != "param" || !bytes.Equal(f[4+n+m:], cells) {
		t.Errorf("param %q, cell block % x; want param, % x", p, f[4+n+m:], cells)
	}
}

// responseWithCells builds a response frame (after the length) with a cell block.
func responseWithCells(t *testing.T, id uint32, body proto.Message, cells []byte, metaLen int) []byte {
	h, _ := proto.Marshal(&pb.ResponseHeader{CallId: proto.Uint32(id), CellBlockMeta: &pb.CellBlockMeta{Length: proto.Uint32(uint32(metaLen))}})
	p, _ := proto.Marshal(body)
	return append(protowire.AppendBytes(protowire.AppendBytes(nil, h), p), cells...)
}

func TestParseResponseFrameCells(t *testing.T) {
	cells := hbtest.KeyValues(hbtest.Cell("r", "f", "q", "v", 1))
	r, err := parseResponseFrame(responseWithCells(t, 3, &pb.GetResponse{}, cells, len(cells)))
	if err != nil || !bytes.Equal(r.cells, cells) || r.callID != 3 {
		t.Fatalf("frame with a cell block: %+v, %v", r, err)
	}
	if _, err := parseResponseFrame(responseWithCells(t, 3, &pb.GetResponse{}, cells, len(cells)+1)); !errors.Is(err, errCorrupt) {
		t.Errorf("cell block shorter than its meta: %v, want errCorrupt", err)
	}
	plain := responseBytes(t, 3, nil, &pb.GetResponse{})
	if _, err := parseResponseFrame(append(plain, 1, 2)); !errors.Is(err, errCorrupt) {
		t.Errorf("trailing bytes without a cell block meta: %v, want errCorrupt", err)
	}
	if r, err := parseResponseFrame(plain); err != nil || r.cells != nil {
		t.Errorf("frame without a cell block: cells %v, %v", r.cells, err)
	}
}

// TestKeyValuesMatchHBTest: this client's KeyValue encoder and decoder
// agree with hbtest's independent ones, and garbage is refused.
func TestKeyValuesMatchHBTest(t *testing.T) {
	in := []*pb.Cell{hbtest.Cell("row1", "fam", "qual", "value", 7), hbtest.Cell("row1", "fam", "", "", 1<<62), hbtest.Cell("r", "f", strings.Repeat("q", 300), strings.Repeat("v", 70000), 1)}
	var b []byte
	for _, c := range in {
		b = appendKeyValue(b, c.Row, c.Family, c.Qualifier, c.GetTimestamp(), byte(c.GetCellType()), c.Value)
	}
	if want := hbtest.KeyValues(in...); !bytes.Equal(b, want) {
		t.Fatalf("appendKeyValue differs from hbtest.KeyValues")
	}
	var r Result
	rest, err := r.decodeKeyValues(append(b, 9), len(in))
	if err != nil || len(rest) != 1 || len(r.Cells) != len(in) {
		t.Fatalf("decodeKeyValues: %v, %d cells, %d bytes left", err, len(r.Cells), len(rest))
	}
	for i, c := range in {
		g := r.Cells[i]
		if !bytes.Equal(g.Row, c.Row) || !bytes.Equal(g.Family, c.Family) || !bytes.Equal(g.Qualifier, c.Qualifier) || !bytes.Equal(g.Value, c.Value) ||
			g.Timestamp != c.GetTimestamp() || g.Type != CellPut {
			t.Errorf("cell %d = %+v, want %v", i, g, c)
		}
	}
	one := hbtest.KeyValues(in[0])
	for _, bad := range [][]byte{one[:11], one[:len(one)-1], append([]byte{0, 0, 0, 200}, one[4:]...), append(one[:4:4], append([]byte{0, 0, 0, 1}, one[8:]...)...)} {
		var r Result
		if _, err := r.decodeKeyValues(bad, 1); !errors.Is(err, errCorrupt) {
			t.Errorf("decodeKeyValues(% x) = %v, want errCorrupt", bad, err)
		}
	}
}

// wantCells is the cells a mutation must carry in a cell block.
func wantCells(m *Mutation) []*pb.Cell {
	var out []*pb.Cell
	for i, q := range m.Qualifiers {
		c := &pb.Cell{Row: m.Row, Family: m.Family, Qualifier: q, Timestamp: proto.Uint64(latestTimestamp), CellType: pb.CellType_PUT.Enum(), Value: []byte{}}
		if m.Type == Delete {
			c.CellType = pb.CellType_DELETE_COLUMN.Enum()
		} else {
			c.Value = m.Values[i]
		}
		out = append(out, c)
	}
	return out
}

func equalCells(got, want []*pb.Cell) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !proto.Equal(got[i], want[i]) {
			return false
		}
	}
	return true
}

func TestMutationCellBlocks(t *testing.T) {
	put := &Mutation{Row: []byte("user1"), Type: Put, Family: []byte("f"), Qualifiers: bs("a", "b"), Values: bs("1", ""), Durability: SyncWAL}
	del := &Mutation{Row: []byte("user2"), Type: Delete, Family: []byte("f"), Qualifiers: bs("a")}
	rowDel := &Mutation{Row: []byte("user3"), Type: Delete}
	var mp pb.MutationProto
	if err := proto.Unmarshal(appendMutationNoData(nil, put), &mp); err != nil {
		t.Fatal(err)
	}
	want := &pb.MutationProto{Row: put.Row, MutateType: pb.MutationProto_PUT.Enum(), Durability: pb.MutationProto_SYNC_WAL.Enum(), AssociatedCellCount: proto.Int32(2)}
	if !proto.Equal(&mp, want) || len(appendMutationNoData(nil, put)) != mutationNoDataSize(put) {
		t.Errorf("no-data put: %v, want %v", &mp, want)
	}
	for _, m := range []*Mutation{put, del} {
		got, err := hbtest.ParseKeyValues(appendMutationCells(nil, m))
		if err != nil || !equalCells(got, wantCells(m)) {
			t.Errorf("cells of %+v: %v, %v; want %v", m, got, err, wantCells(m))
		}
	}
	// Multi: cells in action order across regions; a row delete stays inline.
	muts := []Mutation{*put, *rowDel, *del}
	batches := []*regionBatch{{reg: &region{name: []byte("r1")}, idxs: []int{0, 1}}, {reg: &region{name: []byte("r2")}, idxs: []int{2}}}
	b, cells := appendMultiRequestCells(nil, nil, muts, batches)
	var mr pb.MultiRequest
	if err := proto.Unmarshal(b, &mr); err != nil || len(mr.GetRegionAction()) != 2 {
		t.Fatalf("multi: %v, %v", &mr, err)
	}
	a := mr.GetRegionAction()[0].GetAction()
	if len(a) != 2 || a[0].GetMutation().GetAssociatedCellCount() != 2 || len(a[0].GetMutation().GetColumnValue()) != 0 ||
		a[1].GetMutation().AssociatedCellCount != nil || string(a[1].GetMutation().GetRow()) != "user3" ||
		mr.GetRegionAction()[1].GetAction()[0].GetMutation().GetAssociatedCellCount() != 1 {
		t.Errorf("multi actions: %v", &mr)
	}
	got, err := hbtest.ParseKeyValues(cells)
	if err != nil || !equalCells(got, append(wantCells(put), wantCells(del)...)) {
		t.Errorf("multi cell block: %v, %v", got, err)
	}
}

func TestParseScanResponseCellCounts(t *testing.T) {
	packed, _ := proto.Marshal(&pb.ScanResponse{CellsPerResult: []uint32{2, 1, 300}, ScannerId: proto.Uint64(4)})
	var unpacked []byte
	for _, v := range []uint64{2, 1, 300} {
		unpacked = protowire.AppendVarint(protowire.AppendTag(unpacked, 1, protowire.VarintType), v)
	}
	for name, b := range map[string][]byte{"packed": packed, "unpacked": unpacked} {
		sr, err := parseScanResponse(b, nil, nil)
		if err != nil || fmt.Sprint(sr.counts) != "[2 1 300]" || len(sr.results) != 0 {
			t.Errorf("%s cells_per_result: %+v, %v", name, sr, err)
		}
	}
}

// cellFake is a RegionServer that answers in cell-block mode when the
// connection asked for the codec (as HBase does), checking the request
// cells it gets against the mutations' content.
type cellFake struct {
	t     *testing.T
	mu    sync.Mutex
	cells []*pb.Cell // request cells seen in cell blocks
	// a single Mutate's columns seen inline in its protobuf, and whether
	// one came with a cell block
	inline        int
	mutateBlocked bool
	rows          []string // rows of the scan
}

func (f *cellFake) handle(s *hbtest.Server, id uint32, method, param []byte) {
	codec := s.Codec() == keyValueCodec
	row := func(r string) []*pb.Cell {
		return []*pb.Cell{pbCellNoTags(r, "f", "field0", "v0-"+r), pbCellNoTags(r, "f", "field1", "v1-"+r)}
	}
	switch string(method) {
	case "Get":
		if !codec || !s.HasVersionInfo() {
			s.ReplyMsg(id, &pb.GetResponse{Result: &pb.Result{Cell: row("g")}})
			return
		}
		b, _ := proto.Marshal(&pb.GetResponse{Result: &pb.Result{AssociatedCellCount: proto.Int32(2)}})
		s.ReplyCells(id, b, hbtest.KeyValues(row("g")...))
	case "Scan":
		if !codec {
			sr := &pb.ScanResponse{ScannerId: proto.Uint64(1), MoreResults: proto.Bool(false)}
			for _, r := range f.rows {
				sr.Results = append(sr.Results, &pb.Result{Cell: row(r)})
			}
			s.ReplyMsg(id, sr)
			return
		}
		sr := &pb.ScanResponse{ScannerId: proto.Uint64(1), MoreResults: proto.Bool(false)}
		var cells []*pb.Cell
		for _, r := range f.rows {
			sr.CellsPerResult = append(sr.CellsPerResult, 2)
			sr.PartialFlagPerResult = append(sr.PartialFlagPerResult, false)
			cells = append(cells, row(r)...)
		}
		b, _ := proto.Marshal(sr)
		s.ReplyCells(id, b, hbtest.KeyValues(cells...))
	case "Mutate", "Multi":
		if cb := s.CellBlock(); cb != nil {
			got, err := hbtest.ParseKeyValues(cb)
			if err != nil {
				f.t.Errorf("%s cell block: %v", method, err)
			}
			f.mu.Lock()
			f.cells = append(f.cells, got...)
			f.mu.Unlock()
		}
		if string(method) == "Mutate" {
			var req pb.MutateRequest
			_ = proto.Unmarshal(param, &req)
			f.mu.Lock()
			for _, cv := range req.GetMutation().GetColumnValue() {
				f.inline += len(cv.GetQualifierValue())
			}
			f.mutateBlocked = f.mutateBlocked || s.CellBlock() != nil
			f.mu.Unlock()
			s.Reply(id, nil)
			return
		}
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
	}
}

func pbCellNoTags(row, fam, q, v string) *pb.Cell {
	return &pb.Cell{Row: []byte(row), Family: []byte(fam), Qualifier: []byte(q), Value: []byte(v), Timestamp: proto.Uint64(5), CellType: pb.CellType_PUT.Enum()}
}

// TestClientCellBlocks: by default Get and Scan results come back as cell
// blocks and a Multi's Put/Delete cells go out in cell blocks, while a
// single Mutate carries its cells in the protobuf (as Java's client sends
// it); with PBCells nothing travels in a cell block; the results are the
// same either way.
func TestClientCellBlocks(t *testing.T) {
	for _, pbCells := range []bool{false, true} {
		f := &cellFake{t: t, rows: []string{"a", "b", "c"}}
		n := hbtest.NewNet(t)
		n.Serve("rs:1", f.handle)
		c := netClient(t, n, "rs:1", "rs:1", Options{PBCells: pbCells})
		ctx := context.Background()
		var res Result
		if err := c.Get(ctx, "t", []byte("g"), nil, nil, &res); err != nil || len(res.Cells) != 2 || string(res.Cells[1].Value) != "v1-g" || res.Cells[1].Timestamp != 5 {
			t.Errorf("PBCells %v: Get: %v, cells %+v", pbCells, err, res.Cells)
		}
		var rows []string
		if err := c.Scan(ctx, "t", &ScanSpec{}, &res, func(r *Result) error {
			v, _ := r.Value([]byte("f"), []byte("field0"))
			rows = append(rows, string(r.Row())+"="+string(v))
			return nil
		}); err != nil || strings.Join(rows, " ") != "a=v0-a b=v0-b c=v0-c" {
			t.Errorf("PBCells %v: Scan: %v, rows %v", pbCells, err, rows)
		}
		put := Mutation{Row: []byte("a"), Type: Put, Family: []byte("f"), Qualifiers: bs("x", "y"), Values: bs("1", "2")}
		del := Mutation{Row: []byte("z"), Type: Delete, Family: []byte("f"), Qualifiers: bs("x")}
		if err := c.Mutate(ctx, "t", &put); err != nil {
			t.Errorf("PBCells %v: Mutate: %v", pbCells, err)
		}
		if err := c.Multi(ctx, "t", []Mutation{put, {Row: []byte("r"), Type: Delete}, del}); err != nil {
			t.Errorf("PBCells %v: Multi: %v", pbCells, err)
		}
		var want []*pb.Cell
		if !pbCells {
			want = append(wantCells(&put), wantCells(&del)...)
		}
		f.mu.Lock()
		if !equalCells(f.cells, want) {
			t.Errorf("PBCells %v: request cells %v, want %v", pbCells, f.cells, want)
		}
		if f.inline != 2 || f.mutateBlocked {
			t.Errorf("PBCells %v: Mutate sent %d columns inline (want 2) and a cell block: %v", pbCells, f.inline, f.mutateBlocked)
		}
		f.mu.Unlock()
		if s := n.Servers("rs:1"); len(s) != 1 || (s[0].Codec() == "") != pbCells {
			t.Errorf("PBCells %v: %d connections, codec %q", pbCells, len(s), s[0].Codec())
		}
	}
}

// TestClientCodecRefusedFallsBack: a server that refuses the codec (fatal
// UnsupportedCellCodecException) is re-dialled without it; the operation
// succeeds, and later dials go without it too.
func TestClientCodecRefusedFallsBack(t *testing.T) {
	f := &cellFake{t: t}
	n := hbtest.NewNet(t)
	n.Serve("rs:1", f.handle)
	n.RefuseCodec("rs:1")
	n.Serve("meta:1", (&metaServer{server: "rs:1"}).handle)
	c := netClient(t, n, "rs:1", "rs:1", Options{MetaServer: "meta:1"})
	var res Result
	if err := c.Get(context.Background(), "t", []byte("g"), nil, nil, &res); err != nil || len(res.Cells) != 2 {
		t.Fatalf("Get from a server refusing the codec: %v, %d cells", err, len(res.Cells))
	}
	s := n.Servers("rs:1")
	if len(s) != 2 || s[0].Codec() != keyValueCodec || s[1].Codec() != "" || !c.noCodec.Load() {
		t.Errorf("%d connections (codecs %v); want 2: the refused one with the codec, then one without", len(s), codecs(s))
	}
}

func codecs(s []*hbtest.Server) []string {
	var out []string
	for _, x := range s {
		out = append(out, x.Codec())
	}
	return out
}

// TestClientMetaLookupCellBlocks: a meta lookup answered in cell-block mode
// (cells_per_result and a cell block) locates the region.
func TestClientMetaLookupCellBlocks(t *testing.T) {
	n := hbtest.NewNet(t)
	n.Serve("rs:1", echoHandler)
	n.Serve("meta:1", func(s *hbtest.Server, id uint32, method, param []byte) {
		r1, r2 := metaRowResult("t", "m", "", "rs:1"), metaRowResult("t", "", "m", "rs:1")
		for _, c := range append(r1.Cell, r2.Cell...) {
			c.Tags = nil
		}
		b, _ := proto.Marshal(&pb.ScanResponse{CellsPerResult: []uint32{uint32(len(r1.Cell)), uint32(len(r2.Cell))}, MoreResults: proto.Bool(false)})
		s.ReplyCells(id, b, hbtest.KeyValues(append(r1.Cell, r2.Cell...)...))
	})
	c := New(Options{Dial: n.Dial, MetaServer: "meta:1"})
	defer c.Close()
	var res Result
	if err := c.Get(context.Background(), "t", []byte("x"), nil, nil, &res); err != nil {
		t.Fatalf("Get after a cell-block meta lookup: %v", err)
	}
	if r := c.cache.get("t", []byte("a")); r == nil || string(r.end) != "m" || r.addr != "rs:1" {
		t.Errorf("prefetched region [,m): %+v", r)
	}
}

// TestClientCellBlockAllocs: on a codec connection (cell-block results),
// Get, Mutate and Scan still allocate nothing in steady state.
func TestClientCellBlockAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	// Precomputed answers, so that the fake allocates nothing either.
	row := func(r string) []*pb.Cell {
		return []*pb.Cell{pbCellNoTags(r, "f", "field0", strings.Repeat("v", 100)), pbCellNoTags(r, "f", "field1", strings.Repeat("w", 100))}
	}
	getBody, _ := proto.Marshal(&pb.GetResponse{Result: &pb.Result{AssociatedCellCount: proto.Int32(2)}})
	getCells := hbtest.KeyValues(row("g")...)
	scanBody, _ := proto.Marshal(&pb.ScanResponse{ScannerId: proto.Uint64(1), MoreResults: proto.Bool(false), CellsPerResult: []uint32{2, 2, 2, 2}})
	scanCells := hbtest.KeyValues(append(append(append(row("a"), row("b")...), row("c")...), row("d")...)...)
	n := hbtest.NewNet(t)
	n.Serve("rs:1", func(s *hbtest.Server, id uint32, method, param []byte) {
		switch string(method) {
		case "Get":
			s.ReplyCells(id, getBody, getCells)
		case "Scan":
			s.ReplyCells(id, scanBody, scanCells)
		default:
			s.Reply(id, nil)
		}
	})
	c := netClient(t, n, "rs:1", "rs:1", Options{})
	ctx := context.Background()
	var res Result
	fn := func(*Result) error { return nil }
	spec := ScanSpec{Limit: 4}
	m := Mutation{Row: []byte("r1"), Type: Put, Family: []byte("f"), Qualifiers: bs("field0", "field1"), Values: bs(strings.Repeat("x", 100), strings.Repeat("y", 100))}
	g := []byte("g")
	for i := 0; i < 50; i++ {
		_ = c.Get(ctx, "t", g, nil, nil, &res)
		_ = c.Mutate(ctx, "t", &m)
		_ = c.Scan(ctx, "t", &spec, &res, fn)
	}
	for name, op := range map[string]func(){
		"Get":    func() { _ = c.Get(ctx, "t", g, nil, nil, &res) },
		"Mutate": func() { _ = c.Mutate(ctx, "t", &m) },
		"Scan":   func() { _ = c.Scan(ctx, "t", &spec, &res, fn) },
	} {
		if a := testing.AllocsPerRun(300, op); a > 0 {
			t.Errorf("%s with cell blocks allocates %.2f times per call, want 0", name, a)
		}
	}
	if s := n.Servers("rs:1"); len(s) != 1 || s[0].Codec() != keyValueCodec {
		t.Errorf("the connection did not use the codec")
	}
}
