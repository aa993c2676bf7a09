package hbtest

import (
	"encoding/binary"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/pb"
)

// KeyValues encodes cells as a KeyValueCodec cell block (hbase-wire.md
// §2.3): per cell a 4-byte length, then key length, value length, row
// length, row, family length, family, qualifier, timestamp, type and value.
func KeyValues(cells ...*pb.Cell) []byte {
	var b []byte
	for _, c := range cells {
		k := 2 + len(c.Row) + 1 + len(c.Family) + len(c.Qualifier) + 8 + 1
		b = binary.BigEndian.AppendUint32(b, uint32(8+k+len(c.Value)))
		b = binary.BigEndian.AppendUint32(b, uint32(k))
		b = binary.BigEndian.AppendUint32(b, uint32(len(c.Value)))
		b = binary.BigEndian.AppendUint16(b, uint16(len(c.Row)))
		b = append(b, c.Row...)
		b = append(b, byte(len(c.Family)))
		b = append(b, c.Family...)
		b = append(b, c.Qualifier...)
		b = binary.BigEndian.AppendUint64(b, c.GetTimestamp())
		b = append(b, byte(c.GetCellType()))
		b = append(b, c.Value...)
	}
	return b
}

// ParseKeyValues decodes a KeyValueCodec cell block (without tags).
func ParseKeyValues(b []byte) ([]*pb.Cell, error) {
	var out []*pb.Cell
	for len(b) > 0 {
		if len(b) < 12 {
			return nil, fmt.Errorf("hbtest: cell block: %d bytes left, too short for a cell", len(b))
		}
		l := int(binary.BigEndian.Uint32(b))
		k := int(binary.BigEndian.Uint32(b[4:]))
		v := int(binary.BigEndian.Uint32(b[8:]))
		if l != 8+k+v || len(b) < 4+l || k < 12 {
			return nil, fmt.Errorf("hbtest: cell block: cell length %d, key %d, value %d, %d bytes left", l, k, v, len(b))
		}
		key := b[12 : 12+k]
		r := int(binary.BigEndian.Uint16(key))
		if 2+r+1 > k {
			return nil, fmt.Errorf("hbtest: cell block: row length %d in a key of %d", r, k)
		}
		f := int(key[2+r])
		q := k - (2 + r + 1 + f + 9)
		if q < 0 {
			return nil, fmt.Errorf("hbtest: cell block: family length %d in a key of %d", f, k)
		}
		c := &pb.Cell{
			Row:       append([]byte{}, key[2:2+r]...),
			Family:    append([]byte{}, key[3+r:3+r+f]...),
			Qualifier: append([]byte{}, key[3+r+f:3+r+f+q]...),
			Timestamp: proto.Uint64(binary.BigEndian.Uint64(key[k-9:])),
			CellType:  pb.CellType(key[k-1]).Enum(),
			Value:     append([]byte{}, b[12+k:12+k+v]...),
		}
		out = append(out, c)
		b = b[4+l:]
	}
	return out, nil
}
