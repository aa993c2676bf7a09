// Package hbtest is an in-memory fake of HBase's RPC server side for tests
// of gobench's HBase client and driver: a [Server] parses the preamble,
// connection header (service, cell-block codec) and request frames (with
// their cell blocks) and hands each request to a [Handler], which answers
// with [Server.Reply], [Server.ReplyCells], [Server.ReplyMsg] or
// [Server.ReplyException]. The request loop allocates nothing in steady
// state, so allocation tests of the client can run against it.
//
// Two ways to reach servers (both are hbclient.Options.Dial functions):
//
//   - [Dialer]: every dial, whatever the address, reaches a new Server
//     running one handler;
//   - [Net]: one behaviour per address, so dials reach different servers:
//     [Net.Serve] (a handler; nil never answers), [Net.Refuse] (connection
//     refused), [Net.Blackhole] (the dial hangs until its context ends),
//     [Net.RefuseCodec] (a fatal UnsupportedCellCodecException), and
//     [Net.Disconnect] (the server closes every open connection).
//
// [KeyValues] and [ParseKeyValues] encode and decode KeyValueCodec cell
// blocks. [BlackholeListener] (Linux) is a real 127.0.0.1 port whose connects
// hang, for tests against the real HBase.
//
// It imports the standard library (including testing and syscall),
// protobuf and drivers/hbase/pb; it is meant for _test.go files only.
//
//	n := hbtest.NewNet(t)
//	n.Serve("rs1:16020", func(s *hbtest.Server, id uint32, method, param []byte) {
//		s.Reply(id, getResponseBytes)
//	})
//	n.Blackhole("rs2:16020")
//	c := hbclient.New(hbclient.Options{Dial: n.Dial, MetaServer: "rs1:16020"})
package hbtest
