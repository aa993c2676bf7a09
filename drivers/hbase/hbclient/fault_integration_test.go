//go:build integration

package hbclient

import (
	"context"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// faultProxy forwards every dial to the real address, and can cut every
// open connection or refuse new ones, to test the client's recovery.
type faultProxy struct {
	mu      sync.Mutex
	conns   []net.Conn
	refuse  bool
	dials   atomic.Int32
	realDia net.Dialer
}

func (p *faultProxy) dial(ctx context.Context, addr string) (net.Conn, error) {
	p.mu.Lock()
	refuse := p.refuse
	p.mu.Unlock()
	if refuse {
		return nil, fmt.Errorf("fault proxy: refusing %s", addr)
	}
	p.dials.Add(1)
	c, err := p.realDia.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.conns = append(p.conns, c)
	p.mu.Unlock()
	return c, nil
}

// cut resets every open connection.
func (p *faultProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
		c.Close()
	}
	p.conns = nil
}

func (p *faultProxy) setRefuse(v bool) {
	p.mu.Lock()
	p.refuse = v
	p.mu.Unlock()
}

// TestIntegrationFaultConnectionsCut: while 8 goroutines read and write,
// every connection (RegionServer and meta) is reset several times and then
// refused for a while; every operation still succeeds within its deadline,
// and the client re-dials.
func TestIntegrationFaultConnectionsCut(t *testing.T) {
	admin := testClient(t)
	table := testTable(t, admin, "row2", "row5")
	p := &faultProxy{}
	// A short failed-servers expiry: the refusal window is only 500ms.
	c := New(testOptions(t, Options{Dial: p.dial, RetryPause: 20 * time.Millisecond, OperationTimeout: 30 * time.Second, FailedServerExpiry: 100 * time.Millisecond}))
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	stop := make(chan struct{})
	var ops atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var res Result
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				row := []byte(fmt.Sprintf("row%d_w%d_%d", (w+i)%8, w, i%50)) // rows of one worker only
				val := []byte(fmt.Sprint(i))
				m := Mutation{Row: row, Type: Put, Family: []byte("f"), Qualifiers: bs("q"), Values: [][]byte{val}}
				if err := c.Mutate(ctx, table, &m); err != nil {
					errs <- fmt.Errorf("worker %d put %s: %v", w, row, err)
					return
				}
				if err := c.Get(ctx, table, row, []byte("f"), nil, &res); err != nil || string(res.Cells[0].Value) != string(val) {
					errs <- fmt.Errorf("worker %d get %s: %v (cells %d)", w, row, err, len(res.Cells))
					return
				}
				ops.Add(2)
			}
		}()
	}
	for i := 0; i < 5; i++ {
		time.Sleep(200 * time.Millisecond)
		p.cut()
	}
	p.setRefuse(true)
	p.cut()
	time.Sleep(500 * time.Millisecond)
	p.setRefuse(false)
	time.Sleep(300 * time.Millisecond)
	before := ops.Load()
	time.Sleep(300 * time.Millisecond)
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if after := ops.Load(); after == before {
		t.Errorf("no operation completed after the faults ended (%d ops in all)", after)
	}
	if d := p.dials.Load(); d < 5 {
		t.Errorf("only %d dials for 6 cuts; the client did not re-dial", d)
	}
	t.Logf("%d operations, %d dials", ops.Load(), p.dials.Load())
}
