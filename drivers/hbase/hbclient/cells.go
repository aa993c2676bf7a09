package hbclient

import (
	"encoding/binary"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/pb"
)

// KeyValueCodec cell blocks (hbase-wire.md §2.3). On a connection whose
// header named the codec, mutations travel as metadata-only MutationProtos
// (associated_cell_count) followed by their cells in the request's cell
// block, and the server answers Scan, Get and Multi results as cell counts
// plus a response cell block: the RegionServer then converts no cell to or
// from protobuf, as with HBase's Java client.

// latestTimestamp is HConstants.LATEST_TIMESTAMP: the server replaces it
// with its current time, as it does for a protobuf cell without timestamp.
const latestTimestamp = math.MaxInt64

// KeyValue types (KeyValue.Type codes).
const (
	kvPut          = 4
	kvDeleteColumn = 12 // every version of a column
)

// keyValueSize is the size of one cell in a KeyValueCodec block: its
// 4-byte length, key length, value length, then the key and value.
func keyValueSize(row, family, qualifier, value []byte) int {
	return 4 + 8 + keyLen(row, family, qualifier) + len(value)
}

func keyLen(row, family, qualifier []byte) int {
	return 2 + len(row) + 1 + len(family) + len(qualifier) + 8 + 1
}

// appendKeyValue appends one KeyValueCodec cell.
func appendKeyValue(b, row, family, qualifier []byte, ts uint64, typ byte, value []byte) []byte {
	k := keyLen(row, family, qualifier)
	b = binary.BigEndian.AppendUint32(b, uint32(8+k+len(value)))
	b = binary.BigEndian.AppendUint32(b, uint32(k))
	b = binary.BigEndian.AppendUint32(b, uint32(len(value)))
	b = binary.BigEndian.AppendUint16(b, uint16(len(row)))
	b = append(b, row...)
	b = append(b, byte(len(family)))
	b = append(b, family...)
	b = append(b, qualifier...)
	b = binary.BigEndian.AppendUint64(b, ts)
	b = append(b, typ)
	return append(b, value...)
}

// usesCells reports whether m travels as cells in a Multi's cell block (a
// Put, or a Delete of columns); a whole-row Delete has no cell and stays
// inline.
func (m *Mutation) usesCells() bool { return m.hasColumns() }

// appendMutationCells appends m's cells: one Put cell per column, or one
// DeleteColumn cell (every version) per column of a Delete, all at the
// latest timestamp.
func appendMutationCells(b []byte, m *Mutation) []byte {
	for i, q := range m.Qualifiers {
		if m.Type == Delete {
			b = appendKeyValue(b, m.Row, m.Family, q, latestTimestamp, kvDeleteColumn, nil)
		} else {
			b = appendKeyValue(b, m.Row, m.Family, q, latestTimestamp, kvPut, m.Values[i])
		}
	}
	return b
}

// mutationNoDataSize is the size of m as a metadata-only MutationProto.
func mutationNoDataSize(m *Mutation) int {
	n := sizeBytesField(1, len(m.Row)) + sizeVarintField(2, uint64(m.Type)) + sizeVarintField(8, uint64(len(m.Qualifiers)))
	if m.Durability != UseDefault {
		n += sizeVarintField(6, uint64(m.Durability))
	}
	return n
}

// appendMutationNoData appends the content of a MutationProto whose cells
// follow in the cell block: row, type, durability, associated_cell_count.
func appendMutationNoData(b []byte, m *Mutation) []byte {
	b = appendBytesField(b, 1, m.Row)
	b = appendVarintField(b, 2, uint64(m.Type))
	if m.Durability != UseDefault {
		b = appendVarintField(b, 6, uint64(m.Durability))
	}
	return appendVarintField(b, 8, uint64(len(m.Qualifiers)))
}

// decodeKeyValues appends the first n cells of the KeyValueCodec block b to
// r (copying into r's arena unless r adopted the frame) and returns the
// rest of the block.
func (r *Result) decodeKeyValues(b []byte, n int) ([]byte, error) {
	for ; n > 0; n-- {
		if len(b) < 12 {
			return nil, fmt.Errorf("cell block: %d bytes left for a cell: %w", len(b), errCorrupt)
		}
		l := int(binary.BigEndian.Uint32(b))
		k := int(binary.BigEndian.Uint32(b[4:]))
		v := int(binary.BigEndian.Uint32(b[8:]))
		if l < 8 || l > len(b)-4 || k < 12 || v < 0 || k > l-8 || v != l-8-k {
			return nil, fmt.Errorf("cell block: cell of %d bytes (key %d, value %d), %d left: %w", l, k, v, len(b)-4, errCorrupt)
		}
		key, value := b[12:12+k], b[12+k:12+k+v]
		rl := int(binary.BigEndian.Uint16(key))
		if 2+rl+1+9 > k {
			return nil, fmt.Errorf("cell block: row of %d bytes in a key of %d: %w", rl, k, errCorrupt)
		}
		fl := int(key[2+rl])
		ql := k - (2 + rl + 1 + fl + 9)
		if ql < 0 {
			return nil, fmt.Errorf("cell block: family of %d bytes in a key of %d: %w", fl, k, errCorrupt)
		}
		if r.frame == nil && cap(r.arena)-len(r.arena) < k+v {
			// Cells decoded so far keep pointing into the old arena.
			r.arena = make([]byte, 0, max(2*cap(r.arena), k+v))
		}
		c := r.nextCell()
		c.Row = r.keep(key[2 : 2+rl])
		c.Family = r.keep(key[3+rl : 3+rl+fl])
		c.Qualifier = r.keep(key[3+rl+fl : 3+rl+fl+ql])
		c.Timestamp = binary.BigEndian.Uint64(key[k-9:])
		c.Type = CellType(key[k-1])
		c.Value = r.keep(value)
		b = b[4+l:]
	}
	return b, nil
}

// cellResults turns a cell-block ScanResponse (cells_per_result plus the
// block) into Results, for the paths that use generated messages (meta).
func cellResults(counts []uint32, block []byte) ([]*pb.Result, error) {
	out := make([]*pb.Result, 0, len(counts))
	var r Result
	for _, n := range counts {
		r.Reset()
		var err error
		if block, err = r.decodeKeyValues(block, int(n)); err != nil {
			return nil, err
		}
		res := &pb.Result{}
		for _, c := range r.Cells {
			res.Cell = append(res.Cell, &pb.Cell{Row: clone(c.Row), Family: clone(c.Family), Qualifier: clone(c.Qualifier),
				Value: clone(c.Value), Timestamp: proto.Uint64(c.Timestamp), CellType: pb.CellType(c.Type).Enum()})
		}
		out = append(out, res)
	}
	return out, nil
}

func clone(b []byte) []byte { return append([]byte{}, b...) }

// consumeCounts appends to counts the uint32 values of a repeated field,
// packed (BytesType) or not (VarintType), and returns the bytes consumed.
func consumeCounts(counts []uint32, typ protowire.Type, b []byte) ([]uint32, int) {
	if typ == protowire.VarintType {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return counts, n
		}
		return append(counts, uint32(v)), n
	}
	p, n := protowire.ConsumeBytes(b)
	if n < 0 {
		return counts, n
	}
	for len(p) > 0 {
		v, m := protowire.ConsumeVarint(p)
		if m < 0 {
			return counts, m
		}
		counts = append(counts, uint32(v))
		p = p[m:]
	}
	return counts, n
}
