package hwire

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net"
	"sync"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// The data transfer protocol (datatransfer.proto, DataTransferProtocol):
// a request is the protocol version (int16), an op code and the
// varint-delimited op message; the DataNode answers with a varint-delimited
// BlockOpResponseProto, then packets: payload length (int32, counting
// itself), header length (int16), PacketHeaderProto, the checksums of the
// packet's chunks, the data.
const (
	transferVersion = 28
	opWriteBlock    = 80
	opReadBlock     = 81

	// Status values (datatransfer.proto Status).
	statusOK         = 0
	statusChecksumOK = 6

	checksumNull   = 0
	checksumCRC32  = 1
	checksumCRC32C = 2
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func checksumTable(t uint64) (*crc32.Table, error) {
	switch t {
	case checksumCRC32C:
		return castagnoli, nil
	case checksumCRC32:
		return crc32.IEEETable, nil
	case checksumNull:
		return nil, nil
	}
	return nil, fmt.Errorf("unsupported checksum type %d", t)
}

// appendOp appends a data transfer request: version, op, delimited msg.
func appendOp(b []byte, op byte, msg []byte) []byte {
	b = binary.BigEndian.AppendUint16(b, transferVersion)
	b = append(b, op)
	return protowire.AppendBytes(b, msg)
}

// appendClientHeader appends a ClientOperationHeaderProto's fields.
func appendClientHeader(b []byte, blk *Block, token []byte, client string) []byte {
	b = putMsg(b, 1, func(m []byte) []byte {
		m = putMsg(m, 1, blk.append)
		if token != nil {
			m = putBytes(m, 2, token)
		}
		return m
	})
	return putString(b, 2, client)
}

// readDelimited reads one varint-delimited message into buf.
func readDelimited(r *bufio.Reader, buf []byte) ([]byte, error) {
	l, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, err
	}
	if l > 16<<20 {
		return nil, errCorrupt
	}
	if uint64(cap(buf)) < l {
		buf = make([]byte, l)
	}
	buf = buf[:l]
	_, err = io.ReadFull(r, buf)
	return buf, err
}

// opResponse is a BlockOpResponseProto.
type opResponse struct {
	status       uint64
	firstBadLink string
	message      string
	csType       uint64
	csBytes      uint32
	chunkOffset  uint64
}

func (o *opResponse) decode(m []byte) error {
	return each(m, func(f field) error {
		switch f.n {
		case 1:
			o.status = f.x
		case 2:
			o.firstBadLink = string(f.v)
		case 4:
			return each(f.v, func(g field) error {
				switch g.n {
				case 1:
					return each(g.v, func(h field) error {
						switch h.n {
						case 1:
							o.csType = h.x
						case 2:
							o.csBytes = uint32(h.x)
						}
						return nil
					})
				case 2:
					o.chunkOffset = g.x
				}
				return nil
			})
		case 5:
			o.message = string(f.v)
		}
		return nil
	})
}

// StatusError is a DataNode's refusal of an operation or packet.
type StatusError struct {
	Addr    string
	Status  uint64
	Message string
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("datanode %s: status %d", e.Addr, e.Status)
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Peers dials DataNodes and keeps the connections that a finished read left
// reusable, as Java's peer cache does (its expiry, 3 s, is under the
// DataNode's keep-alive of 4 s). It remembers DataNodes that failed for
// DeadFor, and tries them last. Safe for concurrent use.
type Peers struct {
	Dial func(addr string) (net.Conn, error)
	// SASL: authenticate each new connection with the block access token
	// (SASL data transfer protection, QOP auth; see saslDataTransfer).
	SASL    bool
	Expiry  time.Duration // 0: 3 s
	DeadFor time.Duration // 0: 10 s

	mu   sync.Mutex
	idle map[string][]idlePeer
	dead map[string]time.Time
}

type idlePeer struct {
	c     *peerConn
	since time.Time
}

// peerConn is a DataNode connection with its buffered reader.
type peerConn struct {
	net.Conn
	addr   string
	r      *bufio.Reader
	cached bool // came from the cache: a failure may be a stale connection
}

func (p *Peers) expiry() time.Duration {
	if p.Expiry > 0 {
		return p.Expiry
	}
	return 3 * time.Second
}

// get returns an idle connection to addr or dials one (authenticated with
// the block token tok when p.SASL).
func (p *Peers) get(addr string, fresh bool, tok []byte) (*peerConn, error) {
	if !fresh {
		p.mu.Lock()
		l := p.idle[addr]
		for len(l) > 0 {
			ip := l[len(l)-1]
			l = l[:len(l)-1]
			if time.Since(ip.since) < p.expiry() {
				p.idle[addr] = l
				p.mu.Unlock()
				ip.c.cached = true
				return ip.c, nil
			}
			ip.c.Close()
		}
		delete(p.idle, addr)
		p.mu.Unlock()
	}
	c, err := p.Dial(addr)
	if err != nil {
		return nil, err
	}
	pc := &peerConn{Conn: c, addr: addr, r: bufio.NewReaderSize(c, 16<<10)}
	if p.SASL {
		if err := saslDataTransfer(c, pc.r, tok); err != nil {
			c.Close()
			return nil, fmt.Errorf("datanode %s: %w", addr, err)
		}
	}
	return pc, nil
}

// put keeps c for the next read from its DataNode.
func (p *Peers) put(c *peerConn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.idle == nil {
		p.idle = make(map[string][]idlePeer)
	}
	l := p.idle[c.addr]
	if len(l) >= 4 {
		l[0].c.Close()
		l = append(l[:0], l[1:]...)
	}
	c.cached = false
	p.idle[c.addr] = append(l, idlePeer{c: c, since: time.Now()})
}

// Close closes the idle connections.
func (p *Peers) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for a, l := range p.idle {
		for _, ip := range l {
			ip.c.Close()
		}
		delete(p.idle, a)
	}
}

// markDead remembers that addr failed.
func (p *Peers) markDead(addr string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead == nil {
		p.dead = make(map[string]time.Time)
	}
	p.dead[addr] = time.Now()
}

// isDead reports whether addr failed within DeadFor.
func (p *Peers) isDead(addr string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	t, ok := p.dead[addr]
	if !ok {
		return false
	}
	d := p.DeadFor
	if d <= 0 {
		d = 10 * time.Second
	}
	if time.Since(t) >= d {
		delete(p.dead, addr)
		return false
	}
	return true
}

// order returns the indexes of locs, the ones not recently dead first.
func (p *Peers) order(locs []Datanode, dst []int) []int {
	dst = dst[:0]
	var dead []int
	for i := range locs {
		if p.isDead(locs[i].Addr()) {
			dead = append(dead, i)
		} else {
			dst = append(dst, i)
		}
	}
	return append(dst, dead...)
}

var errShortPacket = errors.New("hdfs wire: short packet")
