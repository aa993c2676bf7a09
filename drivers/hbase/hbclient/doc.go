// Package hbclient is gobench's own lean native client for Apache HBase 2.x
// (2.4–2.6): Get, Put/Delete (Mutate), Scan, batched Multi and the few
// MasterService calls a benchmark needs (create a pre-split table, disable,
// delete, exists). It speaks HBase's RPC directly over TCP, following
// /work/shared/spec/hbase-wire.md, and imports only the standard library,
// google.golang.org/protobuf, github.com/go-zookeeper/zk,
// github.com/jcmturner/gokrb5/v8 (Kerberos) and drivers/hbase/pb (its
// generated messages).
//
// Design:
//
//   - Connections: one TCP connection per (server, service), shared by every
//     goroutine. It opens with the "HBas" preamble (auth SIMPLE) and a
//     ConnectionHeader; with Options.Kerberos (kerberos.go, sasl.go) the
//     preamble names Kerberos and a SASL GSSAPI exchange (mutual
//     authentication, then the security layer of hbase.rpc.protection:
//     none, or every packet signed or encrypted, saslwrap.go) comes before
//     the header. Credentials: a keytab login or kinit's ticket cache; a
//     failed login or a server's SASL refusal is an [AuthError], never
//     retried. ZooKeeper needs no SASL: the znodes a client reads
//     (meta-region-server, master) are world-readable on secured clusters.
//     Callers queue whole frames and one of them at a time writes the
//     queue, after yielding once (runtime.Gosched) so that the callers
//     woken by the same read queue theirs first: concurrent calls share
//     write system calls even on one CPU. Plain TCP sockets are read and
//     written with raw read/write calls through syscall.RawConn (rawio.go:
//     the socket is non-blocking, waits go through the poller as with
//     net.Conn), which keeps the runtime's sysmon thread from waking at
//     every idle-to-busy turn of the process; one reader
//     goroutine matches responses to waiting calls by call id, so many calls
//     are in flight per connection and answers may come in any order; once
//     it has handed out every response read it yields, so the callers it
//     woke send their next requests before it reads again. A
//     call waits for its response, its context, or the RPC timeout (the
//     server is told the remaining time; timeouts of 2 s or more are
//     enforced by a watchdog per connection, shorter ones by a timer per
//     call; the context that a connection's calls keep coming under, a
//     run's, is watched by the connection, which fails its pending calls
//     when it ends, so they wait on their response alone, ctxwatch.go).
//     Every RegionServer request header carries a priority, as
//     Java's client's do (0 for user tables, 200 for hbase:meta), so the
//     server does not derive one per call. A dead connection fails every
//     pending call with an error wrapping [ErrConnection] and is re-dialled
//     on next use. Dials are per server and run on their own:
//     one dial in flight per server, shared by the callers that need it,
//     each of which waits only until its own context or deadline ends, so a
//     hanging server delays no other. A server whose dial failed stays on a
//     recently-failed list for Options.FailedServerExpiry (2 s, as Java's
//     FailedServers): calls to it fail at once meanwhile.
//   - Cells: as Java's client, RegionServer connections name the
//     KeyValueCodec (and send a 2.6 VersionInfo), so cells travel in cell
//     blocks: a Multi's Put and column-Delete cells follow the request, and
//     Get, Scan and Multi results come as cell counts plus a cell block
//     (inline protobuf cells are decoded too). A single Mutate carries its
//     cells in the protobuf, as Java's client sends it: against a cell
//     block it cost the RegionServer 3 % less CPU per operation and the
//     client 9 % less (workload A, 16 threads). A server that refuses the codec
//     (UnsupportedCellCodecException) is re-dialled without it, and so is
//     every later connection; Options.PBCells asks for protobuf cells
//     throughout. Master connections carry no cells and name no codec.
//   - Locating: hbase:meta's server comes from ZooKeeper
//     (<parent>/meta-region-server); a row's region from a reverse scan of
//     hbase:meta that also prefetches the regions before it. Concurrent
//     misses on one row share one lookup; lookups of different rows run
//     concurrently, at most 8 at once (as Java's
//     hbase.client.meta.max.concurrent.locate.per.table). Regions are
//     cached per table, sorted by start key; errors drop entries as HBase's
//     Java client does (NotServingRegion, connection errors, server
//     stopping) or keep them (RegionOpening, busy, call queue full); a
//     server that answers it is not running yet (started again after a
//     crash) or stopping loses its cached regions but keeps its
//     connection, so it is not re-dialled on every retry; a
//     RegionMovedException re-points the entry at the server it names, so
//     the retry goes there without a meta lookup; at most 3 such
//     redirections in a row, and none back to the server it came from
//     (servers can name each other for a region that split meanwhile):
//     then the entry is dropped and the retry reads meta.
//   - Retries: as HBase 2.6's Java client: retry n pauses hbase.client.pause
//     (Options.RetryPause, 100 ms; PauseServerOverloaded for an overloaded
//     server) times RETRY_BACKOFF[n-1] (1, 2, 3, 5, 10, 20, 40, 100, 100,
//     100, 100, 200, 200, ...) plus 1% jitter, at most 15 retries
//     (Options.Retries), within the context's deadline or
//     Options.OperationTimeout counted from the operation's start: every
//     RPC, dial wait and meta lookup gets at most the time left, and a pause
//     that would pass the deadline is cut short for a last attempt.
//     Permanent server errors return at once as a [*RemoteError].
//   - Allocation: the per-operation paths (Get, Mutate, Scan requests,
//     their cell blocks and Result decoding) are encoded and decoded by hand
//     with protowire into pooled buffers; a reused [Result] owns the
//     returned bytes (a Get's Result keeps the response frame itself and
//     its cells point into it, until Reset). Get, Mutate and Scan allocate nothing in steady state;
//     a Multi allocates a few times per call, not per mutation (responses without exceptions are
//     checked without decoding). Meta lookups, failed Multi responses and
//     admin calls use the generated messages.
//   - Tests: drivers/hbase/hbtest fakes the server side in memory (one
//     fake per address with hbtest.Net: dead, blackholed and moving
//     servers); Options.Dial and Options.MetaServer point a client at it.
//     The integration tests (tag integration) run against the real HBase.
//
// Example:
//
//	c := hbclient.New(hbclient.Options{ZKQuorum: []string{"127.0.0.1:2181"}})
//	defer c.Close()
//	fam := []byte("family")
//	m := hbclient.Mutation{Row: []byte("user1"), Type: hbclient.Put, Family: fam,
//		Qualifiers: [][]byte{[]byte("field0")}, Values: [][]byte{[]byte("v")}}
//	if err := c.Mutate(ctx, "usertable", &m); err != nil { ... }
//	var res hbclient.Result
//	if err := c.Get(ctx, "usertable", []byte("user1"), fam, nil, &res); err != nil { ... }
//	v, ok := res.Value(fam, []byte("field0"))
package hbclient
