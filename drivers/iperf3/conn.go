package iperf3

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/gobench/gobench/drivers"
)

// Conn is one stream of a test: it implements drivers.NetStream. The YCSB
// operations are not offered.
type Conn struct {
	drivers.NoRecords // no record operations (NOT_IMPLEMENTED)
	t                 *test
	idx               int
	sock              net.Conn
	socket            int
	sender            bool
	bytes             int64
	stop              func() bool
	done              bool
}

var (
	_ drivers.Conn      = (*Conn)(nil)
	_ drivers.NetStream = (*Conn)(nil)
)

func (t *test) open() (*Conn, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.opened >= maxStreams {
		return nil, errNoStream
	}
	c := &Conn{t: t, idx: t.opened, socket: -1}
	t.opened++
	return c, nil
}

// Start implements drivers.NetStream.
func (c *Conn) Start(ctx context.Context, spec drivers.NetSpec) (bool, error) {
	if err := c.t.start(ctx, spec); err != nil {
		return false, err
	}
	c.t.mu.Lock()
	if c.idx >= len(c.t.socks) {
		c.t.mu.Unlock()
		return false, fmt.Errorf("%w (%d)", errNoStream, len(c.t.socks))
	}
	c.sock = c.t.socks[c.idx]
	c.t.mu.Unlock()
	c.sender = c.t.sender()
	c.socket = fdOf(c.sock)
	sock := c.sock
	c.stop = context.AfterFunc(ctx, func() { sock.SetDeadline(time.Now().Add(-time.Second)) })
	return c.sender, nil
}

// Send implements drivers.NetStream.
func (c *Conn) Send(ctx context.Context, b []byte) error {
	if c.t.ended.Load() {
		return io.EOF
	}
	n, err := c.sock.Write(b)
	c.bytes += int64(n)
	if err != nil {
		return c.ioErr(ctx, err)
	}
	return nil
}

// Receive implements drivers.NetStream.
func (c *Conn) Receive(ctx context.Context, b []byte) (int, error) {
	if c.t.ended.Load() {
		return 0, io.EOF
	}
	if c.t.draining.Load() {
		c.sock.SetReadDeadline(time.Now().Add(drainIdle))
	}
	n, err := c.sock.Read(b)
	c.bytes += int64(n)
	if err != nil {
		return n, c.ioErr(ctx, err)
	}
	return n, nil
}

func (c *Conn) ioErr(ctx context.Context, err error) error {
	if c.t.draining.Load() && (errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, io.EOF)) {
		return io.EOF // all that was sent has been read
	}
	if !c.t.ended.Load() && ctx.Err() == nil {
		// A broken stream is often the peer ending the test (a server
		// that stops closes its sockets right after saying so on the
		// control connection): give the control reader a moment to tell.
		select {
		case <-c.t.endedCh:
		case <-time.After(time.Second):
		}
	}
	switch {
	case c.t.ended.Load():
		return io.EOF
	case ctx.Err() != nil:
		return fmt.Errorf("stream %d: %w", streamID(c.idx), ctx.Err())
	case errors.Is(err, io.EOF):
		return io.EOF // the peer closed the stream: its end of the test
	case errors.Is(err, os.ErrDeadlineExceeded):
		return io.EOF
	}
	return fmt.Errorf("stream %d: %w", streamID(c.idx), err)
}

// Finish implements drivers.NetStream.
func (c *Conn) Finish(ctx context.Context) (drivers.NetResult, error) {
	if c.done || c.sock == nil {
		return drivers.NetResult{}, errors.New("iperf3: Finish without Start, or twice")
	}
	c.done = true
	if c.stop != nil {
		c.stop()
	}
	secs := time.Since(c.t.t0).Seconds()
	rtx := int64(-1)
	if c.sender {
		if r, _, ok := tcpInfo(c.sock); ok {
			rtx = r
		}
	}
	id := streamID(c.idx)
	local := streamResult{ID: id, Bytes: c.bytes, Retransmits: rtx, StartTime: 0, EndTime: secs}
	c.t.record(local)
	res := drivers.NetResult{ID: id, Sender: c.sender, Local: drivers.NetSide{Bytes: c.bytes, Seconds: secs, Retransmits: rtx}}
	err := c.t.finish(ctx)
	if b, ok := c.t.localBytes(id); ok {
		res.Local.Bytes = b
	}
	c.t.mu.Lock()
	p, ok := c.t.peer[id]
	c.t.mu.Unlock()
	if ok {
		res.PeerReported = true
		res.Peer = drivers.NetSide{Bytes: p.Bytes, Seconds: p.EndTime - p.StartTime, Retransmits: p.Retransmits}
	}
	if err == nil {
		err = c.t.endErr()
	}
	return res, err
}

// Info implements drivers.NetStream.
func (c *Conn) Info() drivers.NetInfo {
	i := drivers.NetInfo{ID: streamID(c.idx), Socket: c.socket}
	if c.sock != nil {
		i.Local, i.Remote = c.sock.LocalAddr(), c.sock.RemoteAddr()
	}
	return i
}

// TCPInfo implements drivers.NetStream.
func (c *Conn) TCPInfo() (retransmits, cwnd int64, ok bool) {
	if c.sock == nil {
		return 0, 0, false
	}
	return tcpInfo(c.sock)
}

// Close implements drivers.Conn; the test's sockets are closed by the
// ending (or the DB's Close).
func (c *Conn) Close(context.Context) error {
	if c.stop != nil {
		c.stop()
	}
	return nil
}

func readFull(c net.Conn, b []byte) (int, error) { return io.ReadFull(c, b) }

func be32(b []byte) uint32 { return binary.BigEndian.Uint32(b) }
