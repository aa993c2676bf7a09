package hbtest

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

// Handler answers one request: id is the call id, method the RPC method
// name and param the serialized request (its cell block, if any, is
// [Server.CellBlock]). method and param are only valid during the call. It
// replies (now or later, from any goroutine) with the Server's Reply
// methods, or not at all. A nil Handler never answers.
type Handler func(s *Server, id uint32, method, param []byte)

// Server is the server end of one in-memory connection speaking HBase's
// RPC framing (preamble, connection header, length-prefixed frames). Its
// request loop allocates nothing in steady state, so allocation tests of a
// client can run against it. Reply methods are safe for concurrent use.
type Server struct {
	t           testing.TB
	nc          net.Conn
	service     string
	codec       string
	hasVersion  bool
	refuseCodec bool
	handle      Handler
	cells       []byte // cell block of the request being handled
	prio        int64  // header priority of the request being handled (-1: none)

	wmu  sync.Mutex
	wbuf []byte
}

// Service returns the service named in the connection header.
func (s *Server) Service() string { return s.service }

// Codec returns the cell-block codec class named in the connection header
// ("" = none: cells travel inline in protobuf).
func (s *Server) Codec() string { return s.codec }

// HasVersionInfo reports whether the connection header carried a
// VersionInfo (field 5).
func (s *Server) HasVersionInfo() bool { return s.hasVersion }

// Priority returns the RequestHeader priority of the request being handled,
// -1 if it has none. It is only meaningful during the Handler call.
func (s *Server) Priority() int64 { return s.prio }

// CellBlock returns the cell block that came with the request being
// handled (nil if none). It is only valid during the Handler call.
func (s *Server) CellBlock() []byte { return s.cells }

// Dialer returns a dial function (for hbclient.Options.Dial) that connects
// every dial, whatever the address, to a new Server running handle, and a
// function listing the servers dialled so far.
func Dialer(t testing.TB, handle Handler) (func(context.Context, string) (net.Conn, error), func() []*Server) {
	return dialer(func(context.Context) (*Server, net.Conn, error) {
		s, cli := newServer(t, handle, false)
		return s, cli, nil
	})
}

// TCPDialer is [Dialer] over real loopback TCP connections instead of
// in-memory pipes: the client then reads and writes a kernel socket (as it
// does against HBase), with the fake's handler on the other end.
func TCPDialer(t testing.TB, handle Handler) (func(context.Context, string) (net.Conn, error), func() []*Server) {
	return dialer(func(ctx context.Context) (*Server, net.Conn, error) {
		cli, srv, err := tcpPair(ctx)
		if err != nil {
			return nil, nil, err
		}
		s := &Server{t: t, nc: srv, handle: handle}
		go s.serve()
		return s, cli, nil
	})
}

// dialer is Dialer and TCPDialer's bookkeeping around connect, which starts
// a Server and returns the client's end.
func dialer(connect func(context.Context) (*Server, net.Conn, error)) (func(context.Context, string) (net.Conn, error), func() []*Server) {
	var mu sync.Mutex
	var servers []*Server
	dial := func(ctx context.Context, _ string) (net.Conn, error) {
		s, cli, err := connect(ctx)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		servers = append(servers, s)
		mu.Unlock()
		return cli, nil
	}
	list := func() []*Server {
		mu.Lock()
		defer mu.Unlock()
		return append([]*Server(nil), servers...)
	}
	return dial, list
}

// tcpPair returns both ends of a new loopback TCP connection.
func tcpPair(ctx context.Context) (cli, srv net.Conn, err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			c = nil
		}
		accepted <- c
	}()
	var d net.Dialer
	if cli, err = d.DialContext(ctx, "tcp", ln.Addr().String()); err != nil {
		return nil, nil, err
	}
	if srv = <-accepted; srv == nil {
		cli.Close()
		return nil, nil, io.ErrUnexpectedEOF
	}
	return cli, srv, nil
}

// newServer starts a Server on one end of a pipe and returns it with the
// client's end.
func newServer(t testing.TB, handle Handler, refuseCodec bool) (*Server, net.Conn) {
	cli, srv := net.Pipe()
	s := &Server{t: t, nc: srv, handle: handle, refuseCodec: refuseCodec}
	go s.serve()
	return s, cli
}

// UnsupportedCodec is the exception class a server answers (with call id
// -1, then closing the connection) to a connection header naming a codec
// it cannot load.
const UnsupportedCodec = "org.apache.hadoop.hbase.ipc.UnsupportedCellCodecException"

