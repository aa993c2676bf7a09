package hwire

import (
	"bufio"
	"bytes"
	"hash/crc32"
	"net"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// putMsg must give the length prefix protowire would, for messages below
// and above 127 bytes (where the prefix takes a second byte).
func TestPutMsgLengths(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 300, 20000} {
		inner := bytes.Repeat([]byte{'x'}, n)
		got := putMsg([]byte{0xAA}, 3, func(b []byte) []byte { return append(b, inner...) })
		want := protowire.AppendBytes(protowire.AppendTag([]byte{0xAA}, 3, protowire.BytesType), inner)
		if !bytes.Equal(got, want) {
			t.Errorf("putMsg of %d bytes: % x... want % x...", n, got[:min(8, len(got))], want[:min(8, len(want))])
		}
	}
}

func TestBlockAndLocatedBlockDecode(t *testing.T) {
	blk := Block{PoolID: "BP-1", ID: 1073741825, GenStamp: 1001, NumBytes: 4096}
	id := putString(nil, 1, "127.0.0.1")
	id = putString(id, 2, "localhost")
	id = putString(id, 3, "uuid-1")
	id = putUint(id, 4, 9866)
	dn := putBytes(nil, 1, id)
	lb := putMsg(nil, 1, blk.append)
	lb = putUint(lb, 2, 8192)
	lb = putBytes(lb, 3, dn)
	lb = putBool(lb, 4, false)
	lb = putBytes(lb, 5, []byte("token"))
	lb = putUint(lb, 7, 1)
	lb = putString(lb, 8, "DS-1")
	var got LocatedBlock
	if err := got.decode(lb); err != nil {
		t.Fatal(err)
	}
	if got.B != blk || got.Offset != 8192 || len(got.Locs) != 1 || got.Locs[0].Addr() != "127.0.0.1:9866" ||
		!bytes.Equal(got.Locs[0].ID, id) || string(got.Token) != "token" || got.StorageIDs[0] != "DS-1" || got.StorageTypes[0] != 1 {
		t.Errorf("decoded %+v", got)
	}
	if got.End() != 8192+4096 {
		t.Errorf("End = %d", got.End())
	}
}

// A packet the Writer lays out reads back through the Reader's packet
// decoder with its checksums checked, and a corrupted byte is caught.
func TestPacketRoundTrip(t *testing.T) {
	w := &Writer{o: CreateOptions{BytesPerChecksum: 512}, tab: castagnoli, chunks: 126}
	w.headroom = 4 + 2 + headerLen + 4*w.chunks
	for _, n := range []int{1, 511, 512, 513, 126 * 512} {
		p := &packet{buf: make([]byte, w.headroom+126*512), off: 4096, seq: 7}
		for i := range n {
			p.buf[w.headroom+i] = byte(i * 7)
		}
		p.n = n
		w.encode(p)
		for _, corrupt := range []bool{false, true} {
			wire := append([]byte(nil), p.wire...)
			if corrupt {
				wire[len(wire)-1] ^= 1
			}
			a, b := net.Pipe()
			go func() { a.Write(wire); a.Close() }()
			r := &Reader{}
			s := &blockStream{r: r, c: &peerConn{Conn: b, r: bufio.NewReader(b)}, tab: castagnoli, csBytes: 512, left: uint64(n)}
			into := make([]byte, n)
			k, err := s.next(into)
			b.Close()
			if corrupt {
				if err == nil {
					t.Errorf("%d bytes: a corrupt byte passed the checksums", n)
				}
				continue
			}
			if err != nil || k != n || !bytes.Equal(into, p.buf[w.headroom:w.headroom+n]) {
				t.Errorf("%d bytes: read %d, %v", n, k, err)
			}
		}
	}
	if crc32.Checksum([]byte("123456789"), castagnoli) != 0xe3069283 {
		t.Error("castagnoli table is not CRC32C")
	}
}
