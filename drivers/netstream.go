package drivers

import (
	"context"
	"net"
	"time"
)

// NetStream is implemented by a Conn that is one TCP stream of a network
// throughput test (iperf3's): the net workload moves blocks over it for the
// test's duration. A DB whose Conns implement it declares [CapNet]; its
// Conns are the streams of one test (a client's, or one accepted by a
// server), so a DB runs one test.
//
// The order of calls on a stream is Start, then Send or Receive (whichever
// Start said) until the run stops, then Finish. A stream honours the ctx it
// was started with: once it is done, a blocked Send or Receive returns.
type NetStream interface {
	// Start joins the test that spec describes (every stream of a DB is
	// given the same spec) and returns once the test runs: every stream has
	// connected and the two ends have agreed to start. sender says whether
	// this end sends (a client sends unless spec.Reverse; a server sends
	// when it does).
	Start(ctx context.Context, spec NetSpec) (sender bool, err error)
	// Send writes all of b to the stream. It returns io.EOF once the test
	// has ended (the peer said so), not a failure.
	Send(ctx context.Context, b []byte) error
	// Receive reads up to len(b) bytes from the stream. It returns io.EOF
	// once the test has ended (the peer said so), not a failure.
	Receive(ctx context.Context, b []byte) (int, error)
	// Finish ends this stream's part of the test and, once every started
	// stream of the DB has finished, exchanges the results with the peer:
	// it returns what this end and the peer counted for this stream.
	Finish(ctx context.Context) (NetResult, error)
	// Info describes the stream; it is valid after Start.
	Info() NetInfo
	// TCPInfo returns the kernel's retransmission count and congestion
	// window (bytes) for the stream; ok is false where they are not known.
	TCPInfo() (retransmits, cwnd int64, ok bool)
}

// NetSpec is what a network test does: Streams parallel TCP streams for
// Duration, in BlockSize writes, from the client to the server (or back,
// with Reverse).
type NetSpec struct {
	Streams   int
	Duration  time.Duration
	BlockSize int
	Reverse   bool // the server sends (iperf3 -R)
}

// NetInfo describes one stream of a test.
type NetInfo struct {
	ID            int // the stream's number in the test (iperf3's: 1, 3, 4, ...)
	Socket        int // its file descriptor, as iperf3's "[  5]" shows it (-1 unknown)
	Local, Remote net.Addr
}

// NetResult is one stream's outcome as both ends counted it.
type NetResult struct {
	ID           int     // the stream's number in the test (iperf3's numbering)
	Sender       bool    // this end sent
	Local, Peer  NetSide // what this end and the peer counted
	PeerReported bool    // false when the peer's results could not be had
}

// NetSide is one end's count of a stream.
type NetSide struct {
	Bytes       int64
	Seconds     float64 // from the test's start to the stream's end at that end
	Retransmits int64   // -1 = not known (a receiver, or no TCP_INFO)
}
