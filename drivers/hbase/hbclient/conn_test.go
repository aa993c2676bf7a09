package hbclient

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/hbtest"
	"github.com/gobench/gobench/drivers/hbase/pb"
)

func dialFake(t *testing.T, handle func(s *hbtest.Server, id uint32, method, param []byte)) (*rpcConn, func() []*hbtest.Server) {
	t.Helper()
	dial, servers := hbtest.Dialer(t, handle)
	o := Options{Dial: dial, User: "tester", RPCTimeout: time.Second}
	o.setDefaults()
	c, err := dialConn(context.Background(), &o, "fake:1", "ClientService", true, nil)
	if err != nil {
		t.Fatalf("dial fake: %v", err)
	}
	t.Cleanup(c.close)
	return c, servers
}

// TestConnDispatchOutOfOrder sends concurrent calls that the server answers
// in reverse order; each caller must get the answer to its own param.
func TestConnDispatchOutOfOrder(t *testing.T) {
	const n = 8
	var mu sync.Mutex
	type req struct {
		id    uint32
		param []byte
	}
	var held []req
	c, _ := dialFake(t, func(s *hbtest.Server, id uint32, method, param []byte) {
		mu.Lock()
		held = append(held, req{id, append([]byte(nil), param...)})
		if len(held) < n {
			mu.Unlock()
			return
		}
		all := held
		mu.Unlock()
		for i := len(all) - 1; i >= 0; i-- {
			s.Reply(all[i].id, append([]byte("echo:"), all[i].param...))
		}
	})
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := fmt.Sprintf("p%d", i)
			cl, err := c.call(context.Background(), "Get", []byte(p), 5*time.Second)
			if err != nil {
				errs <- fmt.Errorf("call %s: %v", p, err)
				return
			}
			if got := string(cl.resp.body); got != "echo:"+p {
				errs <- fmt.Errorf("call %s got %q", p, got)
			}
			cl.release()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestConnExceptionAndDeadConnection(t *testing.T) {
	c, servers := dialFake(t, func(s *hbtest.Server, id uint32, method, param []byte) {
		switch string(method) {
		case "Moved":
			s.ReplyException(id, &pb.ExceptionResponse{ExceptionClassName: proto.String(pkg + "exceptions.RegionMovedException"),
				StackTrace: proto.String("moved\n\tat x"), Hostname: proto.String("h2"), Port: proto.Int32(16020)})
		case "Fatal":
			s.ReplyException(0xFFFFFFFF, &pb.ExceptionResponse{ExceptionClassName: proto.String(pkg + "ipc.FatalConnectionException")})
		}
		// Anything else stays unanswered.
	})
	_, err := c.call(context.Background(), "Moved", nil, time.Second)
	var re *RemoteError
	if !errors.As(err, &re) || re.Host != "h2" || re.Port != 16020 || re.Error() != pkg+"exceptions.RegionMovedException: moved" || classify(err) != actRelocate {
		t.Fatalf("RegionMoved call: %v (%+v); want RemoteError with h2:16020, relocate", err, re)
	}
	if servers()[0].Service() != "ClientService" {
		t.Errorf("server saw service %q", servers()[0].Service())
	}
	// Two calls wait; a call-id -1 response kills the connection and both fail.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.call(context.Background(), "Hang", nil, 10*time.Second)
		}()
	}
	time.Sleep(20 * time.Millisecond)
	if _, err := c.call(context.Background(), "Fatal", nil, 10*time.Second); !errors.Is(err, ErrConnection) {
		t.Errorf("call answered with call id -1: %v; want ErrConnection", err)
	}
	wg.Wait()
	for i, err := range errs {
		if !errors.Is(err, ErrConnection) || classify(err) != actReconnect {
			t.Errorf("pending call %d on the killed connection: %v; want ErrConnection", i, err)
		}
	}
	if c.alive() {
		t.Errorf("connection still alive after a fatal error")
	}
	if _, err := c.call(context.Background(), "Get", nil, time.Second); !errors.Is(err, ErrConnection) {
		t.Errorf("call on a dead connection: %v; want ErrConnection", err)
	}
}

// TestConnTimeouts: a call gives up at its context deadline or RPC timeout;
// the late answer is dropped and the connection keeps working.
func TestConnTimeouts(t *testing.T) {
	var mu sync.Mutex
	var late []uint32
	c, _ := dialFake(t, func(s *hbtest.Server, id uint32, method, param []byte) {
		if string(method) == "Slow" {
			mu.Lock()
			late = append(late, id)
			mu.Unlock()
			return
		}
		mu.Lock()
		for _, l := range late {
			s.Reply(l, []byte("late"))
		}
		late = nil
		mu.Unlock()
		s.Reply(id, []byte("fast"))
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if _, err := c.call(ctx, "Slow", nil, 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("slow call with a 30ms context: %v; want DeadlineExceeded", err)
	}
	if _, err := c.call(context.Background(), "Slow", nil, 30*time.Millisecond); !errors.Is(err, errTimeout) || classify(err) != actRelocate {
		t.Errorf("slow call with a 30ms RPC timeout: %v; want errTimeout", err)
	}
	for i := 0; i < 3; i++ {
		cl, err := c.call(context.Background(), "Fast", nil, time.Second)
		if err != nil || string(cl.resp.body) != "fast" {
			t.Fatalf("call %d after timeouts: %v", i, err)
		}
		cl.release()
	}
	if !c.alive() {
		t.Errorf("timeouts killed the connection")
	}
}

// TestConnWatchdogTimeout: an RPC timeout of at least watchMin has no timer
// of its own; the connection's watchdog fails the call with errTimeout once
// it is due (within a tick), the late answer is dropped and the connection
// keeps working. A call answered in time is not failed.
func TestConnWatchdogTimeout(t *testing.T) {
	oldMin, oldTick := watchMin.Swap(int64(50*time.Millisecond)), watchTick.Swap(int64(10*time.Millisecond))
	defer func() { watchMin.Store(oldMin); watchTick.Store(oldTick) }()
	var mu sync.Mutex
	var late []uint32
	c, _ := dialFake(t, func(s *hbtest.Server, id uint32, method, param []byte) {
		mu.Lock()
		defer mu.Unlock()
		if string(method) == "Slow" {
			late = append(late, id)
			return
		}
		for _, l := range late {
			s.Reply(l, []byte("late"))
		}
		late = nil
		if string(method) == "Fast" {
			s.Reply(id, []byte("fast"))
			return
		}
		go func() { // "InTime": answered well before its timeout
			time.Sleep(20 * time.Millisecond)
			s.Reply(id, []byte("in time"))
		}()
	})
	start := time.Now()
	_, err := c.call(context.Background(), "Slow", nil, 80*time.Millisecond)
	if took := time.Since(start); !errors.Is(err, errTimeout) || classify(err) != actRelocate || took < 80*time.Millisecond || took > 2*time.Second {
		t.Errorf("slow call with an 80ms RPC timeout (watchdog): %v after %v; want errTimeout after 80ms and a tick", err, took)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i := 0; i < 3; i++ {
		for _, m := range []string{"Fast", "InTime"} {
			cl, err := c.call(ctx, m, nil, 100*time.Millisecond)
			if err != nil {
				t.Fatalf("%s call %d after the timeout: %v", m, i, err)
			}
			cl.release()
		}
	}
	if !c.alive() {
		t.Errorf("the timeout killed the connection")
	}
}
