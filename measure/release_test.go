package measure

import (
	"sync/atomic"
	"testing"
	"unsafe"
)

// TestReleaseStores: the release store writes the value that the atomic
// loads then read, which holds only while sync/atomic's Int64 is its one
// word and nothing else (the amd64 store writes through a pointer to the
// type). TestConcurrentCut and TestCutWaitsForAClaim check
// the order they give; make test-unit runs them again without -race,
// where these are the plain stores.
func TestReleaseStores(t *testing.T) {
	if s := unsafe.Sizeof(atomic.Int64{}); s != 8 {
		t.Fatalf("atomic.Int64 is %d bytes, want 8: releaseInt64 would write beside its value", s)
	}
	var pair [2]atomic.Int64
	for _, v := range []int64{1, -1, 1 << 62, -1 << 63} {
		releaseInt64(&pair[0], v)
		if pair[0].Load() != v || pair[1].Load() != 0 {
			t.Errorf("releaseInt64(%d): loads %d, beside it %d", v, pair[0].Load(), pair[1].Load())
		}
	}
	p := newPhaser()
	for _, ticket := range []int64{p.enter(), p.enter()} {
		p.exitSingle(ticket)
	}
	if p.evenEnd.Load() != 2 || p.start.Load() != 2 {
		t.Errorf("after two even critical sections: start %d, evenEnd %d; want 2, 2", p.start.Load(), p.evenEnd.Load())
	}
	p.wait(p.begin())
	ticket := p.enter()
	p.exitSingle(ticket)
	if ticket >= 0 || p.oddEnd.Load() != ticket+1 {
		t.Errorf("odd phase: ticket %d, oddEnd %d, want a negative ticket and its successor", ticket, p.oddEnd.Load())
	}
}
