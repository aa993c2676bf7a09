package hbclient

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/hbtest"
	"github.com/gobench/gobench/drivers/hbase/pb"
)

// TestBackoff: HBase 2.6's ConnectionUtils.getPauseTime with
// HConstants.RETRY_BACKOFF: retry n waits pause * RETRY_BACKOFF[n-1] (+1%
// jitter), the first retry included, whatever the error.
func TestBackoff(t *testing.T) {
	base := 100 * time.Millisecond
	want := []time.Duration{100, 200, 300, 500, 1000, 2000, 4000, 10000, 10000, 10000, 10000, 20000, 20000, 20000, 20000}
	for attempt, w := range want {
		w *= time.Millisecond
		if got := backoff(base, attempt); got < w || got > w+w/100 {
			t.Errorf("pause before retry %d = %v, want %v (+1%% jitter)", attempt+1, got, w)
		}
	}
}

// countingClient returns a client whose every call is answered with
// exception class exc (overloaded as the flag says), and the call counter.
func countingClient(t *testing.T, exc string, overloaded bool, o Options) (*Client, *atomic.Int32) {
	var calls atomic.Int32
	n := hbtest.NewNet(t)
	n.Serve("rs:1", func(s *hbtest.Server, id uint32, method, param []byte) {
		calls.Add(1)
		s.ReplyException(id, &pb.ExceptionResponse{ExceptionClassName: proto.String(exc), ServerOverloaded: proto.Bool(overloaded)})
	})
	return netClient(t, n, "rs:1", "rs:1", o), &calls
}

// TestClientRetriesCap: an operation makes at most Retries+1 attempts
// (Java's hbase.client.retries.number, default 15), even with time left.
func TestClientRetriesCap(t *testing.T) {
	for _, tc := range []struct{ retries, attempts int }{{3, 4}, {-1, 1}, {0, 16}} {
		c, calls := countingClient(t, pkg+"RegionTooBusyException", false, Options{Retries: tc.retries, RetryPause: 50 * time.Microsecond, OperationTimeout: time.Minute})
		var res Result
		err := c.Get(context.Background(), "t", []byte("a"), nil, nil, &res)
		if err == nil || !strings.Contains(err.Error(), "RegionTooBusyException") || int(calls.Load()) != tc.attempts {
			t.Errorf("Retries %d against a busy region: %v after %d attempts; want RegionTooBusy after %d", tc.retries, err, calls.Load(), tc.attempts)
		}
	}
}

// TestClientOverloadedPause: an error the server marks overloaded waits
// PauseServerOverloaded, others RetryPause.
func TestClientOverloadedPause(t *testing.T) {
	for _, tc := range []struct {
		exc        string
		overloaded bool
		min, max   time.Duration
	}{
		{pkg + "CallQueueTooBigException", true, 400 * time.Millisecond, 2 * time.Second},
		{pkg + "RegionTooBusyException", false, 0, 300 * time.Millisecond},
	} {
		c, calls := countingClient(t, tc.exc, tc.overloaded, Options{Retries: 1, RetryPause: 10 * time.Millisecond, PauseServerOverloaded: 400 * time.Millisecond})
		start := time.Now()
		var res Result
		_ = c.Get(context.Background(), "t", []byte("a"), nil, nil, &res)
		if took := time.Since(start); took < tc.min || took > tc.max || calls.Load() != 2 {
			t.Errorf("%s (overloaded %v): 2 attempts took %v (%d calls); want between %v and %v", tc.exc, tc.overloaded, took, calls.Load(), tc.min, tc.max)
		}
	}
}

// TestClientPauseCutAtDeadline: a pause that would pass the deadline is cut
// short for one last attempt just before it (Java), and the error says what
// failed.
func TestClientPauseCutAtDeadline(t *testing.T) {
	c, calls := countingClient(t, pkg+"RegionTooBusyException", false, Options{RetryPause: time.Second, OperationTimeout: 200 * time.Millisecond})
	start := time.Now()
	var res Result
	err := c.Get(context.Background(), "t", []byte("a"), nil, nil, &res)
	took := time.Since(start)
	if calls.Load() != 2 || took < 150*time.Millisecond || took > time.Second || err == nil || !strings.Contains(err.Error(), "RegionTooBusyException") {
		t.Errorf("busy region, 1s pause, 200ms deadline: %v after %v and %d attempts; want RegionTooBusy after 2 attempts at ~200ms", err, took, calls.Load())
	}
}
