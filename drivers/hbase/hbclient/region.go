package hbclient

import (
	"bytes"
	"sort"
	"sync"
)

// region is one cached region location. Regions are immutable once cached;
// a move or split replaces the entry.
type region struct {
	table      string
	name       []byte // meta row key, used verbatim in RegionSpecifier
	start, end []byte // end empty = +inf
	id         uint64
	addr       string // host:port of the RegionServer
	// hops counts the RegionMovedException locations followed since the
	// entry came from hbase:meta, from the server the last one came from.
	hops int
	from string
}

// maxMovedHops bounds the RegionMovedException locations a cached region
// follows in a row; the next one (or one that points back to the server
// the region was just redirected from) drops the entry, so the retry asks
// hbase:meta. Servers can name each other for a region neither has: after
// a region moved away and back and then split, HBase 2.6's RegionServers
// each still remembered the other as its new home (testenv/README.md,
// "Found on the cluster"), and a client that kept following them never
// reached the daughters.
const maxMovedHops = 3

// contains reports whether row falls in [start, end).
func (r *region) contains(row []byte) bool {
	return bytes.Compare(r.start, row) <= 0 && (len(r.end) == 0 || bytes.Compare(row, r.end) < 0)
}

// overlaps reports whether the key ranges of r and o intersect.
func (r *region) overlaps(o *region) bool {
	return (len(o.end) == 0 || bytes.Compare(r.start, o.end) < 0) &&
		(len(r.end) == 0 || bytes.Compare(o.start, r.end) < 0)
}

// regionCache maps (table, row) to the region holding it. Per table, regions
// are sorted by start key and never overlap. Safe for concurrent use; lookups
// take a read lock and allocate nothing.
type regionCache struct {
	mu     sync.RWMutex
	tables map[string][]*region
}

func newRegionCache() *regionCache { return &regionCache{tables: make(map[string][]*region)} }

// get returns the cached region of table holding row, or nil.
func (rc *regionCache) get(table string, row []byte) *region {
	rc.mu.RLock()
	defer rc.mu.RUnlock()
	regs := rc.tables[table]
	i := sort.Search(len(regs), func(i int) bool { return bytes.Compare(regs[i].start, row) > 0 })
	if i == 0 {
		return nil
	}
	if r := regs[i-1]; r.contains(row) {
		return r
	}
	return nil
}

// put caches r, evicting every cached region of its table that overlaps it.
func (rc *regionCache) put(r *region) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	old := rc.tables[r.table]
	regs := make([]*region, 0, len(old)+1)
	for _, o := range old {
		if !o.overlaps(r) {
			regs = append(regs, o)
		}
	}
	i := sort.Search(len(regs), func(i int) bool { return bytes.Compare(regs[i].start, r.start) > 0 })
	regs = append(regs, nil)
	copy(regs[i+1:], regs[i:])
	regs[i] = r
	rc.tables[r.table] = regs
}

// remove drops r if it is still cached (a newer entry is left alone).
func (rc *regionCache) remove(r *region) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	regs := rc.tables[r.table]
	for i, o := range regs {
		if o == r {
			rc.tables[r.table] = append(regs[:i:i], regs[i+1:]...)
			return
		}
	}
}

// move replaces r, if it is still cached, with a copy hosted at addr (a
// RegionMovedException's new location). It reports whether it did: not
// when the location is where r already is or where r was redirected from,
// nor after maxMovedHops redirections since the last meta lookup (the
// caller then drops r).
func (rc *regionCache) move(r *region, addr string) bool {
	if addr == r.addr || addr == r.from || r.hops >= maxMovedHops {
		return false
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for i, o := range rc.tables[r.table] {
		if o == r {
			moved := *r
			moved.addr, moved.from, moved.hops = addr, r.addr, r.hops+1
			rc.tables[r.table][i] = &moved
			return true
		}
	}
	return false
}

// removeServer drops every region hosted at addr.
func (rc *regionCache) removeServer(addr string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for t, regs := range rc.tables {
		keep := make([]*region, 0, len(regs))
		for _, o := range regs {
			if o.addr != addr {
				keep = append(keep, o)
			}
		}
		rc.tables[t] = keep
	}
}

// removeTable drops every region of table.
func (rc *regionCache) removeTable(table string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	delete(rc.tables, table)
}
