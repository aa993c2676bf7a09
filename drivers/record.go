package drivers

// Record holds the values of one record, indexed by field position in the
// [Schema]. Its buffers are reused: Set copies into storage the Record owns,
// so filling a Record on every operation allocates nothing once the buffers
// have grown. The zero Record is empty; use [NewRecord] to size it.
// A Record is not safe for concurrent use.
type Record struct {
	vals [][]byte
	set  []bool
	n    int // number of fields set
}

// NewRecord returns an empty record with room for fields fields.
func NewRecord(fields int) *Record {
	return &Record{vals: make([][]byte, fields), set: make([]bool, fields)}
}

// Len returns the number of field positions (the schema's field count).
func (r *Record) Len() int { return len(r.vals) }

// Count returns the number of fields set.
func (r *Record) Count() int { return r.n }

// Reset marks every field absent, keeping the buffers.
func (r *Record) Reset() {
	if r.n == 0 {
		return
	}
	for i := range r.set {
		r.set[i] = false
	}
	r.n = 0
}

// Set copies v into field i and marks it present. It grows the record if i is
// beyond its length.
func (r *Record) Set(i int, v []byte) {
	if i >= len(r.vals) {
		r.grow(i + 1)
	}
	r.vals[i] = append(r.vals[i][:0], v...)
	if !r.set[i] {
		r.set[i] = true
		r.n++
	}
}

// Buffer returns field i's buffer, emptied and marked present, for callers
// that generate a value in place: r.SetBuffer(i, append(r.Buffer(i), ...)).
func (r *Record) Buffer(i int) []byte {
	if i >= len(r.vals) {
		r.grow(i + 1)
	}
	return r.vals[i][:0]
}

// SetBuffer stores b (usually built from [Record.Buffer]) as field i without
// copying; the Record takes ownership of b.
func (r *Record) SetBuffer(i int, b []byte) {
	if i >= len(r.vals) {
		r.grow(i + 1)
	}
	r.vals[i] = b
	if !r.set[i] {
		r.set[i] = true
		r.n++
	}
}

// Get returns field i and whether it is present. The slice is owned by the
// Record and valid until the next Set, SetBuffer or Reset of that field.
func (r *Record) Get(i int) ([]byte, bool) {
	if i < 0 || i >= len(r.vals) || !r.set[i] {
		return nil, false
	}
	return r.vals[i], true
}

// Has reports whether field i is present.
func (r *Record) Has(i int) bool { return i >= 0 && i < len(r.set) && r.set[i] }

func (r *Record) grow(n int) {
	v := make([][]byte, n)
	copy(v, r.vals)
	s := make([]bool, n)
	copy(s, r.set)
	r.vals, r.set = v, s
}
