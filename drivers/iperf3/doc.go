// Package iperf3 speaks iperf3's TCP test protocol, as a client (the
// iperf3 driver: db=iperf3, iperf3.host, iperf3.port) and as a server
// ([Listen]: each accepted test is a [Session], a drivers.DB), so that
// gobench net measures a network path the way iperf3 does and works with
// iperf3 on either end: `gobench net -c HOST` against `iperf3 -s`, and
// `iperf3 -c HOST` against `gobench net -s`.
//
// The protocol, as iperf3 (3.x) runs it: the client opens a control
// connection and sends a 37-byte cookie; the server answers PARAM_EXCHANGE;
// the client sends its parameters as length-prefixed JSON (parallel,
// time, len, reverse, ...); the server answers CREATE_STREAMS; the client
// opens one TCP connection per stream, each starting with the cookie; the
// server says TEST_START and TEST_RUNNING; the sender writes blocks until
// the client's time is up; the client says TEST_END; the server says
// EXCHANGE_RESULTS, both send their per-stream byte counts and times as
// JSON; the server says DISPLAY_RESULTS, the client IPERF_DONE. Streams are
// numbered 1, 3, 4, 5, ... as iperf3 numbers them. Only TCP tests one way
// (normal or reverse) are offered; UDP, SCTP, bidirectional and byte- or
// block-count limits are refused with iperf3's "not implemented" error.
//
// Each Conn of a DB is one stream and implements drivers.NetStream: the
// net workload's worker i moves blocks on stream i. The test's spec comes
// from the workload through Start; the first stream to start runs the
// handshake for all of them. The control connection is the DB's.
//
// It may import the standard library, golang.org/x/sys/unix,
// gobench/drivers and gobench/props.
package iperf3
