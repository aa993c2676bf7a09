package hwire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
)

// Reader reads one file: ReadAt asks each DataNode for exactly the bytes
// wanted (as Java's positional read), Read streams from the current offset
// to the end of each block. Either way a connection whose range was read to
// the end goes back to [Peers] for the next read.
type Reader struct {
	nn     *NameNode
	peers  *Peers
	Src    string
	Blocks LocatedBlocks
	off    int64        // offset of Read
	s      *blockStream // Read's stream, nil between blocks
	pkt    []byte       // packet buffer, shared by the streams
	order  []int
}

// Open fetches the block locations of src (one getBlockLocations call; a
// missing file is fs.ErrNotExist).
func Open(nn *NameNode, peers *Peers, src string) (*Reader, error) {
	l, err := nn.GetBlockLocations(src, 0, 1<<62)
	if err != nil {
		return nil, err
	}
	return &Reader{nn: nn, peers: peers, Src: src, Blocks: l}, nil
}

// Size is the length of the file's complete blocks (all of it unless the
// file is being written).
func (r *Reader) Size() int64 { return int64(r.Blocks.FileLength) }

// Close drops a stream left half-read.
func (r *Reader) Close() error {
	if r.s != nil {
		r.s.abort()
		r.s = nil
	}
	return nil
}

// block returns the index of the block holding off, or -1.
func (r *Reader) block(off uint64) int {
	for i := range r.Blocks.Blocks {
		b := &r.Blocks.Blocks[i]
		if b.Offset <= off && off < b.End() {
			return i
		}
	}
	return -1
}

// ReadAt implements io.ReaderAt.
func (r *Reader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("hdfs wire: negative offset")
	}
	if r.s != nil { // its packet buffer is about to be reused
		r.s.abort()
		r.s = nil
	}
	n := 0
	for n < len(p) {
		pos := uint64(off) + uint64(n)
		if pos >= r.Blocks.FileLength {
			return n, io.EOF
		}
		i := r.block(pos)
		if i < 0 {
			return n, fmt.Errorf("%s: no block at offset %d", r.Src, pos)
		}
		b := &r.Blocks.Blocks[i]
		want := min(uint64(len(p)-n), b.End()-pos)
		s, err := r.open(b, pos-b.Offset, want)
		if err != nil {
			return n, err
		}
		k, err := s.readFull(p[n : n+int(want)])
		n += k
		if err != nil {
			return n, fmt.Errorf("%s: read %s from %s: %w", r.Src, b.B, s.c.addr, err)
		}
		s.finish()
	}
	return n, nil
}

// Read implements io.Reader.
func (r *Reader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if uint64(r.off) >= r.Blocks.FileLength {
		return 0, io.EOF
	}
	if r.s == nil {
		i := r.block(uint64(r.off))
		if i < 0 {
			return 0, fmt.Errorf("%s: no block at offset %d", r.Src, r.off)
		}
		b := &r.Blocks.Blocks[i]
		s, err := r.open(b, uint64(r.off)-b.Offset, b.End()-uint64(r.off))
		if err != nil {
			return 0, err
		}
		r.s = s
	}
	n, err := r.s.read(p)
	r.off += int64(n)
	if err != nil {
		r.s.abort()
		r.s = nil
		return n, fmt.Errorf("%s: read at %d: %w", r.Src, r.off, err)
	}
	if r.s.left == 0 {
		r.s.finish()
		r.s = nil
	}
	return n, nil
}

// open starts reading length bytes at off of block b, trying its DataNodes
// in order (the recently failed ones last); a cached connection that fails
// is retried once fresh.
func (r *Reader) open(b *LocatedBlock, off, length uint64) (*blockStream, error) {
	if len(b.Locs) == 0 {
		return nil, fmt.Errorf("%s: %s has no live replica", r.Src, b.B)
	}
	var last error
	r.order = r.peers.order(b.Locs, r.order)
	for _, i := range r.order {
		addr := b.Locs[i].Addr()
		for fresh := false; ; fresh = true {
			c, err := r.peers.get(addr, fresh, b.Token)
			if err == nil {
				var s *blockStream
				s, err = r.request(c, b, off, length)
				if err == nil {
					return s, nil
				}
				c.Close()
				if c.cached && !fresh {
					continue // a stale kept connection: dial again
				}
			}
			var se *StatusError
			if !errors.As(err, &se) {
				r.peers.markDead(addr)
			}
			last = err
			break
		}
	}
	return nil, fmt.Errorf("%s: read %s: no DataNode could serve it: %w", r.Src, b.B, last)
}

