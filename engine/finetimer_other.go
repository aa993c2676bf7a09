//go:build !linux

package engine

import (
	"errors"
	"time"
)

// fineTimer is Linux-only (see pacer.go); elsewhere pacing sleeps use the
// Go timer alone.
type fineTimer struct{}

func newFineTimer() (*fineTimer, error) {
	return nil, errors.New("no timerfd on this system")
}

func (*fineTimer) wait(time.Duration) error { return errors.New("no timerfd on this system") }

func (*fineTimer) interrupt() {}

func (*fineTimer) close() {}
