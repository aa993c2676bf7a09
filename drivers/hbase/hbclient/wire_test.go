package hbclient

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/pb"
)

func bs(s ...string) [][]byte {
	var out [][]byte
	for _, x := range s {
		out = append(out, []byte(x))
	}
	return out
}

func TestConnectionHeaderBytes(t *testing.T) {
	// hbase-wire.md §1.5: SIMPLE, user hbase, ClientService, no codec.
	want := []byte{0x48, 0x42, 0x61, 0x73, 0x00, 0x50, 0x00, 0x00, 0x00, 0x18,
		0x0A, 0x07, 0x0A, 0x05, 'h', 'b', 'a', 's', 'e',
		0x12, 0x0D, 'C', 'l', 'i', 'e', 'n', 't', 'S', 'e', 'r', 'v', 'i', 'c', 'e'}
	if got := appendConnectionHeader(nil, "hbase", "ClientService", false); !bytes.Equal(got, want) {
		t.Fatalf("hello for hbase/ClientService:\n got % x\nwant % x", got, want)
	}
}

func TestRequestFrameRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		id      uint32
		method  string
		prio    priority
		timeout uint32
		param   []byte
	}{
		{1, "Get", prioNormal, 0, []byte{1, 2, 3}},
		{300, "Mutate", prioNormal, 60000, bytes.Repeat([]byte{7}, 200)},
		{301, "Scan", prioSystem, 60000, []byte{9}},
		{0xFFFFFFFE, "getProcedureResult", prioUnset, 1, nil},
	} {
		f := appendRequestFrame([]byte("junk"), tc.id, tc.method, tc.prio, tc.timeout, tc.param, nil)[4:]
		if n := binary.BigEndian.Uint32(f); int(n) != len(f)-4 {
			t.Errorf("%+v: total length %d, frame has %d bytes after it", tc, n, len(f)-4)
			continue
		}
		b := f[4:]
		h, n := protowire.ConsumeBytes(b)
		var hdr pb.RequestHeader
		if n < 0 || proto.Unmarshal(h, &hdr) != nil {
			t.Errorf("%+v: header does not parse", tc)
			continue
		}
		p, m := protowire.ConsumeBytes(b[n:])
		if hdr.GetCallId() != tc.id || hdr.GetMethodName() != tc.method || !hdr.GetRequestParam() ||
			hdr.GetTimeout() != tc.timeout || (tc.timeout == 0) != (hdr.Timeout == nil) ||
			(tc.prio == prioUnset) != (hdr.Priority == nil) || (hdr.Priority != nil && hdr.GetPriority() != uint32(tc.prio)) {
			t.Errorf("%+v: header %v", tc, &hdr)
		}
		if m < 0 || !bytes.Equal(p, tc.param) || n+m != len(b) {
			t.Errorf("%+v: param %x (n=%d of %d)", tc, p, n+m, len(b))
		}
	}
	// The example header of hbase-wire.md §2.1.
	f := appendRequestFrame(nil, 1, "Get", prioUnset, 0, nil, nil)
	if want := []byte{0x09, 0x08, 0x01, 0x1A, 0x03, 'G', 'e', 't', 0x20, 0x01}; !bytes.Equal(f[4:4+len(want)], want) {
		t.Errorf("Get header for call 1: % x, want % x", f[4:4+len(want)], want)
	}
}

// responseBytes builds a response frame body (after the 4-byte length).
func responseBytes(t testing.TB, id uint32, exc *pb.ExceptionResponse, body proto.Message) []byte {
	h, err := proto.Marshal(&pb.ResponseHeader{CallId: proto.Uint32(id), Exception: exc})
	if err != nil {
		t.Fatal(err)
	}
	b := protowire.AppendBytes(nil, h)
	if exc == nil {
		p, err := proto.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		b = protowire.AppendBytes(b, p)
	}
	return b
}

func TestParseResponseFrame(t *testing.T) {
	body := &pb.GetResponse{Result: &pb.Result{Cell: []*pb.Cell{{Row: []byte("r")}}}}
	want, _ := proto.Marshal(body)
	r, err := parseResponseFrame(responseBytes(t, 42, nil, body))
	if err != nil || r.callID != 42 || r.exception != nil || !bytes.Equal(r.body, want) {
		t.Fatalf("parse ok frame: %+v, %v", r, err)
	}
	r, err = parseResponseFrame(responseBytes(t, 0xFFFFFFFF, &pb.ExceptionResponse{ExceptionClassName: proto.String("X")}, nil))
	if err != nil || r.callID != 0xFFFFFFFF || r.exception == nil || r.body != nil {
		t.Fatalf("parse exception frame: %+v, %v", r, err)
	}
	full := responseBytes(t, 7, nil, body)
	for _, tc := range [][]byte{nil, {0x05}, full[:3], full[:len(full)-1], {0x02, 0x08}} {
		if _, err := parseResponseFrame(tc); !errors.Is(err, errCorrupt) {
			t.Errorf("parseResponseFrame(% x) = %v, want errCorrupt", tc, err)
		}
	}
}

func regionSpec(name string) *pb.RegionSpecifier {
	return &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: []byte(name)}
}

