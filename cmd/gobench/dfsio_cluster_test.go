//go:build cluster

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/generator"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/testenv/cluster"
)

// These tests SIGKILL a DataNode of the testenv cluster (testenv/up.sh
// --cluster hdfs: NameNode 127.0.0.1:29000, 3 DataNodes, replication 3)
// while gobench writes, and start it again afterwards. Run them under the
// cluster lock:
//
//	flock /tmp/gobench-cluster.lock go test -tags cluster -count=1 -run DataNodeKilled ./cmd/gobench/

const clusterNN = "127.0.0.1:29000"

// openCluster checks the cluster's HDFS and restarts the victim after the
// test (with its data), waiting for 3 live DataNodes again.
func openCluster(t *testing.T, victim string) *cluster.Cluster {
	t.Helper()
	c, err := cluster.Open()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Check(ctx, "hdfs"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		if st, _ := c.State(ctx, victim); st != "up" {
			if err := c.Start(ctx, victim); err != nil {
				t.Errorf("start %s again: %v", victim, err)
			}
		}
		if err := c.WaitLiveDataNodes(ctx, 3, 90*time.Second); err != nil {
			t.Errorf("3 live DataNodes again: %v", err)
		}
		c.Close()
	})
	return c
}

// clusterConn is a Conn of the hdfs driver on the cluster.
func clusterConn(t *testing.T, fields int) drivers.Conn {
	t.Helper()
	drv, err := drivers.Lookup("hdfs")
	if err != nil {
		t.Fatal(err)
	}
	var s props.Set
	s.Add(props.Value{Key: "hdfs.namenode", Value: clusterNN, Source: "test"})
	schema := drivers.Schema{Table: "usertable"}
	for i := range fields {
		schema.Fields = append(schema.Fields, "field"+strconv.Itoa(i))
	}
	db, err := drv.Configure(props.NewDecoder(&s), schema)
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.Open(context.Background())
	if err != nil {
		t.Fatalf("cluster HDFS: %v", err)
	}
	t.Cleanup(func() { c.Close(context.Background()); db.Close() })
	return c
}

// killDuring starts run, SIGKILLs victim after delay, and returns run's
// result; it fails the test if run ended before the kill.
func killDuring(t *testing.T, c *cluster.Cluster, victim string, delay time.Duration, run func() (int, string, string)) (int, string, string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, o, e := run()
		done <- result{code, o, e}
	}()
	select {
	case r := <-done:
		t.Fatalf("the run ended (exit %d) before %s was killed: make it longer\n%s", r.code, victim, r.stderr)
	case <-time.After(delay):
	}
	if err := c.Kill(context.Background(), victim); err != nil {
		t.Fatalf("kill %s: %v", victim, err)
	}
	t0 := time.Now()
	select {
	case r := <-done:
		t.Logf("%s killed %v in; the run ended %v later", victim, delay, time.Since(t0).Round(time.Millisecond))
		return r.code, r.stdout, r.stderr
	case <-time.After(5 * time.Minute):
		t.Fatalf("the run did not end within 5 minutes of the kill of %s", victim)
	}
	return 0, "", ""
}

