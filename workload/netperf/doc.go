// Package netperf is iperf3's TCP throughput test as a gobench workload
// kind ([Kind], workload=net): one worker per stream (threadcount, iperf3's
// -P) sends blocks of net.len bytes on its stream, or receives them, for
// the test's time (maxexecutiontime, iperf3's -t; 10 s by default), each
// block one operation (SEND or RECEIVE). The streams come from the driver:
// a DB whose Conns implement drivers.NetStream (drivers/iperf3, which
// speaks iperf3's protocol as a client, and serves it as a server). It owns
// iperf3's formats: the per-interval and summary lines with their units
// ([Unit]: "4.25 GBytes", "36.5 Gbits/sec"), the sender and receiver lines,
// and the -J JSON document ([JSONDoc]).
//
// The kind keeps, per stream, the bytes moved (readable while the run goes
// on, for interval lines) and, after the run, what both ends counted: the
// sender's and the receiver's figures come from the two ends, exchanged
// over iperf3's control connection at the end, as iperf3 reports them.
//
// Why a driver and not plain sockets in the kind: the control protocol
// (iperf3's) is the backend's, like Kafka's or HBase's, and keeping it in
// drivers/iperf3 lets the same kind run as a client and as a server (a
// Session accepted by iperf3.Server is a drivers.DB), both through
// workload.Prepare and Plan.Run.
//
// It may import engine, drivers and props, and the standard library.
package netperf
