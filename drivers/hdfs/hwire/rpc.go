package hwire

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// Hadoop IPC (RpcHeader.proto, ProtobufRpcEngine.proto): after the
// connection header "hrpc", version 9, service class 0, auth 0 (none), the
// client sends its IpcConnectionContextProto under call id -3; every call is
// then a 4-byte big-endian length followed by the varint-delimited
// RpcRequestHeaderProto, RequestHeaderProto and request message, and every
// answer a 4-byte length, the varint-delimited RpcResponseHeaderProto and,
// on success, the response message.
const (
	clientProtocol    = "org.apache.hadoop.hdfs.protocol.ClientProtocol"
	rpcKindProtobuf   = 2
	connContextCallID = -3
	statusSuccess     = 0
	statusFatal       = 2
)

// RemoteError is an exception the NameNode returned.
type RemoteError struct {
	Method  string
	Class   string // Java exception class
	Message string
	Fatal   bool // the server closed the connection
}

func (e *RemoteError) Error() string {
	msg := e.Message
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i] // the rest is a stack trace
	}
	return fmt.Sprintf("namenode %s: %s: %s", e.Method, shortClass(e.Class), msg)
}

func shortClass(c string) string {
	if i := strings.LastIndexByte(c, '.'); i >= 0 {
		return c[i+1:]
	}
	return c
}

// Is maps the NameNode's exceptions onto the fs errors
// (AccessControlException is fs.ErrPermission).
func (e *RemoteError) Is(target error) bool {
	switch target {
	case fs.ErrNotExist:
		return e.Class == "java.io.FileNotFoundException"
	case fs.ErrPermission:
		return e.Class == "org.apache.hadoop.security.AccessControlException"
	case fs.ErrExist:
		return e.Class == "org.apache.hadoop.fs.FileAlreadyExistsException" ||
			e.Class == "org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException"
	}
	return false
}

// IsClass reports whether err is a RemoteError of the Java class whose
// simple name is name.
func IsClass(err error, name string) bool {
	var re *RemoteError
	return errors.As(err, &re) && shortClass(re.Class) == name
}

// NameNode is one NameNode connection. Calls are one at a time; a call
// that fails on the connection (not with a RemoteError) leaves it unusable.
type NameNode struct {
	conn       net.Conn
	r          *bufio.Reader
	clientID   [16]byte
	ClientName string // the lease holder name of this client's writes
	callID     int32
	wbuf, rbuf []byte
	hdr        []byte         // scratch for a response header
	Calls      map[string]int // RPCs sent per method, for tests and reports
	broken     error
}

// NewNameNode starts the IPC session on conn (already dialled) as user.
func NewNameNode(conn net.Conn, user string) (*NameNode, error) {
	n := &NameNode{conn: conn, r: bufio.NewReaderSize(conn, 64<<10)}
	if _, err := rand.Read(n.clientID[:]); err != nil {
		return nil, err
	}
	n.ClientName = fmt.Sprintf("gobench_%x", n.clientID[:8])
	b := append(n.wbuf[:0], 'h', 'r', 'p', 'c', 9, 0, 0)
	at := len(b)
	b = append(b, 0, 0, 0, 0)
	b = n.appendRPCHeader(b, connContextCallID, -1)
	ctx := putMsg(nil, 2, func(m []byte) []byte { return putString(m, 1, user) })
	ctx = putString(ctx, 3, clientProtocol)
	b = protowire.AppendBytes(b, ctx)
	binary.BigEndian.PutUint32(b[at:], uint32(len(b)-at-4))
	n.wbuf = b
	if _, err := conn.Write(b); err != nil {
		return nil, fmt.Errorf("namenode: connection header: %w", err)
	}
	return n, nil
}

// Close closes the connection.
func (n *NameNode) Close() error { return n.conn.Close() }

func (n *NameNode) appendRPCHeader(b []byte, callID int32, retry int64) []byte {
	h := putUint(nil, 1, rpcKindProtobuf)
	h = putUint(h, 2, 0) // RPC_FINAL_PACKET
	h = putSint(h, 3, int64(callID))
	h = putBytes(h, 4, n.clientID[:])
	h = putSint(h, 5, retry)
	return protowire.AppendBytes(b, h)
}

// Call sends method with the encoded request req and returns the encoded
// response message (valid until the next call).
func (n *NameNode) Call(method string, req []byte) ([]byte, error) {
	if n.broken != nil {
		return nil, n.broken
	}
	resp, err := n.call(method, req)
	var re *RemoteError
	if err != nil && (!errors.As(err, &re) || re.Fatal) {
		n.broken = fmt.Errorf("namenode connection unusable after %s: %w", method, err)
	}
	return resp, err
}

func (n *NameNode) call(method string, req []byte) ([]byte, error) {
	id := n.callID
	n.callID++
	if n.Calls == nil {
		n.Calls = make(map[string]int)
	}
	n.Calls[method]++
	b := append(n.wbuf[:0], 0, 0, 0, 0)
	b = n.appendRPCHeader(b, id, 0)
	rh := putString(n.hdr[:0], 1, method)
	rh = putString(rh, 2, clientProtocol)
	rh = putUint(rh, 3, 1)
	n.hdr = rh
	b = protowire.AppendBytes(b, rh)
	b = protowire.AppendBytes(b, req)
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	n.wbuf = b
	if _, err := n.conn.Write(b); err != nil {
		return nil, fmt.Errorf("namenode %s: %w", method, err)
	}
	for {
		var lb [4]byte
		if _, err := io.ReadFull(n.r, lb[:]); err != nil {
			return nil, fmt.Errorf("namenode %s: %w", method, err)
		}
		l := binary.BigEndian.Uint32(lb[:])
		if l > 128<<20 {
			return nil, fmt.Errorf("namenode %s: response of %d bytes: %w", method, l, errCorrupt)
		}
		if cap(n.rbuf) < int(l) {
			n.rbuf = make([]byte, l)
		}
		m := n.rbuf[:l]
		if _, err := io.ReadFull(n.r, m); err != nil {
			return nil, fmt.Errorf("namenode %s: %w", method, err)
		}
		hdr, k := protowire.ConsumeBytes(m)
		if k < 0 {
			return nil, fmt.Errorf("namenode %s: %w", method, errCorrupt)
		}
		var (
			callID uint64
			status uint64
			re     RemoteError
		)
		err := each(hdr, func(f field) error {
			switch f.n {
			case 1:
				callID = f.x
			case 2:
				status = f.x
			case 4:
				re.Class = string(f.v)
			case 5:
				re.Message = string(f.v)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("namenode %s: %w", method, err)
		}
		if int32(uint32(callID)) != id && status != statusFatal {
			continue // an answer to a call cut before: skip it
		}
		if status != statusSuccess {
			re.Method, re.Fatal = method, status == statusFatal
			return nil, &re
		}
		body, k := protowire.ConsumeBytes(m[k:])
		if k < 0 {
			return nil, fmt.Errorf("namenode %s: %w", method, errCorrupt)
		}
		return body, nil
	}
}
