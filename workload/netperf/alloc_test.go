package netperf

import (
	"context"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
)

// fakeStream is a NetStream that moves nothing, for the allocation check
// of the kind's own path (the real one is drivers/iperf3's, over TCP).
type fakeStream struct {
	drivers.Conn
	sender bool
}

func (f *fakeStream) Start(context.Context, drivers.NetSpec) (bool, error) { return f.sender, nil }
func (f *fakeStream) Send(context.Context, []byte) error                   { return nil }
func (f *fakeStream) Receive(_ context.Context, b []byte) (int, error)     { return len(b), nil }
func (f *fakeStream) Finish(context.Context) (drivers.NetResult, error) {
	return drivers.NetResult{}, nil
}
func (f *fakeStream) Info() drivers.NetInfo         { return drivers.NetInfo{} }
func (f *fakeStream) TCPInfo() (int64, int64, bool) { return 0, 0, false }

// One block sent or received allocates nothing in the kind.
func TestStepAllocatesNothing(t *testing.T) {
	ctx := context.Background()
	for _, sender := range []bool{true, false} {
		j := NewJob(Config{Streams: 1, Duration: time.Hour, Len: 4096})
		m := engine.NewMeter(engine.DefaultSettings(), j)
		tk, err := j.NewTask(0, &fakeStream{sender: sender}, nil, m)
		if err != nil {
			t.Fatal(err)
		}
		tk.Step(ctx) // the start
		if n := testing.AllocsPerRun(1000, func() {
			if !tk.Step(ctx) {
				t.Fatal("the task stopped")
			}
		}); n != 0 {
			t.Errorf("sender=%v: %.2f allocations per block", sender, n)
		}
		if got := j.Streams()[0].Bytes(); got < 1000*4096 {
			t.Errorf("sender=%v: %d bytes counted", sender, got)
		}
	}
}
