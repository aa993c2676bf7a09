package hbclient

import (
	"context"
	"fmt"
)

// A benchmark issues every operation of a run under one context (the run's,
// cancelled when the drain time is up). A call that waits on its response
// and on that context's Done channel in a select costs the select's locking
// and queueing on both channels, a few percent of the client's CPU per call
// (perf, workload C at 16 threads). So a connection watches one context
// itself: once a context's Done channel has come with watchAfter calls in a
// row, context.AfterFunc fails that context's pending calls when it ends,
// and its calls wait on their response channel alone. Calls under any other
// context select as before, and so do calls under contexts that change from
// call to call (a context per operation, as Go code often makes them), which
// never take the watch: registering a watch per operation would cost more
// than the select it saves.
const watchAfter = 8

// ctxWatch is a connection's watch of one context.
type ctxWatch struct {
	done <-chan struct{}
	stop func() bool // the AfterFunc's stop
}

// watchedLocked returns done when a call under ctx (whose Done is done,
// not nil) may wait on its response alone, the connection then failing it
// when ctx ends; nil when it must select on done. Under c.mu, with the call
// about to be made pending in the same critical section.
func (c *rpcConn) watchedLocked(ctx context.Context, done <-chan struct{}) <-chan struct{} {
	if w := c.ctxw; w != nil {
		if w.done == done {
			return done
		}
		return nil
	}
	if done != c.seenDone {
		c.seenDone, c.seenN = done, 0
	}
	if c.seenN++; c.seenN < watchAfter || ctx.Err() != nil {
		return nil
	}
	w := &ctxWatch{done: done}
	// The function cannot run before the call is pending: it takes c.mu,
	// which the caller holds until then.
	w.stop = context.AfterFunc(ctx, func() { c.ctxEnded(ctx, w) })
	c.ctxw = w
	return done
}

// ctxEnded fails the pending calls of w's context, which has ended, with
// the error a call's select would have returned, and frees the watch for
// another context.
func (c *rpcConn) ctxEnded(ctx context.Context, w *ctxWatch) {
	var ended []*call
	c.mu.Lock()
	if c.ctxw == w {
		c.ctxw, c.seenDone, c.seenN = nil, nil, 0
	}
	for id, cl := range c.pending {
		if cl.done == w.done {
			delete(c.pending, id)
			ended = append(ended, cl)
		}
	}
	c.mu.Unlock()
	for _, cl := range ended {
		cl.err = fmt.Errorf("%s to %s: %w", cl.method, c.addr, ctx.Err())
		cl.ch <- struct{}{}
	}
}
