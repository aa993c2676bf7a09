package hbase

import "github.com/gobench/gobench/drivers/hbase/hbclient"

// writeBuffer holds one connection's buffered mutations (clientbuffering).
// The bytes of rows and values are copied into chunks that are reused after
// each flush, so buffering allocates nothing once the chunks have grown.
type writeBuffer struct {
	table string
	muts  []hbclient.Mutation
	bytes int64 // approximate request bytes buffered

	chunks [][]byte   // byte storage; chunks[:cur+1] are in use
	cur    int        // chunk being filled
	slabs  [][][]byte // [][]byte storage for qualifier/value lists
	scur   int
}

const chunkSize = 256 << 10
const slabSize = 4096

func (b *writeBuffer) len() int { return len(b.muts) }

// copyBytes copies v into the buffer's storage.
func (b *writeBuffer) copyBytes(v []byte) []byte {
	for {
		if b.cur == len(b.chunks) {
			b.chunks = append(b.chunks, make([]byte, 0, max(chunkSize, len(v))))
		}
		c := b.chunks[b.cur]
		if cap(c)-len(c) >= len(v) {
			s := len(c)
			c = append(c, v...)
			b.chunks[b.cur] = c
			return c[s:len(c):len(c)]
		}
		b.cur++
	}
}

// slices returns n empty-but-sized [][]byte entries from the slabs.
func (b *writeBuffer) slices(n int) [][]byte {
	for {
		if b.scur == len(b.slabs) {
			b.slabs = append(b.slabs, make([][]byte, 0, max(slabSize, n)))
		}
		s := b.slabs[b.scur]
		if cap(s)-len(s) >= n {
			start := len(s)
			s = s[:start+n]
			b.slabs[b.scur] = s
			return s[start : start+n : start+n]
		}
		b.scur++
	}
}

// add copies m into the buffer. Qualifiers are the schema's field names,
// which live as long as the DB, so they are not copied.
func (b *writeBuffer) add(m *hbclient.Mutation) {
	cp := hbclient.Mutation{Row: b.copyBytes(m.Row), Type: m.Type, Family: m.Family, Durability: m.Durability}
	size := int64(len(m.Row) + 16)
	if n := len(m.Qualifiers); n > 0 {
		cp.Qualifiers = b.slices(n)
		copy(cp.Qualifiers, m.Qualifiers)
		cp.Values = b.slices(n)
		for i, v := range m.Values {
			cp.Values[i] = b.copyBytes(v)
			size += int64(len(v) + len(m.Qualifiers[i]) + 8)
		}
	}
	b.muts = append(b.muts, cp)
	b.bytes += size
}

// reset empties the buffer, keeping its storage.
func (b *writeBuffer) reset() {
	clear(b.muts)
	b.muts = b.muts[:0]
	b.bytes = 0
	for i := range b.chunks {
		b.chunks[i] = b.chunks[i][:0]
	}
	for i := range b.slabs {
		clear(b.slabs[i])
		b.slabs[i] = b.slabs[i][:0]
	}
	b.cur, b.scur = 0, 0
}
