package hbclient

import (
	"encoding/binary"
	"errors"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// Hand-written encoders and decoders for the messages on the per-operation
// path (RPC framing, Get, Mutate, Scan, Multi requests; Result cells). They
// append into caller-owned buffers and decode without copying, so a Get or
// Put allocates nothing once the buffers have grown. Field numbers are those
// of drivers/hbase/pb (hbase-wire.md §7); wire_test.go checks every encoder
// against the generated code.

// preamble is "HBas", RPC version 0, auth SIMPLE (hbase-wire.md §1.2).
var preamble = []byte{'H', 'B', 'a', 's', 0, 0x50}

// errCorrupt reports a frame that does not parse.
var errCorrupt = errors.New("corrupt response frame")

func tagSize(num protowire.Number) int { return protowire.SizeTag(num) }

func sizeBytesField(num protowire.Number, n int) int {
	return tagSize(num) + protowire.SizeBytes(n)
}

func sizeVarintField(num protowire.Number, v uint64) int {
	return tagSize(num) + protowire.SizeVarint(v)
}

func appendBytesField(b []byte, num protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

func appendStringField(b []byte, num protowire.Number, v string) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, v)
}

func appendVarintField(b []byte, num protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

// appendLen appends the tag of a length-delimited field and its length; the
// caller appends exactly n bytes of content next.
func appendLen(b []byte, num protowire.Number, n int) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendVarint(b, uint64(n))
}

// Request priorities (RequestHeader.priority), HBase's QoS levels. A
// RegionServer that finds no priority in the header works it out itself for
// every call: by reflection on the request and a lookup of its region, to
// see whether the region belongs to a system table. Java's client always
// sends one (NORMAL_QOS for user tables, SYSTEMTABLE_QOS for hbase:meta),
// and so does this client on RegionServer calls.
type priority int32

const (
	prioUnset  priority = -1  // no priority field (MasterService calls)
	prioNormal priority = 0   // HConstants.NORMAL_QOS: user tables
	prioSystem priority = 200 // HConstants.SYSTEMTABLE_QOS: hbase:meta
)

// appendRequestFrame appends one request frame (hbase-wire.md §2.1): 4-byte
// big-endian total length, varint-delimited RequestHeader, varint-delimited
// param, then the cell block if cells is not nil (announced in the header's
// cell_block_meta). timeoutMs 0 leaves the header's timeout unset, prio
// prioUnset its priority.
func appendRequestFrame(b []byte, callID uint32, method string, prio priority, timeoutMs uint32, param, cells []byte) []byte {
	hsize := sizeVarintField(1, uint64(callID)) + tagSize(3) + protowire.SizeBytes(len(method)) + 2
	meta := 0
	if cells != nil {
		meta = sizeVarintField(1, uint64(len(cells)))
		hsize += sizeBytesField(5, meta)
	}
	if prio >= 0 {
		hsize += sizeVarintField(6, uint64(prio))
	}
	if timeoutMs > 0 {
		hsize += sizeVarintField(7, uint64(timeoutMs))
	}
	total := protowire.SizeBytes(hsize) + protowire.SizeBytes(len(param)) + len(cells)
	b = binary.BigEndian.AppendUint32(b, uint32(total))
	b = protowire.AppendVarint(b, uint64(hsize))
	b = appendVarintField(b, 1, uint64(callID))
	b = appendStringField(b, 3, method)
	b = appendVarintField(b, 4, 1) // request_param = true
	if cells != nil {
		b = appendLen(b, 5, meta)
		b = appendVarintField(b, 1, uint64(len(cells)))
	}
	if prio >= 0 {
		b = appendVarintField(b, 6, uint64(prio))
	}
	if timeoutMs > 0 {
		b = appendVarintField(b, 7, uint64(timeoutMs))
	}
	b = protowire.AppendVarint(b, uint64(len(param)))
	b = append(b, param...)
	return append(b, cells...)
}

// keyValueCodec is the cell-block codec the client asks for (the Java
// client's default, hbase.client.rpc.codec).
const keyValueCodec = "org.apache.hadoop.hbase.codec.KeyValueCodec"

