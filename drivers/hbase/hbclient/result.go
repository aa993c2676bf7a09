package hbclient

import "bytes"

// CellType is the KeyValue type of a cell (4 = Put for normal reads).
type CellType uint8

// CellPut is the type of every cell a normal read returns.
const CellPut CellType = 4

// Cell is one HBase cell. Its slices point into the owning [Result]'s
// storage and stay valid until that Result is reset or refilled.
type Cell struct {
	Row, Family, Qualifier, Value []byte
	// Timestamp is the cell version in milliseconds since the epoch.
	Timestamp uint64
	Type      CellType
}

// Result holds the cells of one row. It owns the bytes its cells point to
// and reuses them: a Result that is reused for every Get or scanned row stops
// allocating once it has grown. The zero Result is empty and ready to use. A
// Result is not safe for concurrent use.
type Result struct {
	Cells []Cell
	// Partial is true when more cells of this row follow in the next
	// Result (never set by this client's scans, which ask for whole rows).
	Partial bool
	arena   []byte
	// frame, when not nil, is the response frame the cells point into (a
	// Get's, kept instead of copying its cells: see adopt); it goes back
	// to framePool on Reset.
	frame *[]byte
}

// adopt makes r the owner of a response frame whose cells it is about to
// decode: they are then not copied (keep returns them in place).
func (r *Result) adopt(frame *[]byte) {
	if r.frame != nil {
		framePool.Put(r.frame)
	}
	r.frame = frame
}

// Reset empties r, keeping its storage.
func (r *Result) Reset() {
	if r.frame != nil {
		framePool.Put(r.frame)
		r.frame = nil
	}
	r.Cells = r.Cells[:0]
	r.arena = r.arena[:0]
	r.Partial = false
}

// Row returns the row key of the result, or nil if it has no cells.
func (r *Result) Row() []byte {
	if len(r.Cells) == 0 {
		return nil
	}
	return r.Cells[0].Row
}

// Value returns the value of family:qualifier and whether it is present.
func (r *Result) Value(family, qualifier []byte) ([]byte, bool) {
	for i := range r.Cells {
		c := &r.Cells[i]
		if bytes.Equal(c.Qualifier, qualifier) && bytes.Equal(c.Family, family) {
			return c.Value, true
		}
	}
	return nil, false
}
