package hbclient

import (
	"bufio"
	"context"
	"encoding/binary"
	"io"
	"net"
	"sync"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/pb"
)

// fakeServer is the server end of one net.Pipe connection speaking HBase's
// RPC framing. Its request loop allocates nothing in steady state, so
// allocation tests of the client can run against it.
type fakeServer struct {
	t       testing.TB
	nc      net.Conn
	service string
	handle  func(s *fakeServer, id uint32, method, param []byte)

	wmu  sync.Mutex
	wbuf []byte
}

// fakeDialer returns an Options.Dial that connects every dial to a new
// fakeServer running handle, and a function listing the servers so far.
func fakeDialer(t testing.TB, handle func(s *fakeServer, id uint32, method, param []byte)) (func(context.Context, string) (net.Conn, error), func() []*fakeServer) {
	var mu sync.Mutex
	var servers []*fakeServer
	dial := func(ctx context.Context, addr string) (net.Conn, error) {
		cli, srv := net.Pipe()
		s := &fakeServer{t: t, nc: srv, handle: handle}
		mu.Lock()
		servers = append(servers, s)
		mu.Unlock()
		go s.serve()
		return cli, nil
	}
	list := func() []*fakeServer {
		mu.Lock()
		defer mu.Unlock()
		return append([]*fakeServer(nil), servers...)
	}
	return dial, list
}

func (s *fakeServer) serve() {
	defer s.nc.Close()
	r := bufio.NewReader(s.nc)
	var hello [10]byte
	if _, err := io.ReadFull(r, hello[:]); err != nil {
		return
	}
	if string(hello[:6]) != "HBas\x00\x50" {
		s.t.Errorf("fake server: bad preamble % x", hello[:6])
		return
	}
	hdr := make([]byte, binary.BigEndian.Uint32(hello[6:]))
	if _, err := io.ReadFull(r, hdr); err != nil {
		return
	}
	var ch pb.ConnectionHeader
	if err := proto.Unmarshal(hdr, &ch); err != nil || ch.GetUserInfo().GetEffectiveUser() == "" {
		s.t.Errorf("fake server: connection header %v, %v", &ch, err)
		return
	}
	s.service = ch.GetServiceName()
	var buf []byte
	lb := make([]byte, 4)
	for {
		if _, err := io.ReadFull(r, lb); err != nil {
			return
		}
		n := int(binary.BigEndian.Uint32(lb))
		if cap(buf) < n {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := io.ReadFull(r, buf); err != nil {
			return
		}
		h, hn := protowire.ConsumeBytes(buf)
		param, _ := protowire.ConsumeBytes(buf[hn:])
		var id uint32
		var method []byte
		for len(h) > 0 {
			num, typ, n := protowire.ConsumeTag(h)
			h = h[n:]
			switch {
			case num == 1:
				v, n := protowire.ConsumeVarint(h)
				id, h = uint32(v), h[n:]
			case num == 3:
				v, n := protowire.ConsumeBytes(h)
				method, h = v, h[n:]
			default:
				h = h[protowire.ConsumeFieldValue(num, typ, h):]
			}
		}
		s.handle(s, id, method, param)
	}
}

// reply writes a successful response with the serialized body.
func (s *fakeServer) reply(id uint32, body []byte) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	hsize := sizeVarintField(1, uint64(id))
	total := protowire.SizeBytes(hsize) + protowire.SizeBytes(len(body))
	b := binary.BigEndian.AppendUint32(s.wbuf[:0], uint32(total))
	b = protowire.AppendVarint(b, uint64(hsize))
	b = appendVarintField(b, 1, uint64(id))
	b = protowire.AppendBytes(b, body)
	s.wbuf = b
	_, _ = s.nc.Write(b)
}

// replyMsg writes a successful response with a generated message.
func (s *fakeServer) replyMsg(id uint32, m proto.Message) {
	b, err := proto.Marshal(m)
	if err != nil {
		s.t.Errorf("fake server: marshal %T: %v", m, err)
	}
	s.reply(id, b)
}

// replyException writes an exception response for call id.
func (s *fakeServer) replyException(id uint32, exc *pb.ExceptionResponse) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	h, _ := proto.Marshal(&pb.ResponseHeader{CallId: proto.Uint32(id), Exception: exc})
	b := binary.BigEndian.AppendUint32(nil, uint32(protowire.SizeBytes(len(h))))
	b = protowire.AppendBytes(b, h)
	_, _ = s.nc.Write(b)
}