// TestClusterDFSIOWriteDataNodeKilled: hdfs-dn2 SIGKILLed 2 s into `dfsio
// -write -nrFiles 4 -size 128MB`: the run exits 0, and every file is
// complete (128 MB) with TestDFSIO's bytes in it, read back through the
// driver.
func TestClusterDFSIOWriteDataNodeKilled(t *testing.T) {
	const victim, size, buf = "hdfs-dn2", 128 << 20, 1000000
	c := openCluster(t, victim)
	t.Chdir(t.TempDir())
	base := fmt.Sprintf("/benchmarks/gobench-cluster-dfsio-%d", time.Now().UnixNano()%1e9)
	fs := clusterConn(t, 0).(drivers.FileSystem)
	defer fs.RemoveAll(context.Background(), base)
	code, stdout, stderr := killDuring(t, c, victim, 2*time.Second, func() (int, string, string) {
		return gobench(t, context.Background(), "dfsio", "-write", "-nrFiles", "4", "-size", "128MB",
			"-fs", "hdfs://"+clusterNN, "-D", "test.build.data="+base)
	})
	if code != 0 {
		t.Fatalf("dfsio -write: exit %d\n%s\n%s", code, stderr, stdout)
	}
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "Throughput") || strings.Contains(l, "gobench:") {
			t.Log(strings.TrimSpace(l[strings.Index(l, "TestDFSIO:")+10:]))
		}
	}
	for i := range 4 {
		name := fmt.Sprintf("%s/io_data/test_io_%d", base, i)
		r, err := fs.Open(context.Background(), name)
		if err != nil {
			t.Errorf("open %s: %v", name, err)
			continue
		}
		if r.Size() != size {
			t.Errorf("%s: %d bytes, want %d", name, r.Size(), size)
		}
		br := bufio.NewReaderSize(r, 1<<20)
		var n int64
		for ; ; n++ {
			b, err := br.ReadByte()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("%s: read at %d: %v", name, n, err)
				break
			}
			if want := byte('0' + (n%buf)%50); b != want {
				t.Errorf("%s: byte %d is %q, want %q", name, n, b, want)
				break
			}
		}
		r.Close()
		if n != size {
			t.Errorf("%s: read %d bytes back, want %d", name, n, size)
		}
	}
}

// TestClusterYCSBLoadDataNodeKilled: hdfs-dn2 SIGKILLed 1.5 s into a YCSB
// load of 3000 records on -db hdfs (8 threads): every insert succeeds and
// every key reads back with its 10 fields.
func TestClusterYCSBLoadDataNodeKilled(t *testing.T) {
	const victim, records = "hdfs-dn2", 3000
	c := openCluster(t, victim)
	t.Chdir(t.TempDir())
	table := fmt.Sprintf("gobench_cluster_ycsb_%d", time.Now().UnixNano()%1e9)
	conn := clusterConn(t, 10)
	defer conn.(drivers.FileSystem).RemoveAll(context.Background(), "/"+table)
	code, stdout, stderr := killDuring(t, c, victim, 1500*time.Millisecond, func() (int, string, string) {
		return gobench(t, context.Background(), "load", "-db", "hdfs", "-w", "workloada",
			"-p", "hdfs.namenode="+clusterNN, "-p", "table="+table, "-p", "recordcount="+strconv.Itoa(records),
			"-threads", "8")
	})
	if code != 0 {
		t.Fatalf("load: exit %d\n%s\n%s", code, stderr, stdout)
	}
	if got := value(t, stdout, "INSERT", "Return=OK"); got != strconv.Itoa(records) {
		t.Errorf("load: INSERT Return=OK %s, want %d\n%s", got, records, stdout)
	}
	t.Logf("load: %s ops/s, INSERT p99 %s us, max %s us", value(t, stdout, "OVERALL", "Throughput(ops/sec)"),
		value(t, stdout, "INSERT", "99thPercentileLatency(us)"), value(t, stdout, "INSERT", "MaxLatency(us)"))
	rec := drivers.NewRecord(10)
	var key []byte
	bad := 0
	for i := range int64(records) {
		key = generator.AppendKey(key[:0], i, true, 1)
		err := conn.Read(context.Background(), table, key, nil, rec)
		if err == nil {
			for f := range 10 {
				if v, ok := rec.Get(f); !ok || len(v) != 100 {
					err = fmt.Errorf("field%d: %d bytes (set %v), want 100", f, len(v), ok)
					break
				}
			}
		}
		if err != nil {
			if bad++; bad <= 5 {
				t.Errorf("read %s back: %v", key, err)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d records did not read back", bad, records)
	}
}
