package basic

import (
	"hash/fnv"
	"strconv"
	"sync"

	"github.com/gobench/gobench/drivers"
)

// op indexes the per-operation counters.
type op int

const (
	opRead op = iota
	opScan
	opUpdate
	opInsert
	opDelete
	numOps
)

// Java's labels for the count summary, by op.
var countLabels = [numOps]string{"READS", "SCANS", "UPDATES", "INSERTS", "DELETES"}

// counts is basicdb.count's state: per operation, how often each hash of
// (table, key, fields or values) was seen. Java keeps the same maps and
// prints only their sizes.
type counts struct {
	mu sync.Mutex
	m  [numOps]map[uint64]uint32
}

func newCounts() *counts {
	c := &counts{}
	for i := range c.m {
		c.m[i] = map[uint64]uint32{}
	}
	return c
}

func (c *counts) add(o op, h uint64) {
	c.mu.Lock()
	c.m[o][h]++
	c.mu.Unlock()
}

func (c *counts) sizes() [numOps]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var n [numOps]int
	for i, m := range c.m {
		n[i] = len(m)
	}
	return n
}

// summary renders Java's cleanup lines, one per operation.
func (c *counts) summary() string {
	var b []byte
	for i, n := range c.sizes() {
		b = append(b, '[')
		b = append(b, countLabels[i]...)
		b = append(b, "], Uniques, "...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, '\n')
	}
	return string(b)
}

// fnv64a folds b into the FNV-1a hash h. It is inlined by hand so hashing
// allocates nothing (hash.Hash64 would escape to the heap).
func fnv64a(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

func fnv64aString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// fnvOffset is FNV-1a's 64-bit offset basis (the hash of nothing).
var fnvOffset = fnv.New64a().Sum64()

// sep keeps "ab"+"c" apart from "a"+"bc".
var sep = []byte{0}

// fnvUint folds the 8 little-endian bytes of x into h.
func fnvUint(h, x uint64) uint64 {
	for range 8 {
		h ^= x & 0xff
		h *= 1099511628211
		x >>= 8
	}
	return h
}

// hashFields hashes a table, a key and a field selection (nil = all). The
// selection is hashed independently of its order, as Java sorts the names
// first.
func hashFields(table string, key []byte, fields drivers.FieldSet) uint64 {
	h := fnv64a(fnv64a(fnv64aString(fnvOffset, table), sep), key)
	if fields.All() {
		return h
	}
	var sum uint64
	for _, f := range fields {
		sum += fnvUint(fnvOffset, uint64(f))
	}
	return fnvUint(fnv64a(h, sep), sum)
}

// hashValues hashes a table, a key and the fields and values set in r.
func hashValues(table string, key []byte, r *drivers.Record) uint64 {
	h := fnv64a(fnv64a(fnv64aString(fnvOffset, table), sep), key)
	for i := range r.Len() {
		if v, ok := r.Get(i); ok {
			h = fnv64a(fnvUint(fnv64a(h, sep), uint64(i)), v)
		}
	}
	return h
}
