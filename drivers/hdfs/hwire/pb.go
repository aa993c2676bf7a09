package hwire

import (
	"errors"

	"google.golang.org/protobuf/encoding/protowire"
)

var errCorrupt = errors.New("hdfs wire: corrupt message")

func putBytes(b []byte, n protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, n, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

func putString(b []byte, n protowire.Number, v string) []byte {
	b = protowire.AppendTag(b, n, protowire.BytesType)
	return protowire.AppendString(b, v)
}

func putUint(b []byte, n protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, n, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func putSint(b []byte, n protowire.Number, v int64) []byte {
	b = protowire.AppendTag(b, n, protowire.VarintType)
	return protowire.AppendVarint(b, protowire.EncodeZigZag(v))
}

func putBool(b []byte, n protowire.Number, v bool) []byte {
	return putUint(b, n, protowire.EncodeBool(v))
}

func putFixed64(b []byte, n protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, n, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, v)
}

func putFixed32(b []byte, n protowire.Number, v uint32) []byte {
	b = protowire.AppendTag(b, n, protowire.Fixed32Type)
	return protowire.AppendFixed32(b, v)
}

// putMsg appends field n holding the message that enc appends.
func putMsg(b []byte, n protowire.Number, enc func([]byte) []byte) []byte {
	b = protowire.AppendTag(b, n, protowire.BytesType)
	at := len(b)
	b = append(b, 0) // one length byte, moved when the message is longer
	b = enc(b)
	l := len(b) - at - 1
	if l < 128 {
		b[at] = byte(l)
		return b
	}
	var lb [10]byte
	k := len(protowire.AppendVarint(lb[:0], uint64(l)))
	b = append(b, lb[:k-1]...)
	copy(b[at+k:], b[at+1:at+1+l])
	copy(b[at:], lb[:k])
	return b
}

// field is one decoded field: v holds the bytes of a length-delimited field,
// x the value of the others.
type field struct {
	n protowire.Number
	t protowire.Type
	v []byte
	x uint64
}

// each calls fn for each field of the message b.
func each(b []byte, fn func(f field) error) error {
	for len(b) > 0 {
		n, t, k := protowire.ConsumeTag(b)
		if k < 0 {
			return errCorrupt
		}
		b = b[k:]
		f := field{n: n, t: t}
		switch t {
		case protowire.VarintType:
			f.x, k = protowire.ConsumeVarint(b)
		case protowire.Fixed64Type:
			f.x, k = protowire.ConsumeFixed64(b)
		case protowire.Fixed32Type:
			var x uint32
			x, k = protowire.ConsumeFixed32(b)
			f.x = uint64(x)
		case protowire.BytesType:
			f.v, k = protowire.ConsumeBytes(b)
		default:
			k = protowire.ConsumeFieldValue(n, t, b)
		}
		if k < 0 {
			return errCorrupt
		}
		b = b[k:]
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// varints calls fn for each value of a repeated varint field, packed or not.
func varints(f field, fn func(uint64)) error {
	if f.t == protowire.VarintType {
		fn(f.x)
		return nil
	}
	if f.t != protowire.BytesType {
		return errCorrupt
	}
	for b := f.v; len(b) > 0; {
		x, k := protowire.ConsumeVarint(b)
		if k < 0 {
			return errCorrupt
		}
		fn(x)
		b = b[k:]
	}
	return nil
}
