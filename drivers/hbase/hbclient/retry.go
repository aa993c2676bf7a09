package hbclient

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// retryBackoff is HBase's HConstants.RETRY_BACKOFF: the multipliers of
// hbase.client.pause for retry 1, 2, ...; the last one repeats.
var retryBackoff = [...]int{1, 2, 3, 5, 10, 20, 40, 100, 100, 100, 100, 200, 200}

// backoff returns the pause before retry number attempt+1 (attempt 0-based
// = attempts failed so far, minus one): base times the multiplier, plus up to
// 1% jitter, as Java's ConnectionUtils.getPauseTime.
func backoff(base time.Duration, attempt int) time.Duration {
	m := retryBackoff[max(0, min(attempt, len(retryBackoff)-1))]
	d := base * time.Duration(m)
	return d + time.Duration(rand.Int64N(int64(d)/100+1))
}

// retrier runs the retry policy of one operation: it counts attempts,
// updates caches and connections as each error demands (onError), and
// pauses as HBase's Java client does (AsyncRpcRetryingCaller with
// HBaseServerExceptionPauseManager): RETRY_BACKOFF times RetryPause (or
// PauseServerOverloaded for an overloaded server), at most Retries retries,
// and never past the deadline: a pause that would pass it is cut short for
// one last attempt. It lives on the caller's stack.
type retrier struct {
	c        *Client
	deadline time.Time
	attempt  int   // failed attempts so far
	last     error // the error before the latest one, to explain a final timeout
}

func (c *Client) retrier(ctx context.Context) retrier {
	return retrier{c: c, deadline: c.deadline(ctx)}
}

// retry handles err of the latest attempt on reg (nil when locating
// failed). It returns nil if the operation should be tried again (after
// the pause), or the error to return.
func (r *retrier) retry(ctx context.Context, err error, reg *region) error {
	defer func() { r.last = err }()
	if ctx.Err() != nil {
		return r.explain(err)
	}
	c := r.c
	if c.onError(err, reg) == actFail {
		return err
	}
	r.attempt++
	if r.attempt > c.opts.Retries {
		return fmt.Errorf("giving up after %d attempts (%d retries): %w", r.attempt, c.opts.Retries, err)
	}
	var re *RemoteError
	var d time.Duration
	switch {
	case errors.As(err, &re) && re.Class == pkg+"RetryImmediatelyException":
		d = 0 // the server asks for it (multi), as Java's batch caller does
	case errors.As(err, &re) && re.Overloaded:
		d = backoff(c.opts.PauseServerOverloaded, r.attempt-1)
	default:
		d = backoff(c.opts.RetryPause, r.attempt-1)
	}
	if !sleepUntil(ctx, d, r.deadline) {
		return fmt.Errorf("giving up after %d attempts at the operation deadline: %w", r.attempt, r.explain(err))
	}
	return nil
}

// explain adds the previous attempt's error to err when err is only the
// timeout of a last attempt cut short by the deadline.
func (r *retrier) explain(err error) error {
	if r.last != nil && isTimeout(err) && !isTimeout(r.last) {
		return fmt.Errorf("%w (the attempt before: %v)", err, r.last)
	}
	return err
}

// isTimeout reports whether err is an RPC or context timeout.
func isTimeout(err error) bool {
	return errors.Is(err, errTimeout) || errors.Is(err, context.DeadlineExceeded)
}

// onError updates the region cache and the connections as err, from an
// operation on reg (nil if none), demands, and returns what it is.
func (c *Client) onError(err error, reg *region) action {
	a := classify(err)
	if reg == nil {
		return a
	}
	switch a {
	case actRelocate: // (actReopen keeps the location: the scan reopens there)
		if addr := movedTo(err); addr != "" && c.cache.move(reg, addr) {
			c.stats.moved.Add(1)
		} else {
			c.cache.remove(reg)
		}
	case actReconnect:
		c.dropServer(reg.addr, connOf(err))
	case actServerDown:
		// The connection works (the answer came over it): a restarted
		// server that is not running yet would otherwise be re-dialled
		// on every retry. Only the regions go, as Java's client clears
		// the server's locations.
		c.cache.removeServer(reg.addr)
	}
	return a
}

// sleepUntil sleeps for d, cut short to end just before deadline (1ms, as
// Java's SLEEP_DELTA_NS) so that one more attempt fits; it returns false
// if no time is left or ctx ended.
func sleepUntil(ctx context.Context, d time.Duration, deadline time.Time) bool {
	if !deadline.IsZero() {
		left := time.Until(deadline) - time.Millisecond
		if left <= 0 {
			return false
		}
		d = min(d, left)
	}
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