// The VersionInfo sent with a codec: a 2.6 client. The server gives such a
// client Get results as cell blocks (≥ 1.3), RetryImmediatelyException in
// Multi (≥ 1.2), RequestTooBigException (≥ 1.3) and ScannerResetException
// (≥ 1.4), all of which this client handles.
var versionInfo = [...]string{
	"2.6.0",                              // version
	"https://github.com/gobench/gobench", // url
	"gobench",                            // revision
	"gobench",                            // user
	"",                                   // date
	"",                                   // src_checksum
}

const versionMajor, versionMinor = 2, 6

func versionInfoSize() int {
	n := sizeVarintField(7, versionMajor) + sizeVarintField(8, versionMinor)
	for i, v := range versionInfo {
		n += sizeBytesField(protowire.Number(i+1), len(v))
	}
	return n
}

// appendConnectionHeader appends the preamble and the 4-byte-length-prefixed
// ConnectionHeader for user and service; with codec it names KeyValueCodec
// for cell blocks and adds the VersionInfo (hbase-wire.md §1.3).
func appendConnectionHeader(b []byte, user, service string, codec bool) []byte {
	ui := sizeBytesField(1, len(user))
	size := sizeBytesField(1, ui) + sizeBytesField(2, len(service))
	if codec {
		size += sizeBytesField(3, len(keyValueCodec)) + sizeBytesField(5, versionInfoSize())
	}
	b = append(b, preamble...)
	b = binary.BigEndian.AppendUint32(b, uint32(size))
	b = appendLen(b, 1, ui)
	b = appendStringField(b, 1, user)
	b = appendStringField(b, 2, service)
	if codec {
		b = appendStringField(b, 3, keyValueCodec)
		b = appendLen(b, 5, versionInfoSize())
		for i, v := range versionInfo {
			b = appendStringField(b, protowire.Number(i+1), v)
		}
		b = appendVarintField(b, 7, versionMajor)
		b = appendVarintField(b, 8, versionMinor)
	}
	return b
}

// responseFrame is a parsed response frame; its slices alias the frame buffer.
type responseFrame struct {
	callID    uint32
	exception []byte // serialized ExceptionResponse, nil if none
	body      []byte // serialized response param, nil with an exception
	cells     []byte // the cell block (KeyValueCodec), nil if none
}

// parseResponseFrame parses the bytes after the 4-byte length (hbase-wire.md §2.2).
func parseResponseFrame(f []byte) (responseFrame, error) {
	var r responseFrame
	h, n := protowire.ConsumeBytes(f)
	if n < 0 {
		return r, fmt.Errorf("response header: %w", errCorrupt)
	}
	f = f[n:]
	hasID := false
	cellLen := -1
	for len(h) > 0 {
		num, typ, n := protowire.ConsumeTag(h)
		if n < 0 {
			return r, fmt.Errorf("response header tag: %w", errCorrupt)
		}
		h = h[n:]
		switch {
		case num == 1 && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(h)
			if n < 0 {
				return r, fmt.Errorf("response call id: %w", errCorrupt)
			}
			r.callID, hasID = uint32(v), true
			h = h[n:]
		case num == 2 && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(h)
			if n < 0 {
				return r, fmt.Errorf("response exception: %w", errCorrupt)
			}
			r.exception = v
			if r.exception == nil {
				r.exception = []byte{}
			}
			h = h[n:]
		case num == 3 && typ == protowire.BytesType: // CellBlockMeta{1: length}
			v, n := protowire.ConsumeBytes(h)
			if n < 0 {
				return r, fmt.Errorf("response cell block meta: %w", errCorrupt)
			}
			h = h[n:]
			cellLen = 0
			for len(v) > 0 {
				f, ft, m := protowire.ConsumeTag(v)
				if m < 0 {
					return r, fmt.Errorf("response cell block meta: %w", errCorrupt)
				}
				v = v[m:]
				if f == 1 && ft == protowire.VarintType {
					l, m := protowire.ConsumeVarint(v)
					if m < 0 {
						return r, fmt.Errorf("response cell block length: %w", errCorrupt)
					}
					cellLen, v = int(min(l, 1<<31)), v[m:]
					continue
				}
				if m = protowire.ConsumeFieldValue(f, ft, v); m < 0 {
					return r, fmt.Errorf("response cell block meta: %w", errCorrupt)
				}
				v = v[m:]
			}
		default:
			n := protowire.ConsumeFieldValue(num, typ, h)
			if n < 0 {
				return r, fmt.Errorf("response header field %d: %w", num, errCorrupt)
			}
			h = h[n:]
		}
	}
	if !hasID {
		return r, fmt.Errorf("response without call id: %w", errCorrupt)
	}
	if r.exception != nil {
		return r, nil
	}
	body, n := protowire.ConsumeBytes(f)
	if n < 0 {
		return r, fmt.Errorf("response body: %w", errCorrupt)
	}
	r.body = body
	if r.body == nil {
		r.body = []byte{}
	}
	if rest := f[n:]; cellLen >= 0 {
		if len(rest) != cellLen {
			return r, fmt.Errorf("response cell block of %d bytes, meta says %d: %w", len(rest), cellLen, errCorrupt)
		}
		r.cells = rest
	} else if len(rest) > 0 {
		return r, fmt.Errorf("%d bytes after the response body without a cell block meta: %w", len(rest), errCorrupt)
	}
	return r, nil
}

