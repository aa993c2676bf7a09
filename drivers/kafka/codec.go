package kafka

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/gobench/gobench/drivers"
)

// formatV1 is the first byte of every record value the driver writes, so
// that an empty record (no fields) is a non-null value, unlike a tombstone.
const formatV1 = 1

// appendRecord appends the compact encoding of the fields set in r to b:
// the format byte, then for each set field uvarint(index), uvarint(length)
// and the bytes.
func appendRecord(b []byte, r *drivers.Record) []byte {
	b = append(b, formatV1)
	for i := 0; i < r.Len(); i++ {
		v, ok := r.Get(i)
		if !ok {
			continue
		}
		b = binary.AppendUvarint(b, uint64(i))
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	return b
}

var errCorrupt = errors.New("corrupt record value")

// decodeRecord sets in dst (after resetting it) the fields of the encoded
// value b that fields selects (nil: all).
func decodeRecord(b []byte, fields drivers.FieldSet, dst *drivers.Record) error {
	dst.Reset()
	return mergeRecord(b, fields, dst)
}

// mergeRecord sets in dst the selected fields of b without resetting dst
// first, so that an update can lay new values over the stored ones.
func mergeRecord(b []byte, fields drivers.FieldSet, dst *drivers.Record) error {
	if len(b) == 0 || b[0] != formatV1 {
		return fmt.Errorf("%w: format byte %v", errCorrupt, b[:min(len(b), 1)])
	}
	b = b[1:]
	for len(b) > 0 {
		idx, n := binary.Uvarint(b)
		if n <= 0 {
			return fmt.Errorf("%w: bad field index", errCorrupt)
		}
		b = b[n:]
		l, n := binary.Uvarint(b)
		if n <= 0 || uint64(len(b)-n) < l {
			return fmt.Errorf("%w: bad length of field %d", errCorrupt, idx)
		}
		v := b[n : n+int(l)]
		b = b[n+int(l):]
		if wanted(fields, int(idx)) {
			dst.Set(int(idx), v)
		}
	}
	return nil
}

func wanted(fs drivers.FieldSet, i int) bool {
	if fs.All() {
		return true
	}
	for _, f := range fs {
		if f == i {
			return true
		}
	}
	return false
}
