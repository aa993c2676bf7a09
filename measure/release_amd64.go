//go:build amd64 && !race

package measure

import (
	"sync/atomic"
	"unsafe"
)

// releaseInt64 stores v into p with release order only: the
// writes before it in program order become visible to other CPUs no later
// than it does, which is all that a writer's exit from its critical
// section needs (the reader that waits for it loads p atomically and then
// reads those writes). On amd64 every store has that order (x86-TSO), so
// this is one plain store, where sync/atomic's Store is an XCHG with the
// full fence of a locked instruction: 5-8 ns of a 200 ns operation at 1
// thread (BenchmarkRecordOp/single-writer). The store is an assembly
// function, which the compiler cannot inline, so it cannot move the
// writes before the call after it either.
//
// Only a location with a single writer at a time may be stored this way
// (an atomic read-modify-write elsewhere could be lost). Under the race
// detector, which does not see assembly, release_other.go's atomic
// stores give it the order to check.
func releaseInt64(p *atomic.Int64, v int64) { storeRelease64((*int64)(unsafe.Pointer(p)), v) }

func storeRelease64(p *int64, v int64)
