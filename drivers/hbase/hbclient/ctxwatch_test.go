package hbclient

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers/hbase/hbtest"
)

// ctxWatchFake dials a fake server that answers "Fast" at once and keeps
// every other call unanswered.
func ctxWatchFake(t *testing.T) *rpcConn {
	t.Helper()
	c, _ := dialFake(t, func(s *hbtest.Server, id uint32, method, param []byte) {
		if string(method) == "Fast" {
			s.Reply(id, []byte("fast"))
		}
	})
	return c
}

// fast makes n answered calls under ctx.
func fast(t *testing.T, c *rpcConn, ctx context.Context, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		cl, err := c.call(ctx, "Fast", nil, time.Minute)
		if err != nil {
			t.Fatalf("answered call %d: %v", i, err)
		}
		cl.release()
	}
}

// slowCalls starts n unanswered calls under ctx and returns a function
// that returns their errors once all have returned (failing the test if
// they have not within 5 s).
func slowCalls(t *testing.T, c *rpcConn, ctx context.Context, n int) func() []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl, err := c.call(ctx, "Slow", nil, time.Minute)
			if err == nil {
				cl.release()
				err = errors.New("answered")
			}
			errs[i] = err
		}()
	}
	return func() []error {
		t.Helper()
		all := make(chan struct{})
		go func() { wg.Wait(); close(all) }()
		select {
		case <-all:
		case <-time.After(5 * time.Second):
			t.Fatalf("%d calls under %v still waiting 5 s after they should have ended", n, ctx)
		}
		return errs
	}
}

// waitPending waits until the connection has n pending calls.
func waitPending(t *testing.T, c *rpcConn, n int) {
	t.Helper()
	waitFor(t, fmt.Sprintf("%d pending calls", n), func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.pending) == n
	})
}

// watchOf returns the connection's context watch (nil: none).
func watchOf(c *rpcConn) *ctxWatch {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ctxw
}

// TestCtxWatchRunContext: the calls of one long-lived context take the
// connection's watch after watchAfter calls and wait without a select;
// cancelling the context fails every one of them at once with the
// context's error, frees the watch, and the connection keeps working.
func TestCtxWatchRunContext(t *testing.T) {
	c := ctxWatchFake(t)
	ctx, cancel := context.WithCancel(context.Background())
	fast(t, c, ctx, watchAfter-1)
	w := watchOf(c)
	if w != nil {
		t.Fatalf("watch taken after %d calls; want it after %d", watchAfter-1, watchAfter)
	}
	fast(t, c, ctx, 1)
	w = watchOf(c)
	if w == nil || w.done != ctx.Done() {
		t.Fatalf("no watch of the context after %d calls", watchAfter)
	}

	wait := slowCalls(t, c, ctx, 20)
	waitPending(t, c, 20)
	c.mu.Lock()
	for id, cl := range c.pending {
		if cl.done != ctx.Done() {
			t.Errorf("pending call %d selects on its context; want it to wait on its response alone", id)
		}
	}
	c.mu.Unlock()
	start := time.Now()
	cancel()
	for i, err := range wait() {
		if !errors.Is(err, context.Canceled) || errors.Is(err, ErrConnection) {
			t.Errorf("call %d after cancel: %v; want context.Canceled, not a connection error", i, err)
		}
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("calls returned %v after the cancel; want at once", took)
	}
	waitPending(t, c, 0)
	w = watchOf(c)
	if w != nil {
		t.Errorf("watch kept after its context ended")
	}
	if !c.alive() {
		t.Fatal("the cancel killed the connection")
	}
	// a call under the ended context fails at once (its select sees Done)
	if _, err := c.call(ctx, "Slow", nil, time.Minute); !errors.Is(err, context.Canceled) {
		t.Errorf("call under the ended context: %v; want context.Canceled", err)
	}
	// the next run's context takes the watch
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	fast(t, c, ctx2, watchAfter)
	w = watchOf(c)
	if w == nil || w.done != ctx2.Done() {
		t.Errorf("the next context did not take the watch")
	}
}

// TestCtxWatchOtherContexts: while one context holds the watch, calls under
// other contexts select on theirs, and a context per call never takes the
// watch; each still ends its own calls alone.
func TestCtxWatchOtherContexts(t *testing.T) {
	c := ctxWatchFake(t)
	run, cancelRun := context.WithCancel(context.Background())
	defer cancelRun()
	for i := 0; i < 3*watchAfter; i++ { // a context per call
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		fast(t, c, ctx, 1)
		cancel()
	}
	w := watchOf(c)
	if w != nil {
		t.Fatal("a context per call took the watch")
	}
	fast(t, c, run, watchAfter)
	waitRun := slowCalls(t, c, run, 5)
	other, cancelOther := context.WithCancel(context.Background())
	waitOther := slowCalls(t, c, other, 5)
	waitPending(t, c, 10)
	cancelOther()
	for i, err := range waitOther() {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("call %d of the other context: %v; want context.Canceled", i, err)
		}
	}
	waitPending(t, c, 5) // the run's calls are still waiting
	cancelRun()
	for i, err := range waitRun() {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("call %d of the run's context: %v; want context.Canceled", i, err)
		}
	}
}

// TestCtxWatchConnectionDies: a connection that dies fails its watched
// calls with its error and stops the watch (nothing is left registered on
// the context).
func TestCtxWatchConnectionDies(t *testing.T) {
	c := ctxWatchFake(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fast(t, c, ctx, watchAfter)
	wait := slowCalls(t, c, ctx, 4)
	waitPending(t, c, 4)
	w := watchOf(c)
	c.fail(fmt.Errorf("test: %w", ErrConnection))
	for i, err := range wait() {
		if !errors.Is(err, ErrConnection) {
			t.Errorf("call %d on the dead connection: %v; want ErrConnection", i, err)
		}
	}
	if w == nil {
		t.Fatal("no watch before the failure")
	}
	if w.stop() {
		t.Errorf("the watch's AfterFunc was still registered after the connection died")
	}
}