// regionSpecSize is the size of RegionSpecifier{type: REGION_NAME, value: name}.
func regionSpecSize(name []byte) int {
	return sizeVarintField(1, 1) + sizeBytesField(2, len(name))
}

func appendRegionSpec(b []byte, num protowire.Number, name []byte) []byte {
	b = appendLen(b, num, regionSpecSize(name))
	b = appendVarintField(b, 1, 1)
	return appendBytesField(b, 2, name)
}

func columnSize(family []byte, quals [][]byte) int {
	n := sizeBytesField(1, len(family))
	for _, q := range quals {
		n += sizeBytesField(2, len(q))
	}
	return n
}

func appendColumn(b []byte, num protowire.Number, family []byte, quals [][]byte) []byte {
	b = appendLen(b, num, columnSize(family, quals))
	b = appendBytesField(b, 1, family)
	for _, q := range quals {
		b = appendBytesField(b, 2, q)
	}
	return b
}

// appendGetRequest appends a GetRequest for row in region, restricted to
// family (all families if nil) and quals (the whole family if empty).
func appendGetRequest(b []byte, region, row, family []byte, quals [][]byte) []byte {
	gsize := sizeBytesField(1, len(row))
	if family != nil {
		gsize += sizeBytesField(2, columnSize(family, quals))
	}
	b = appendRegionSpec(b, 1, region)
	b = appendLen(b, 2, gsize)
	b = appendBytesField(b, 1, row)
	if family != nil {
		b = appendColumn(b, 2, family, quals)
	}
	return b
}

// qualifierValueSize is the size of one MutationProto.ColumnValue.QualifierValue.
func qualifierValueSize(m *Mutation, i int) int {
	n := sizeBytesField(1, len(m.Qualifiers[i]))
	if m.Type == Delete {
		return n + sizeVarintField(4, uint64(deleteMultipleVersions))
	}
	return n + sizeBytesField(2, len(m.Values[i]))
}

func columnValueSize(m *Mutation) int {
	n := sizeBytesField(1, len(m.Family))
	for i := range m.Qualifiers {
		n += sizeBytesField(2, qualifierValueSize(m, i))
	}
	return n
}

// hasColumns reports whether m carries a ColumnValue (a Delete without
// qualifiers deletes the whole row and carries none).
func (m *Mutation) hasColumns() bool { return len(m.Qualifiers) > 0 }

// mutationSize returns the size of m as a MutationProto and of its
// ColumnValue (0 without columns).
func mutationSize(m *Mutation) (total, cv int) {
	total = sizeBytesField(1, len(m.Row)) + sizeVarintField(2, uint64(m.Type))
	if m.hasColumns() {
		cv = columnValueSize(m)
		total += sizeBytesField(3, cv)
	}
	if m.Durability != UseDefault {
		total += sizeVarintField(6, uint64(m.Durability))
	}
	return total, cv
}

