// Package secure tells tests and benchmarks where testenv's secured servers are and
// what they need to log in: the Kerberos realm and KDC, the krb5.conf, keytabs and
// ticket caches, the client conf directory (core-site.xml, hdfs-site.xml,
// hbase-site.xml), the Kafka client properties files, the CA and key stores, and the
// test users' passwords as read from the run directory. It also runs the admin steps
// (HBase grants and tables, Kafka ACLs and topics, HDFS shell commands, kinit) through
// testenv/secure.sh.
//
// The servers are started and stopped by the scripts, never by this package:
//
//	testenv/up.sh --secure kdc hdfs hbase kafka
//	go test -count=1 -tags secure ./testenv/smoke/
//	testenv/down.sh --secure
//
// They are: an MIT Kerberos KDC (realm GOBENCH.TEST, 127.0.0.1:28088, TCP); Kerberized
// HDFS (NameNode localhost:28000, principal nn/localhost, DataNode dn/localhost with
// SASL data transfer protection); HBase with Kerberos RPC and the AccessController
// (ZooKeeper with SASL localhost:28181, master 28600, RegionServer 28620, principal
// hbase/localhost; namespace ycsb_hbase_ns granted RWXCA to jason); Kafka with
// SASL_SSL (localhost:28092: SCRAM-SHA-512/256, PLAIN, GSSAPI, principal
// kafka/localhost), SASL_PLAINTEXT (28091), SSL with client certificates (28093) and
// ACLs (jason: everything on the prefix "gobench"; nogrant: nothing). The fixed
// addresses are the constants in this package; none collides with the single-node
// servers or the cluster.
//
// Tests that need these servers live in files with the build tag "secure" (not
// "integration": that pass has only the plain servers), so the test command runs them
// in a pass of their own with the secured servers up (testsum -only-tag secure). They
// call [Env.Check] first, which fails (never skips) naming the up command.
//
// Nothing here prints a secret; [Env.Secrets] lists them so that a test can check that
// no output holds one.
//
// Imports: the standard library only.
package secure
