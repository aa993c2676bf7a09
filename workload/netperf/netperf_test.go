package netperf_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/iperf3"
	_ "github.com/gobench/gobench/drivers/pebble"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
	"github.com/gobench/gobench/workload/netperf"
)

func set(kv ...string) *props.Set {
	var s props.Set
	for i := 0; i+1 < len(kv); i += 2 {
		s.Add(props.Value{Key: kv[i], Value: kv[i+1], Source: "test"})
	}
	return &s
}

// serve runs a gobench server on a free loopback port: each accepted test
// runs through Prepare and Run with the session as the DB. It returns the
// port and a function that stops it and returns the server's summaries.
func serve(t *testing.T) (int, func() []netperf.Summary) {
	t.Helper()
	srv, err := iperf3.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var sums []netperf.Summary
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			sess, err := srv.Accept(ctx)
			if err != nil {
				return
			}
			sp := sess.Spec()
			plan, err := workload.Prepare(set("workload", "net", "threadcount", strconv.Itoa(sp.Streams),
				"maxexecutiontime", "30", "net.reverse", strconv.FormatBool(sp.Reverse), "net.len", strconv.Itoa(sp.BlockSize)),
				workload.WithDB("iperf3", sess))
			if err != nil {
				t.Errorf("server Prepare: %v", err)
				sess.Close()
				continue
			}
			stop := context.AfterFunc(ctx, sess.Terminate)
			plan.Run(context.Background())
			stop()
			mu.Lock()
			sums = append(sums, plan.Job().(*netperf.Job).Summary())
			mu.Unlock()
			sess.Close()
		}
	}()
	_, p, _ := strings.Cut(srv.Addr().String(), "127.0.0.1:")
	port, _ := strconv.Atoi(p)
	return port, func() []netperf.Summary {
		cancel()
		srv.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		return sums
	}
}

func client(t *testing.T, port int, kv ...string) (*workload.Plan, *engine.Result, error) {
	t.Helper()
	plan, err := workload.Prepare(set(append([]string{"workload", "net", "db", "iperf3", "iperf3.host", "127.0.0.1",
		"iperf3.port", strconv.Itoa(port)}, kv...)...))
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	res, err := plan.Run(context.Background())
	return plan, res, err
}

// A client and a server of gobench's on loopback, both through Prepare and
// Run: each stream's sender and receiver figures come from the two ends,
// agree, and last the test's time; in reverse the server sends.
func TestClientAndServerOnLoopback(t *testing.T) {
	port, stop := serve(t)
	for _, c := range []struct {
		streams int
		reverse bool
	}{{1, false}, {3, false}, {2, true}} {
		plan, res, err := client(t, port, "threadcount", strconv.Itoa(c.streams), "maxexecutiontime", "1",
			"net.reverse", strconv.FormatBool(c.reverse), "net.len", "64K")
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		sum := plan.Job().(*netperf.Job).Summary()
		if len(sum.Streams) != c.streams || len(sum.Failed) > 0 || sum.LocalSender == c.reverse {
			t.Fatalf("%+v: %d streams, failed %v, local sender %v", c, len(sum.Streams), sum.Failed, sum.LocalSender)
		}
		for i, ss := range sum.Streams {
			if !ss.Sender.Known || !ss.Receiver.Known || ss.Sender.Bytes <= 0 || ss.Receiver.Bytes > ss.Sender.Bytes ||
				float64(ss.Receiver.Bytes) < 0.9*float64(ss.Sender.Bytes) {
				t.Fatalf("%+v stream %d: sender %+v, receiver %+v", c, i, ss.Sender, ss.Receiver)
			}
			if ss.Sender.Seconds < 0.95 || ss.Sender.Seconds > 1.5 {
				t.Fatalf("%+v stream %d: %.3f s, want the test's 1 s", c, i, ss.Sender.Seconds)
			}
		}
		op := netperf.NameSend
		if c.reverse {
			op = netperf.NameReceive
		}
		if res.Series(op) == nil || res.Series(op).Count() < 10 {
			t.Fatalf("%+v: %s measured %v times", c, op, res.Series(op))
		}
	}
	sums := stop()
	if len(sums) != 3 || len(sums[1].Streams) != 3 || !sums[2].LocalSender || sums[0].LocalSender {
		t.Fatalf("server summaries: %d, %+v", len(sums), sums)
	}
	if sums[0].SumReceived.Bytes <= 0 || !sums[0].SumSent.Known {
		t.Fatalf("server's first test: %+v", sums[0])
	}
}

// A second client while a test runs is refused, as iperf3 refuses it, and
// says so; a client against no server fails to open, naming the address.
func TestBusyAndUnreachable(t *testing.T) {
	port, stop := serve(t)
	defer stop()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		client(t, port, "maxexecutiontime", "2")
	}()
	time.Sleep(500 * time.Millisecond)
	_, _, err := client(t, port, "maxexecutiontime", "1")
	if err == nil || !strings.Contains(err.Error(), "busy") {
		t.Fatalf("second client: %v; want busy", err)
	}
	wg.Wait()
	_, _, err = client(t, 1, "maxexecutiontime", "1")
	var oe *engine.OpenError
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Fatalf("no server: %v; want an open error naming 127.0.0.1:1", err)
	}
}

// The server stopping during a test (Ctrl-C on gobench net -s) ends it
// at once on both sides: the client fails with the server's reason and
// keeps what it sent.
func TestServerTerminates(t *testing.T) {
	port, stop := serve(t)
	go func() {
		time.Sleep(700 * time.Millisecond)
		stop()
	}()
	start := time.Now()
	plan, _, err := client(t, port, "maxexecutiontime", "10")
	if err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Fatalf("client: %v; want the server's stop", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the client ran %v after the server stopped", d)
	}
	if sum := plan.Job().(*netperf.Job).Summary(); len(sum.Streams) != 1 || sum.Streams[0].Sender.Bytes <= 0 {
		t.Fatalf("client summary: %+v", sum)
	}
}

func TestPrepareChecks(t *testing.T) {
	_, err := workload.Prepare(set("workload", "net", "db", "pebble", "pebble.dir", t.TempDir()))
	if err == nil || !strings.Contains(err.Error(), "network test streams") || !strings.Contains(err.Error(), "iperf3") {
		t.Fatalf("net on pebble: %v", err)
	}
	_, err = workload.Prepare(set("workload", "net", "db", "iperf3", "threadcount", "200", "net.len", "1Q", "maxexecutiontime", "0"))
	for _, want := range []string{"iperf3.host", "threadcount", "200", "net.len", "maxexecutiontime"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	d, _ := drivers.Lookup("iperf3")
	if !drivers.CapsOf(d).Has(drivers.CapNet) {
		t.Fatal("iperf3 driver does not declare CapNet")
	}
	c, _ := iperf3.NewClient("127.0.0.1:1", time.Second).Open(context.Background())
	if c != nil && drivers.ConnCaps(c) != drivers.CapNet {
		t.Fatal("iperf3 Conn does not implement NetStream")
	}
}
