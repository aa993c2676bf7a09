//go:build linux

package hbclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers/hbase/hbtest"
)

// tcpPair returns both ends of a loopback TCP connection.
func tcpPair(t *testing.T) (cli, srv net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if cli, err = net.Dial("tcp", ln.Addr().String()); err != nil {
		t.Fatal(err)
	}
	if srv, err = ln.Accept(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close(); srv.Close() })
	return cli, srv
}

// TestRawIOStream: rawIO moves 8 MiB each way (far more than a socket
// buffer holds, so writes stop on EAGAIN and resume, partly written),
// byte for byte, and Read gives io.EOF once the peer closes.
func TestRawIOStream(t *testing.T) {
	cli, srv := tcpPair(t)
	r := newRawIO(cli)
	if r == nil {
		t.Fatal("newRawIO(*net.TCPConn) = nil")
	}
	data := make([]byte, 8<<20)
	for i := range data {
		data[i] = byte(i * 7 / 3)
	}
	echoed := make(chan error, 1)
	go func() { // the peer reads slowly at first, then sends everything back and closes
		time.Sleep(50 * time.Millisecond)
		got := make([]byte, len(data))
		if _, err := io.ReadFull(srv, got); err != nil {
			echoed <- err
			return
		}
		if !bytes.Equal(got, data) {
			echoed <- errors.New("the peer received other bytes than written")
			return
		}
		_, err := srv.Write(got)
		srv.Close()
		echoed <- err
	}()
	if err := r.write(data); err != nil {
		t.Fatalf("write: %v", err)
	}
	back, err := io.ReadAll(io.Reader(r)) // ReadAll stops at io.EOF
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if err := <-echoed; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, data) {
		t.Fatalf("read %d bytes back, not the %d written", len(back), len(data))
	}
	if n, err := r.Read(make([]byte, 10)); n != 0 || err != io.EOF {
		t.Errorf("Read after EOF = %d, %v; want 0, io.EOF", n, err)
	}
}

// TestRawIODeadlineAndClose: a write into a full socket ends at the
// connection's write deadline; a read blocked on an idle socket ends when
// the connection is closed (as with net.Conn's Read and Write).
func TestRawIODeadlineAndClose(t *testing.T) {
	cli, _ := tcpPair(t) // the peer never reads
	r := newRawIO(cli)
	_ = cli.SetWriteDeadline(time.Now().Add(200 * time.Millisecond))
	start := time.Now()
	err := r.write(make([]byte, 64<<20))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("write into a full socket: %v, want the deadline exceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("write returned after %v", d)
	}
	done := make(chan error, 1)
	go func() { _, err := r.Read(make([]byte, 100)); done <- err }()
	time.Sleep(50 * time.Millisecond)
	cli.Close()
	select {
	case err := <-done:
		if !errors.Is(err, net.ErrClosed) {
			t.Errorf("read of a closed connection: %v, want net.ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("read did not end when the connection was closed")
	}
	if err := r.write([]byte("x")); !errors.Is(err, net.ErrClosed) {
		t.Errorf("write to a closed connection: %v, want net.ErrClosed", err)
	}
}

// tcpFakeClient is fakeClient over loopback TCP: its connections use rawIO.
func tcpFakeClient(t *testing.T) *Client {
	dial, _ := hbtest.TCPDialer(t, echoHandler)
	c := New(Options{Dial: dial, OperationTimeout: 5 * time.Second, RetryPause: time.Millisecond})
	c.cache.put(&region{table: "t", name: []byte("t,,1.a."), addr: "fake:1"})
	t.Cleanup(func() { c.Close() })
	return c
}

// TestClientOverTCP: concurrent Gets and Mutates over a kernel socket (the
// raw read and write path), each with its own answer; in steady state they
// allocate nothing.
func TestClientOverTCP(t *testing.T) {
	c := tcpFakeClient(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for g := 0; g < 32; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var res Result
			m := Mutation{Row: []byte(fmt.Sprint("r", g)), Type: Put, Family: []byte("f"), Qualifiers: bs("a"), Values: bs("1")}
			for i := 0; i < 200; i++ {
				if err := c.Get(ctx, "t", []byte("r1"), []byte("f"), nil, &res); err != nil || len(res.Cells) != 2 || string(res.Cells[1].Value) != strings.Repeat("w", 100) {
					errs <- fmt.Errorf("Get: %v, %d cells", err, len(res.Cells))
					return
				}
				if err := c.Mutate(ctx, "t", &m); err != nil {
					errs <- fmt.Errorf("Mutate: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	rc, err := c.regionConn(ctx, "fake:1", time.Time{})
	if err != nil || rc.raw == nil {
		t.Fatalf("the connection over TCP does not use rawIO (%v)", err)
	}
	if raceEnabled {
		return // the race detector allocates
	}
	var res Result
	row, fam := []byte("r1"), []byte("f")
	if a := testing.AllocsPerRun(500, func() {
		if err := c.Get(ctx, "t", row, fam, nil, &res); err != nil {
			t.Fatal(err)
		}
	}); a > 0 {
		t.Errorf("Get over TCP allocates %.2f times per call, want 0", a)
	}
}

// TestRawIOReset: a peer that resets the connection (a killed server) ends
// a blocked read with the reset, not io.EOF, and later writes fail.
func TestRawIOReset(t *testing.T) {
	cli, srv := tcpPair(t)
	r := newRawIO(cli)
	done := make(chan error, 1)
	go func() { _, err := r.Read(make([]byte, 100)); done <- err }()
	time.Sleep(50 * time.Millisecond)
	_ = srv.(*net.TCPConn).SetLinger(0) // close with RST
	srv.Close()
	select {
	case err := <-done:
		if !errors.Is(err, syscall.ECONNRESET) {
			t.Errorf("read after the peer's reset: %v, want ECONNRESET", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("read did not end at the peer's reset")
	}
	var err error
	for i := 0; i < 10 && err == nil; i++ { // the first write after a reset may still be accepted
		err = r.write([]byte("x"))
	}
	if err == nil {
		t.Error("writes to a reset connection keep succeeding")
	}
}
