//go:build !(linux && amd64)

package engine

import "errors"

// ticks is not used here: tscSupported refuses.
func ticks() uint64 { return 0 }

func tscSupported() error {
	return errors.New("the time-stamp counter clock is built for linux/amd64 only")
}
