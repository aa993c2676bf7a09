// Package smoke holds integration smoke tests that talk to the real Kafka, HDFS and
// HBase servers started by testenv/up.sh, using the same Go client libraries as the
// gobench drivers (twmb/franz-go, colinmarc/hdfs/v2, go-zookeeper/zk).
//
// The server tests are behind the build tag "integration": plain `go test ./...` does not
// compile them. With the tag they expect the servers at their fixed loopback addresses
// (Kafka 127.0.0.1:9092, HDFS NameNode 127.0.0.1:9000, HBase ZooKeeper 127.0.0.1:2181)
// and FAIL, naming the address and the up.sh command, when a server is not reachable:
//
//	testenv/up.sh kafka hdfs hbase
//	go test -tags integration ./testenv/smoke/
//	testenv/down.sh
//
// The tests in *_secure_test.go have the build tag "secure" instead: they need the
// secured servers (KDC, Kerberized HDFS and HBase, Kafka with SASL/TLS; testenv/up.sh
// --secure) and use only the Java tools and gokrb5 (testenv/secure finds everything):
//
//	testenv/up.sh --secure
//	go test -count=1 -tags secure ./testenv/smoke/
//	testenv/down.sh --secure
//
// The only non-test code is DecodeMetaRegionServer, a hand-written decoder of the
// /hbase/meta-region-server znode (ZKMetadata prefix, "PBUF" magic, MetaRegionServer
// protobuf), unit-tested without servers:
//
//	data, _, err := zkConn.Get("/hbase/meta-region-server")
//	mr, err := smoke.DecodeMetaRegionServer(data) // mr.Host, mr.Port: where hbase:meta is
//
// Imports: the standard library and google.golang.org/protobuf/encoding/protowire only
// (tests add the client libraries, gokrb5 and testenv/secure).
package smoke
