package hbclient

import (
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/pb"
)

func reg(start, end, addr string) *region {
	return &region{table: "t", name: []byte("t," + start + ",1."), start: []byte(start), end: []byte(end), addr: addr}
}

func TestRegionCache(t *testing.T) {
	rc := newRegionCache()
	a, b, c := reg("", "g", "s1"), reg("g", "p", "s1"), reg("p", "", "s2")
	for _, r := range []*region{c, a, b} {
		rc.put(r)
	}
	for _, tc := range []struct {
		row  string
		want *region
	}{{"", a}, {"a", a}, {"f\xff", a}, {"g", b}, {"o", b}, {"p", c}, {"zzz", c}} {
		if got := rc.get("t", []byte(tc.row)); got != tc.want {
			t.Errorf("get(%q) = %+v, want %+v", tc.row, got, tc.want)
		}
	}
	if rc.get("other", []byte("a")) != nil {
		t.Errorf("get on an uncached table found a region")
	}
	// A split of b replaces it; rows of the daughters find them.
	b1, b2 := reg("g", "k", "s2"), reg("k", "p", "s2")
	rc.put(b1)
	if got := rc.get("t", []byte("m")); got != nil {
		t.Errorf("after caching daughter [g,k), row m = %+v; want nil (b evicted)", got)
	}
	rc.put(b2)
	if rc.get("t", []byte("h")) != b1 || rc.get("t", []byte("m")) != b2 || rc.get("t", []byte("a")) != a {
		t.Errorf("daughters not found after split")
	}
	rc.remove(b) // no longer cached: nothing changes
	if rc.get("t", []byte("m")) != b2 {
		t.Errorf("removing a stale entry dropped its replacement")
	}
	rc.removeServer("s2")
	if rc.get("t", []byte("h")) != nil || rc.get("t", []byte("zz")) != nil || rc.get("t", []byte("a")) != a {
		t.Errorf("removeServer(s2) left s2's regions or dropped s1's")
	}
	rc.remove(a)
	if rc.get("t", []byte("a")) != nil {
		t.Errorf("remove(a) left it cached")
	}
	rc.put(a)
	rc.removeTable("t")
	if rc.get("t", []byte("a")) != nil {
		t.Errorf("removeTable left regions")
	}
}

func znode(idLen int, msg proto.Message) []byte {
	b := []byte{0xFF}
	b = binary.BigEndian.AppendUint32(b, uint32(idLen))
	b = append(b, make([]byte, idLen)...)
	b = append(b, "PBUF"...)
	m, _ := proto.Marshal(msg)
	return append(b, m...)
}

func TestParseZNodes(t *testing.T) {
	sn := &pb.ServerName{HostName: proto.String("rs1.example"), Port: proto.Uint32(16020), StartCode: proto.Uint64(5)}
	addr, open, err := parseMetaZNode(znode(20, &pb.MetaRegionServer{Server: sn, State: pb.RegionStateState_OPEN.Enum()}))
	if err != nil || addr != "rs1.example:16020" || !open {
		t.Errorf("meta znode: %q %v %v", addr, open, err)
	}
	_, open, err = parseMetaZNode(znode(0, &pb.MetaRegionServer{Server: sn, State: pb.RegionStateState_OPENING.Enum()}))
	if err != nil || open {
		t.Errorf("meta znode in OPENING: open=%v %v; want not open", open, err)
	}
	noMeta, _ := proto.Marshal(&pb.Master{Master: sn})
	if addr, err := parseMasterZNode(append([]byte("PBUF"), noMeta...)); err != nil || addr != "rs1.example:16020" {
		t.Errorf("master znode without metadata prefix: %q %v", addr, err)
	}
	for _, bad := range [][]byte{nil, {0xFF, 0, 0}, {0xFF, 0, 0, 0, 9, 1}, []byte("XBUF\x0a\x00"), append([]byte{0xFF, 0, 0, 0, 0}, "PBUF\xff"...)} {
		if _, _, err := parseMetaZNode(bad); err == nil {
			t.Errorf("parseMetaZNode(% x) accepted", bad)
		}
	}
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want action
	}{
		{&RemoteError{Class: pkg + "NotServingRegionException"}, actRelocate},
		{&RemoteError{Class: pkg + "exceptions.RegionOpeningException", DoNotRetry: false}, actRetry},
		{&RemoteError{Class: pkg + "CallQueueTooBigException", Overloaded: true}, actRetry},
		{&RemoteError{Class: pkg + "ipc.ServerNotRunningYetException"}, actServerDown},
		{&RemoteError{Class: pkg + "regionserver.RegionServerStoppedException"}, actServerDown},
		{&RemoteError{Class: pkg + "UnknownScannerException", DoNotRetry: true}, actReopen},
		{&RemoteError{Class: pkg + "TableNotFoundException", DoNotRetry: true}, actFail},
		{&RemoteError{Class: "com.example.Unknown", DoNotRetry: true}, actFail},
		{&RemoteError{Class: "com.example.Unknown"}, actRelocate},
		{&RemoteError{Class: "java.io.IOException", Message: "x: Cannot append; log is closed"}, actRelocate},
		{fmt.Errorf("dial: %w", ErrConnection), actReconnect},
		{fmt.Errorf("get: %w: %w", errTimeout, ErrConnection), actRelocate},
		{fmt.Errorf("hole: %w", errRegionNotReady), actRelocate},
		{fmt.Errorf("t: %w", ErrTableNotFound), actFail},
		{errors.New("other"), actFail},
	} {
		if got := classify(tc.err); got != tc.want {
			t.Errorf("classify(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
	if !errors.Is(&RemoteError{Class: pkg + "TableExistsException"}, ErrTableExists) {
		t.Errorf("TableExistsException is not ErrTableExists")
	}
	for _, tc := range []struct{ class, msg, want string }{
		{"C", "m1\n\tat x", "C: m1"},
		{"a.B", "a.B: gone\n\tat x", "a.B: gone"},
		{"C", "", "C"},
	} {
		if got := (&RemoteError{Class: tc.class, Message: tc.msg}).Error(); got != tc.want {
			t.Errorf("RemoteError{%q, %q}.Error() = %q, want %q", tc.class, tc.msg, got, tc.want)
		}
	}
}
