package hbtest

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/pb"
)

// hello is a preamble and connection header for ClientService, with codec
// if not empty.
func hello(codec string) []byte {
	h, _ := proto.Marshal(&pb.ConnectionHeader{UserInfo: &pb.UserInformation{EffectiveUser: proto.String("u")},
		ServiceName: proto.String("ClientService"), CellBlockCodecClass: proto.String(codec)})
	b := append([]byte("HBas\x00\x50"), binary.BigEndian.AppendUint32(nil, uint32(len(h)))...)
	return append(b, h...)
}

// request is a request frame with a cell block.
func request(id uint32, method string, param, cells []byte) []byte {
	meta, _ := proto.Marshal(&pb.CellBlockMeta{Length: proto.Uint32(uint32(len(cells)))})
	h, _ := proto.Marshal(&pb.RequestHeader{CallId: proto.Uint32(id), MethodName: proto.String(method), RequestParam: proto.Bool(true)})
	h = protowire.AppendBytes(protowire.AppendTag(h, 5, protowire.BytesType), meta)
	f := protowire.AppendBytes(protowire.AppendBytes(nil, h), param)
	f = append(f, cells...)
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(f))), f...)
}

// readResponse reads one response frame: header, body and cell block.
func readResponse(t *testing.T, r *bufio.Reader) (*pb.ResponseHeader, []byte, []byte) {
	t.Helper()
	var lb [4]byte
	if _, err := io.ReadFull(r, lb[:]); err != nil {
		t.Fatalf("read response length: %v", err)
	}
	f := make([]byte, binary.BigEndian.Uint32(lb[:]))
	if _, err := io.ReadFull(r, f); err != nil {
		t.Fatalf("read response: %v", err)
	}
	h, n := protowire.ConsumeBytes(f)
	var hdr pb.ResponseHeader
	if n < 0 || proto.Unmarshal(h, &hdr) != nil {
		t.Fatalf("response header does not parse")
	}
	if hdr.Exception != nil {
		return &hdr, nil, f[n:]
	}
	body, m := protowire.ConsumeBytes(f[n:])
	return &hdr, body, f[n+m:]
}

func TestNetRoutesAndCellBlocks(t *testing.T) {
	n := NewNet(t)
	cells := []*pb.Cell{Cell("r1", "f", "q1", "v1", 5), Cell("r1", "f", "", "", 1<<62)}
	n.Serve("a:1", func(s *Server, id uint32, method, param []byte) {
		got, err := ParseKeyValues(s.CellBlock())
		if err != nil || len(got) != 2 || !proto.Equal(got[0], cells[0]) || !proto.Equal(got[1], cells[1]) {
			t.Errorf("request cells %v, %v; want %v", got, err, cells)
		}
		if s.Codec() != "kv" || s.Service() != "ClientService" {
			t.Errorf("codec %q, service %q", s.Codec(), s.Service())
		}
		s.ReplyCells(id, append([]byte(nil), param...), s.CellBlock())
	})
	n.Refuse("b:1")
	n.Blackhole("c:1")
	n.Serve("d:1", nil)
	n.RefuseCodec("d:1")

	c, err := n.Dial(context.Background(), "a:1")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	block := KeyValues(cells...)
	go func() {
		_, _ = c.Write(append(hello("kv"), request(7, "Get", []byte("param"), block)...))
	}()
	r := bufio.NewReader(c)
	hdr, body, cb := readResponse(t, r)
	if hdr.GetCallId() != 7 || string(body) != "param" || string(cb) != string(block) || int(hdr.GetCellBlockMeta().GetLength()) != len(block) {
		t.Errorf("response: header %v, body %q, %d cell bytes; want call 7, param echoed, the %d request cell bytes", hdr, body, len(cb), len(block))
	}
	if len(n.Servers("a:1")) != 1 || n.Dials("a:1") != 1 {
		t.Errorf("a:1: %d servers, %d dials; want 1, 1", len(n.Servers("a:1")), n.Dials("a:1"))
	}
	n.Disconnect("a:1")
	if _, err := r.ReadByte(); err == nil {
		t.Errorf("connection still open after Disconnect")
	}

	if _, err := n.Dial(context.Background(), "b:1"); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dial refused address: %v", err)
	}
	if _, err := n.Dial(context.Background(), "unknown:1"); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dial unknown address: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := n.Dial(ctx, "c:1"); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) < 40*time.Millisecond {
		t.Errorf("dial blackholed address: %v after %v; want DeadlineExceeded after 50ms", err, time.Since(start))
	}

	d, err := n.Dial(context.Background(), "d:1")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	go func() { _, _ = d.Write(hello("kv")) }()
	hdr, _, _ = readResponse(t, bufio.NewReader(d))
	if hdr.GetCallId() != 0xFFFFFFFF || hdr.GetException().GetExceptionClassName() != UnsupportedCodec {
		t.Errorf("codec refusal: header %v; want call id -1 with %s", hdr, UnsupportedCodec)
	}
}

func TestParseKeyValuesRejectsGarbage(t *testing.T) {
	good := KeyValues(Cell("r", "f", "q", "v", 1))
	for _, bad := range [][]byte{good[:5], good[:len(good)-1], append([]byte{0, 0, 0, 9}, good[4:]...)} {
		if _, err := ParseKeyValues(bad); err == nil {
			t.Errorf("ParseKeyValues(% x) accepted", bad)
		}
	}
}
