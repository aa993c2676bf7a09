package memory

import "bytes"

// maxLevel bounds the skip list's height; with p = 1/4 it serves 4^20
// (about 10^12) keys at full speed.
const maxLevel = 20

// node is one record: its key, its field values indexed by schema position
// (nil = field absent; a present empty value is a non-nil empty slice) and
// its forward links.
type node struct {
	key  []byte
	vals [][]byte
	next []*node
}

// skiplist is an ordered map from key to record. It is not safe for
// concurrent use: [table] guards it with a RWMutex.
type skiplist struct {
	head  node
	level int
	rnd   uint64 // xorshift state for tower heights
	n     int
}

func newSkiplist() *skiplist {
	return &skiplist{head: node{next: make([]*node, maxLevel)}, level: 1, rnd: 0x9E3779B97F4A7C15}
}

// seek returns the first node whose key is >= key, or nil. When prev is
// non-nil it receives, per level, the last node before that position.
func (s *skiplist) seek(key []byte, prev *[maxLevel]*node) *node {
	x := &s.head
	for l := s.level - 1; l >= 0; l-- {
		for nx := x.next[l]; nx != nil && bytes.Compare(nx.key, key) < 0; nx = x.next[l] {
			x = nx
		}
		if prev != nil {
			prev[l] = x
		}
	}
	return x.next[0]
}

// get returns the node holding key, or nil.
func (s *skiplist) get(key []byte) *node {
	n := s.seek(key, nil)
	if n != nil && bytes.Equal(n.key, key) {
		return n
	}
	return nil
}

// randomLevel draws a tower height with P(h > k) = 4^-k.
func (s *skiplist) randomLevel() int {
	s.rnd ^= s.rnd << 13
	s.rnd ^= s.rnd >> 7
	s.rnd ^= s.rnd << 17
	h, r := 1, s.rnd
	for h < maxLevel && r&3 == 0 {
		h++
		r >>= 2
	}
	return h
}

// upsert returns the node for key, inserting an empty one (holding key
// itself, which the caller must not change afterwards, and room for fields
// values) if it is missing.
func (s *skiplist) upsert(key []byte, fields int) *node {
	var prev [maxLevel]*node
	if n := s.seek(key, &prev); n != nil && bytes.Equal(n.key, key) {
		return n
	}
	h := s.randomLevel()
	for l := s.level; l < h; l++ {
		prev[l] = &s.head
	}
	s.level = max(s.level, h)
	n := &node{key: key, vals: make([][]byte, fields), next: make([]*node, h)}
	for l := range h {
		n.next[l] = prev[l].next[l]
		prev[l].next[l] = n
	}
	s.n++
	return n
}

// delete removes key and reports whether it was present.
func (s *skiplist) delete(key []byte) bool {
	var prev [maxLevel]*node
	n := s.seek(key, &prev)
	if n == nil || !bytes.Equal(n.key, key) {
		return false
	}
	for l := range n.next {
		prev[l].next[l] = n.next[l]
	}
	for s.level > 1 && s.head.next[s.level-1] == nil {
		s.level--
	}
	s.n--
	return true
}