func (s *Server) serve() {
	defer s.nc.Close()
	r := bufio.NewReader(s.nc)
	var hello [10]byte
	if _, err := io.ReadFull(r, hello[:]); err != nil {
		return
	}
	if string(hello[:6]) != "HBas\x00\x50" {
		s.t.Errorf("hbtest: bad preamble % x", hello[:6])
		return
	}
	hdr := make([]byte, binary.BigEndian.Uint32(hello[6:]))
	if _, err := io.ReadFull(r, hdr); err != nil {
		return
	}
	var ch pb.ConnectionHeader
	if err := proto.Unmarshal(hdr, &ch); err != nil || ch.GetUserInfo().GetEffectiveUser() == "" {
		s.t.Errorf("hbtest: connection header %v, %v", &ch, err)
		return
	}
	s.service, s.codec = ch.GetServiceName(), ch.GetCellBlockCodecClass()
	s.hasVersion = hasField(hdr, 5)
	if s.codec != "" && s.refuseCodec {
		s.ReplyException(0xFFFFFFFF, &pb.ExceptionResponse{ExceptionClassName: proto.String(UnsupportedCodec),
			StackTrace: proto.String(UnsupportedCodec + ": " + s.codec), DoNotRetry: proto.Bool(true)})
		return
	}
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
		if hn < 0 {
			s.t.Errorf("hbtest: request header does not parse")
			return
		}
		param, pn := protowire.ConsumeBytes(buf[hn:])
		if pn < 0 {
			s.t.Errorf("hbtest: request param does not parse")
			return
		}
		var id uint32
		var method []byte
		cellLen := -1
		s.prio = -1
		for len(h) > 0 {
			num, typ, n := protowire.ConsumeTag(h)
			if n < 0 {
				return
			}
			h = h[n:]
			switch {
			case num == 1 && typ == protowire.VarintType:
				v, n := protowire.ConsumeVarint(h)
				id, h = uint32(v), h[n:]
			case num == 3 && typ == protowire.BytesType:
				v, n := protowire.ConsumeBytes(h)
				method, h = v, h[n:]
			case num == 6 && typ == protowire.VarintType:
				v, n := protowire.ConsumeVarint(h)
				s.prio, h = int64(v), h[n:]
			case num == 5 && typ == protowire.BytesType: // CellBlockMeta{1: length}
				v, n := protowire.ConsumeBytes(h)
				cellLen, h = 0, h[n:]
				if len(v) > 0 {
					if _, _, tn := protowire.ConsumeTag(v); tn > 0 {
						l, _ := protowire.ConsumeVarint(v[tn:])
						cellLen = int(l)
					}
				}
			default:
				h = h[protowire.ConsumeFieldValue(num, typ, h):]
			}
		}
		rest := buf[hn+pn:]
		s.cells = nil
		if cellLen >= 0 {
			if cellLen != len(rest) {
				s.t.Errorf("hbtest: cell block meta says %d bytes, frame has %d", cellLen, len(rest))
				return
			}
			s.cells = rest
		} else if len(rest) > 0 {
			s.t.Errorf("hbtest: %d bytes after the param without a cell block meta", len(rest))
			return
		}
		if s.handle != nil {
			s.handle(s, id, method, param)
		}
		s.cells = nil
	}
}

// hasField reports whether the serialized message b has field num.
func hasField(b []byte, num protowire.Number) bool {
	for len(b) > 0 {
		f, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return false
		}
		if f == num {
			return true
		}
		b = b[n:]
		if n = protowire.ConsumeFieldValue(f, typ, b); n < 0 {
			return false
		}
		b = b[n:]
	}
	return false
}

// Reply writes a successful response to call id with the serialized body.
func (s *Server) Reply(id uint32, body []byte) { s.ReplyCells(id, body, nil) }

// ReplyCells writes a successful response to call id with the serialized
// body followed by a cell block (see [KeyValues]); a nil cellBlock sends
// none.
func (s *Server) ReplyCells(id uint32, body, cellBlock []byte) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	hsize := protowire.SizeTag(1) + protowire.SizeVarint(uint64(id))
	meta := 0
	if cellBlock != nil {
		meta = protowire.SizeTag(1) + protowire.SizeVarint(uint64(len(cellBlock)))
		hsize += protowire.SizeTag(3) + protowire.SizeBytes(meta)
	}
	total := protowire.SizeBytes(hsize) + protowire.SizeBytes(len(body)) + len(cellBlock)
	b := binary.BigEndian.AppendUint32(s.wbuf[:0], uint32(total))
	b = protowire.AppendVarint(b, uint64(hsize))
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(id))
	if cellBlock != nil {
		b = protowire.AppendTag(b, 3, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(meta))
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(len(cellBlock)))
	}
	b = protowire.AppendBytes(b, body)
	b = append(b, cellBlock...)
	s.wbuf = b
	_, _ = s.nc.Write(b)
}

// ReplyMsg writes a successful response with a generated message.
func (s *Server) ReplyMsg(id uint32, m proto.Message) {
	b, err := proto.Marshal(m)
	if err != nil {
		s.t.Errorf("hbtest: marshal %T: %v", m, err)
	}
	s.Reply(id, b)
}

// ReplyException writes an exception response to call id (0xFFFFFFFF: a
// fatal connection error).
func (s *Server) ReplyException(id uint32, exc *pb.ExceptionResponse) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	h, _ := proto.Marshal(&pb.ResponseHeader{CallId: proto.Uint32(id), Exception: exc})
	b := binary.BigEndian.AppendUint32(nil, uint32(protowire.SizeBytes(len(h))))
	b = protowire.AppendBytes(b, h)
	_, _ = s.nc.Write(b)
}

// Close closes the server end of the connection.
func (s *Server) Close() error { return s.nc.Close() }