func TestGetRequestMatchesGenerated(t *testing.T) {
	for _, tc := range []struct {
		family string
		quals  [][]byte
	}{{"", nil}, {"f", nil}, {"family", bs("field0", "field9", "")}} {
		var fam []byte
		want := &pb.GetRequest{Region: regionSpec("t,,1.abc."), Get: &pb.Get{Row: []byte("user1")}}
		if tc.family != "" {
			fam = []byte(tc.family)
			want.Get.Column = []*pb.Column{{Family: fam, Qualifier: tc.quals}}
		}
		b := appendGetRequest(nil, []byte("t,,1.abc."), []byte("user1"), fam, tc.quals)
		var got pb.GetRequest
		if err := proto.Unmarshal(b, &got); err != nil || !proto.Equal(&got, want) {
			t.Errorf("family %q quals %q: decoded %v (%v), want %v", tc.family, tc.quals, &got, err, want)
		}
	}
}

func mutationProto(m *Mutation) *pb.MutationProto {
	mp := &pb.MutationProto{Row: m.Row, MutateType: pb.MutationProto_MutationType(m.Type).Enum()}
	if m.Durability != UseDefault {
		mp.Durability = pb.MutationProto_Durability(m.Durability).Enum()
	}
	if len(m.Qualifiers) > 0 {
		cv := &pb.MutationProto_ColumnValue{Family: m.Family}
		for i, q := range m.Qualifiers {
			qv := &pb.MutationProto_ColumnValue_QualifierValue{Qualifier: q}
			if m.Type == Delete {
				qv.DeleteType = pb.MutationProto_DELETE_MULTIPLE_VERSIONS.Enum()
			} else {
				qv.Value = m.Values[i]
			}
			cv.QualifierValue = append(cv.QualifierValue, qv)
		}
		mp.ColumnValue = []*pb.MutationProto_ColumnValue{cv}
	}
	return mp
}

var testMutations = []Mutation{
	{Row: []byte("user1"), Type: Put, Family: []byte("family"), Qualifiers: bs("field0", "field1"), Values: bs("v0", string(bytes.Repeat([]byte{0xff}, 300)))},
	{Row: []byte("user2"), Type: Put, Family: []byte("f"), Qualifiers: bs("q"), Values: bs(""), Durability: SkipWAL},
	{Row: []byte("user3"), Type: Delete},
	{Row: []byte("user4"), Type: Delete, Family: []byte("f"), Qualifiers: bs("a", "b"), Durability: FsyncWAL},
}

func TestMutateRequestMatchesGenerated(t *testing.T) {
	for i := range testMutations {
		m := &testMutations[i]
		want := &pb.MutateRequest{Region: regionSpec("r1"), Mutation: mutationProto(m)}
		b := appendMutateRequest(nil, []byte("r1"), m)
		var got pb.MutateRequest
		if err := proto.Unmarshal(b, &got); err != nil || !proto.Equal(&got, want) {
			t.Errorf("mutation %+v: decoded %v (%v), want %v", m, &got, err, want)
		}
	}
}

func TestMultiRequestMatchesGenerated(t *testing.T) {
	batches := []*regionBatch{
		{reg: &region{name: []byte("t,,1.a.")}, idxs: []int{0, 2}},
		{reg: &region{name: []byte("t,user3,1.b.")}, idxs: []int{3, 1}},
	}
	want := &pb.MultiRequest{}
	for _, rb := range batches {
		ra := &pb.RegionAction{Region: regionSpec(string(rb.reg.name))}
		for pos, i := range rb.idxs {
			ra.Action = append(ra.Action, &pb.Action{Index: proto.Uint32(uint32(pos + 1)), Mutation: mutationProto(&testMutations[i])})
		}
		want.RegionAction = append(want.RegionAction, ra)
	}
	var got pb.MultiRequest
	if err := proto.Unmarshal(appendMultiRequest(nil, testMutations, batches), &got); err != nil || !proto.Equal(&got, want) {
		t.Fatalf("multi: decoded %v (%v), want %v", &got, err, want)
	}
}

