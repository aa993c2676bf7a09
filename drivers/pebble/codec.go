package pebble

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/gobench/gobench/drivers"
)

// Record encoding, version 1: one version byte, then for every present field,
// in field order, uvarint(field index) uvarint(len(value)) value. An absent
// field takes no space; a present empty value takes two bytes.
const codecVersion = 1

// errCorrupt marks a stored value that does not decode.
var errCorrupt = errors.New("corrupt record")

// appendRecord appends the encoding of the fields set in r to dst.
func appendRecord(dst []byte, r *drivers.Record) []byte {
	dst = append(dst, codecVersion)
	for i := range r.Len() {
		if v, ok := r.Get(i); ok {
			dst = binary.AppendUvarint(dst, uint64(i))
			dst = binary.AppendUvarint(dst, uint64(len(v)))
			dst = append(dst, v...)
		}
	}
	return dst
}

// decodeRecord resets dst and copies into it the fields of the encoded
// record b that fields selects (nil = all). It keeps no reference to b.
func decodeRecord(b []byte, fields drivers.FieldSet, dst *drivers.Record) error {
	dst.Reset()
	if len(b) == 0 || b[0] != codecVersion {
		return fmt.Errorf("%w: unknown encoding version", errCorrupt)
	}
	b = b[1:]
	for len(b) > 0 {
		i, n := binary.Uvarint(b)
		if n <= 0 || i > 1<<20 {
			return fmt.Errorf("%w: bad field index", errCorrupt)
		}
		b = b[n:]
		l, n := binary.Uvarint(b)
		if n <= 0 || l > uint64(len(b)-n) {
			return fmt.Errorf("%w: field %d: bad length", errCorrupt, i)
		}
		v := b[n : n+int(l)]
		b = b[n+int(l):]
		if fields.All() || slices.Contains(fields, int(i)) {
			dst.Set(int(i), v)
		}
	}
	return nil
}
