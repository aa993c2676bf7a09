// Package hbtest is an in-memory fake of HBase's RPC server side for tests
// of gobench's HBase client and driver: [Dialer] returns a dial function
// (hbclient.Options.Dial) whose connections reach a [Server] that parses the
// preamble, connection header and request frames and hands each request to
// a [Handler], which answers with [Server.Reply], [Server.ReplyMsg] or
// [Server.ReplyException]. The request loop allocates nothing in steady
// state, so allocation tests of the client can run against it.
//
// It imports the standard library (including testing), protobuf and
// drivers/hbase/pb; it is meant for _test.go files only.
//
//	dial, _ := hbtest.Dialer(t, func(s *hbtest.Server, id uint32, method, param []byte) {
//		s.Reply(id, getResponseBytes)
//	})
//	c := hbclient.New(hbclient.Options{Dial: dial, MetaServer: "fake:16020"})
package hbtest