// request sends OP_READ_BLOCK for [off, off+length) of b on c and reads the
// answer.
func (r *Reader) request(c *peerConn, b *LocatedBlock, off, length uint64) (*blockStream, error) {
	m := putMsg(nil, 1, func(h []byte) []byte { return appendClientHeader(h, &b.B, b.Token, r.nn.ClientName) })
	m = putUint(m, 2, off)
	m = putUint(m, 3, length)
	req := appendOp(nil, opReadBlock, m)
	if _, err := c.Write(req); err != nil {
		return nil, err
	}
	msg, err := readDelimited(c.r, r.pkt)
	if err != nil {
		return nil, err
	}
	var resp opResponse
	if err := resp.decode(msg); err != nil {
		return nil, err
	}
	if resp.status != statusOK {
		return nil, &StatusError{Addr: c.addr, Status: resp.status, Message: resp.message}
	}
	tab, err := checksumTable(resp.csType)
	if err != nil {
		return nil, err
	}
	if resp.chunkOffset > off {
		return nil, errCorrupt
	}
	return &blockStream{r: r, c: c, tab: tab, csBytes: int(resp.csBytes), skip: off - resp.chunkOffset, left: length}, nil
}

// blockStream is one OP_READ_BLOCK answer being read.
type blockStream struct {
	r       *Reader
	c       *peerConn
	tab     *crc32.Table
	csBytes int
	skip    uint64 // bytes before the wanted offset still to drop
	left    uint64 // wanted bytes not yet returned
	data    []byte // unread data of the current packet
	ended   bool   // the empty end-of-stream packet was read
}

// next reads the next packet and checks its checksums. When into is not
// nil, can take the whole packet's data and nothing is to be skipped, the
// data is read straight into it and next returns its length; otherwise
// the data goes to the packet buffer (s.data) and next returns 0.
func (s *blockStream) next(into []byte) (int, error) {
	var h [6]byte
	if _, err := io.ReadFull(s.c.r, h[:]); err != nil {
		return 0, err
	}
	plen := int(binary.BigEndian.Uint32(h[:4]))
	hlen := int(binary.BigEndian.Uint16(h[4:]))
	if plen < 4 || plen > 16<<20 || hlen > 1<<10 {
		return 0, errCorrupt
	}
	var hb [1 << 10]byte
	if _, err := io.ReadFull(s.c.r, hb[:hlen]); err != nil {
		return 0, err
	}
	dataLen := -1
	err := each(hb[:hlen], func(f field) error {
		if f.n == 4 {
			dataLen = int(int32(uint32(f.x)))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	body := plen - 4
	if dataLen < 0 || dataLen > body {
		return 0, errShortPacket
	}
	nsum := body - dataLen
	if cap(s.r.pkt) < body {
		s.r.pkt = make([]byte, body+64<<10)
	}
	sums := s.r.pkt[:nsum]
	if _, err := io.ReadFull(s.c.r, sums); err != nil {
		return 0, err
	}
	if dataLen == 0 {
		s.ended = true
		return 0, nil
	}
	direct := s.skip == 0 && dataLen <= len(into) && uint64(dataLen) <= s.left
	var data []byte
	if direct {
		data = into[:dataLen]
	} else {
		data = s.r.pkt[nsum:body]
	}
	if _, err := io.ReadFull(s.c.r, data); err != nil {
		return 0, err
	}
	if s.tab != nil && s.csBytes > 0 {
		for i := 0; i*s.csBytes < dataLen; i++ {
			if 4*i+4 > nsum {
				return 0, errShortPacket
			}
			chunk := data[i*s.csBytes : min((i+1)*s.csBytes, dataLen)]
			if crc32.Checksum(chunk, s.tab) != binary.BigEndian.Uint32(sums[4*i:]) {
				return 0, fmt.Errorf("checksum error at chunk %d of a packet from %s", i, s.c.addr)
			}
		}
	}
	if direct {
		return dataLen, nil
	}
	if s.skip > 0 {
		k := min(s.skip, uint64(len(data)))
		data = data[k:]
		s.skip -= k
	}
	s.data = data
	return 0, nil
}

// read returns wanted bytes (at most left).
func (s *blockStream) read(p []byte) (int, error) {
	if s.left == 0 {
		return 0, io.EOF
	}
	p = p[:min(uint64(len(p)), s.left)]
	for len(s.data) == 0 {
		if s.ended {
			return 0, io.ErrUnexpectedEOF
		}
		n, err := s.next(p)
		if err != nil {
			return 0, err
		}
		if n > 0 {
			s.left -= uint64(n)
			return n, nil
		}
	}
	n := copy(p, s.data)
	s.data = s.data[n:]
	s.left -= uint64(n)
	return n, nil
}

func (s *blockStream) readFull(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k, err := s.read(p[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// finish reads the rest of the answer up to the end-of-stream packet, tells
// the DataNode the checksums were good and keeps the connection; any
// failure just closes it.
func (s *blockStream) finish() {
	for !s.ended {
		if _, err := s.next(nil); err != nil {
			s.abort()
			return
		}
	}
	st := putUint(nil, 1, statusChecksumOK)
	if _, err := s.c.Write(protowire.AppendBytes(nil, st)); err != nil {
		s.abort()
		return
	}
	s.r.peers.put(s.c)
	s.c = nil
}

func (s *blockStream) abort() {
	if s.c != nil {
		s.c.Close()
		s.c = nil
	}
}