// appendMutation appends m as the content of a MutationProto whose size,
// from mutationSize, is cv for the ColumnValue.
func appendMutation(b []byte, m *Mutation, cv int) []byte {
	b = appendBytesField(b, 1, m.Row)
	b = appendVarintField(b, 2, uint64(m.Type))
	if m.hasColumns() {
		b = appendLen(b, 3, cv)
		b = appendBytesField(b, 1, m.Family)
		for i, q := range m.Qualifiers {
			b = appendLen(b, 2, qualifierValueSize(m, i))
			b = appendBytesField(b, 1, q)
			if m.Type == Delete {
				b = appendVarintField(b, 4, uint64(deleteMultipleVersions))
			} else {
				b = appendBytesField(b, 2, m.Values[i])
			}
		}
	}
	if m.Durability != UseDefault {
		b = appendVarintField(b, 6, uint64(m.Durability))
	}
	return b
}

// appendMutateRequest appends a MutateRequest carrying m for region.
func appendMutateRequest(b []byte, region []byte, m *Mutation) []byte {
	b = appendRegionSpec(b, 1, region)
	size, cv := mutationSize(m)
	b = appendLen(b, 2, size)
	return appendMutation(b, m, cv)
}

// decode appends the cells of the serialized Result b to r, copying their
// bytes into r's arena (unless they are in a frame r adopted). It returns the Result's associated_cell_count: how
// many more of its cells are in the response's cell block.
func (r *Result) decode(b []byte) (assoc int, err error) {
	if r.frame == nil && cap(r.arena)-len(r.arena) < len(b) {
		n := 2 * cap(r.arena)
		if n < len(b) {
			n = len(b)
		}
		// Cells decoded so far keep pointing into the old arena.
		r.arena = make([]byte, 0, n)
	}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0, fmt.Errorf("result tag: %w", errCorrupt)
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return 0, fmt.Errorf("result cell: %w", errCorrupt)
			}
			if err := r.decodeCell(v); err != nil {
				return 0, err
			}
			b = b[n:]
		case num == 2 && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return 0, fmt.Errorf("result cell count: %w", errCorrupt)
			}
			assoc = int(int32(v))
			b = b[n:]
		case num == 5 && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return 0, fmt.Errorf("result partial flag: %w", errCorrupt)
			}
			r.Partial = v != 0
			b = b[n:]
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return 0, fmt.Errorf("result field %d: %w", num, errCorrupt)
			}
			b = b[n:]
		}
	}
	return assoc, nil
}

func (r *Result) keep(v []byte) []byte {
	if r.frame != nil { // v is in the adopted frame, which r owns
		return v[:len(v):len(v)]
	}
	s := len(r.arena)
	r.arena = append(r.arena, v...)
	return r.arena[s:len(r.arena):len(r.arena)]
}

// nextCell appends an empty cell to r, reusing storage, and returns it.
func (r *Result) nextCell() *Cell {
	if len(r.Cells) < cap(r.Cells) {
		r.Cells = r.Cells[:len(r.Cells)+1]
		r.Cells[len(r.Cells)-1] = Cell{}
	} else {
		r.Cells = append(r.Cells, Cell{})
	}
	return &r.Cells[len(r.Cells)-1]
}

func (r *Result) decodeCell(b []byte) error {
	c := r.nextCell()
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("cell tag: %w", errCorrupt)
		}
		b = b[n:]
		if typ == protowire.BytesType && num >= 1 && num <= 6 {
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return fmt.Errorf("cell field %d: %w", num, errCorrupt)
			}
			b = b[n:]
			switch num {
			case 1:
				c.Row = r.keep(v)
			case 2:
				c.Family = r.keep(v)
			case 3:
				c.Qualifier = r.keep(v)
			case 6:
				c.Value = r.keep(v)
			}
			continue
		}
		if typ == protowire.VarintType && (num == 4 || num == 5) {
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return fmt.Errorf("cell field %d: %w", num, errCorrupt)
			}
			b = b[n:]
			if num == 4 {
				c.Timestamp = v
			} else {
				c.Type = CellType(v)
			}
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return fmt.Errorf("cell field %d: %w", num, errCorrupt)
		}
		b = b[n:]
	}
	return nil
}
