//go:build !amd64 || race

package measure

import "sync/atomic"

// releaseInt64 is sync/atomic's store where a plain store does not order
// the writes before it (not amd64), or where the race detector must see
// the order (see release_amd64.go).
func releaseInt64(p *atomic.Int64, v int64) { p.Store(v) }