func TestScanRequestsMatchGenerated(t *testing.T) {
	s := &ScanSpec{Stop: []byte("zz"), Family: []byte("f"), Qualifiers: bs("a")}
	b := appendScanOpen(nil, []byte("reg"), s, []byte("user5"), false, 2<<20, 10, 7)
	want := &pb.ScanRequest{
		Region: regionSpec("reg"),
		Scan: &pb.Scan{Column: []*pb.Column{{Family: []byte("f"), Qualifier: bs("a")}}, StartRow: []byte("user5"),
			StopRow: []byte("zz"), MaxResultSize: proto.Uint64(2 << 20), IncludeStartRow: proto.Bool(false)},
		NumberOfRows: proto.Uint32(10), LimitOfRows: proto.Uint32(7),
	}
	var got pb.ScanRequest
	if err := proto.Unmarshal(b, &got); err != nil || !proto.Equal(&got, want) {
		t.Errorf("open: decoded %v (%v), want %v", &got, err, want)
	}
	b = appendScanOpen(nil, []byte("reg"), &ScanSpec{}, nil, true, 100, 1, 0)
	want = &pb.ScanRequest{Region: regionSpec("reg"), Scan: &pb.Scan{MaxResultSize: proto.Uint64(100)}, NumberOfRows: proto.Uint32(1)}
	got.Reset()
	if err := proto.Unmarshal(b, &got); err != nil || !proto.Equal(&got, want) {
		t.Errorf("open from table start: decoded %v (%v), want %v", &got, err, want)
	}
	got.Reset()
	want = &pb.ScanRequest{ScannerId: proto.Uint64(1 << 40), NumberOfRows: proto.Uint32(5), LimitOfRows: proto.Uint32(3)}
	if err := proto.Unmarshal(appendScanNext(nil, 1<<40, 5, 3), &got); err != nil || !proto.Equal(&got, want) {
		t.Errorf("next: decoded %v (%v), want %v", &got, err, want)
	}
	got.Reset()
	want = &pb.ScanRequest{ScannerId: proto.Uint64(9), NumberOfRows: proto.Uint32(0), CloseScanner: proto.Bool(true)}
	if err := proto.Unmarshal(appendScanClose(nil, 9), &got); err != nil || !proto.Equal(&got, want) {
		t.Errorf("close: decoded %v (%v), want %v", &got, err, want)
	}
}

func pbCell(row, fam, q, v string, ts uint64) *pb.Cell {
	return &pb.Cell{Row: []byte(row), Family: []byte(fam), Qualifier: []byte(q), Value: []byte(v),
		Timestamp: proto.Uint64(ts), CellType: pb.CellType_PUT.Enum(), Tags: []byte("ignored")}
}

func TestResultDecode(t *testing.T) {
	in := &pb.Result{Cell: []*pb.Cell{pbCell("r1", "f", "a", "1", 10), pbCell("r1", "f", "b", "", 1<<62)}, Partial: proto.Bool(true), Stale: proto.Bool(true)}
	b, _ := proto.Marshal(in)
	var r Result
	for round := 0; round < 2; round++ { // the second round reuses the storage
		r.Reset()
		if _, err := r.decode(b); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if len(r.Cells) != 2 || !r.Partial || string(r.Row()) != "r1" {
			t.Fatalf("round %d: %d cells, partial %v, row %q", round, len(r.Cells), r.Partial, r.Row())
		}
		for i, c := range in.Cell {
			g := r.Cells[i]
			if !bytes.Equal(g.Row, c.Row) || !bytes.Equal(g.Family, c.Family) || !bytes.Equal(g.Qualifier, c.Qualifier) ||
				!bytes.Equal(g.Value, c.Value) || g.Timestamp != c.GetTimestamp() || g.Type != CellPut {
				t.Errorf("round %d cell %d = %+v, want %v", round, i, g, c)
			}
		}
		if v, ok := r.Value([]byte("f"), []byte("a")); !ok || string(v) != "1" {
			t.Errorf("Value(f, a) = %q, %v", v, ok)
		}
		if _, ok := r.Value([]byte("f"), []byte("zz")); ok {
			t.Errorf("Value(f, zz) found")
		}
	}
	// Appending a second result keeps the first one's cells intact.
	if _, err := r.decode(b); err != nil || len(r.Cells) != 4 || string(r.Cells[0].Qualifier) != "a" {
		t.Fatalf("second decode without reset: %v, %d cells", err, len(r.Cells))
	}
	for _, bad := range [][]byte{{0x0A, 0x05, 0x0A}, {0x0A, 0x02, 0x0A, 0x09}, {0x28}} {
		if _, err := r.decode(bad); !errors.Is(err, errCorrupt) {
			t.Errorf("decode(% x) = %v, want errCorrupt", bad, err)
		}
	}
}

func TestParseScanResponse(t *testing.T) {
	in := &pb.ScanResponse{ScannerId: proto.Uint64(77), MoreResults: proto.Bool(true), MoreResultsInRegion: proto.Bool(false),
		Results: []*pb.Result{{Cell: []*pb.Cell{pbCell("a", "f", "q", "1", 1)}}, {Cell: []*pb.Cell{pbCell("b", "f", "q", "2", 1)}}},
		Ttl:     proto.Uint32(60000), MvccReadPoint: proto.Uint64(5)}
	b, _ := proto.Marshal(in)
	sr, err := parseScanResponse(b, nil, nil)
	if err != nil || sr.scannerID != 77 || !sr.more || sr.moreInRegion || !sr.hasMoreInRegion || len(sr.results) != 2 {
		t.Fatalf("parse: %+v, %v", sr, err)
	}
	var r Result
	if _, err := r.decode(sr.results[1]); err != nil || string(r.Row()) != "b" {
		t.Fatalf("second result: row %q, %v", r.Row(), err)
	}
	sr, err = parseScanResponse(nil, sr.results, sr.counts)
	if err != nil || !sr.more || !sr.moreInRegion || sr.hasMoreInRegion || len(sr.results) != 0 {
		t.Fatalf("empty response: %+v, %v (want defaults more=true, moreInRegion=true)", sr, err)
	}
}
