// Package cluster drives testenv's multi-node cluster on loopback from Go tests and
// benchmarks: the addresses of its nodes, faults by node name (Kill, Freeze, Thaw,
// Stop, Start, Restart) and HBase and Kafka admin actions (move, split, balance,
// unassign/assign a region, create a pre-split table; which broker leads a partition).
//
// The cluster itself is started and stopped by the scripts, never by this package:
//
//	testenv/up.sh --cluster hdfs hbase kafka
//	go test -count=1 -tags cluster ./testenv/cluster/
//	testenv/down.sh --cluster
//
// It is: HDFS NameNode hdfs-nn and DataNodes hdfs-dn1..3 (replication 3); HBase
// ZooKeeper hbase-zk, master hbase-master, RegionServers hbase-rs1..3 (root dir and
// WALs on that HDFS); Kafka KRaft nodes kafka1..3 (replication 3, min.insync.replicas
// 2). The fixed addresses are the constants and functions in nodes.go; they do not
// collide with the single-node servers of testenv/up.sh, so both can run at once.
//
// Every action goes through testenv/fault.sh, which tests and benchmark scripts
// share: node faults run it once per call; the HBase and Kafka actions talk to one
// long-lived Java helper each (testenv/java/ClusterAdmin.java, ClusterKafka.java,
// "fault.sh hbase shell"), started on first use and stopped by [Cluster.Close], so a
// region move costs milliseconds rather than a JVM start. The testenv directory is
// found from the working directory upwards (the module root's testenv/), or given by
// GOBENCH_TESTENV; the run directory (node data and logs) is GOBENCH_RUN, as for the
// scripts.
//
// Tests that need the cluster live in files with the build tag "cluster" (not
// "integration": that pass has only the single-node servers), so that the test command
// runs them in a pass of their own with the cluster up (testsum -only-tag cluster).
// They call [Cluster.Check] first, which fails (never skips) naming the up command.
//
// Imports: the standard library only (the tests add the client libraries).
package cluster
