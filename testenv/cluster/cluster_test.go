//go:build cluster

package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/colinmarc/hdfs/v2"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// These tests need the cluster (testenv/up.sh --cluster hdfs hbase kafka), hence their
// own build tag: the integration pass (single-node servers) never builds them, and
// `make test-cluster` runs them with testsum -only-tag cluster. Each proves that a
// system works on several nodes and that the faults do what they say.

// shared is the tests' Cluster: its helper JVMs start once for all tests.
var shared *Cluster

func TestMain(m *testing.M) {
	c, err := Open()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	shared = c
	code := m.Run()
	c.Close()
	os.Exit(code)
}

// open returns the shared Cluster after checking that its systems are up, or fails the
// test.
func open(t *testing.T, ctx context.Context, system ...string) *Cluster {
	t.Helper()
	if err := shared.Check(ctx, system...); err != nil {
		t.Fatal(err)
	}
	return shared
}

// restartLater makes sure the node runs again when the test ends, even after a failure.
func restartLater(t *testing.T, c *Cluster, name string) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer cancel()
		c.Thaw(ctx, name)
		if err := c.Start(ctx, name); err != nil {
			t.Errorf("start %s again: %v", name, err)
		}
	})
}

// A file written with replication 3 has every block on the 3 DataNodes; with one
// DataNode killed the NameNode counts 2 live and the file still reads back; the
// DataNode started again (same data directory) makes 3.
func TestClusterHDFSDataNodeKilled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c := open(t, ctx, "hdfs")
	if n, err := c.LiveDataNodes(ctx); err != nil || n != 3 {
		t.Fatalf("live DataNodes = %d, %v; want 3", n, err)
	}
	dial := (&net.Dialer{Timeout: 5 * time.Second}).DialContext
	fs, err := hdfs.NewClient(hdfs.ClientOptions{Addresses: []string{NameNodeAddr}, User: "gobench",
		NamenodeDialFunc: dial, DatanodeDialFunc: dial})
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	dir := fmt.Sprintf("/gobench-cluster-smoke-%d", time.Now().UnixNano())
	name := path.Join(dir, "f")
	if err := fs.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	defer fs.RemoveAll(dir)
	data := make([]byte, 2<<20+777) // three blocks of 1 MiB
	for i := range data {
		data[i] = byte(i*31 + i>>9)
	}
	w, err := fs.CreateFile(name, 3, 1<<20, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	err = w.Close()
	for wait := 10 * time.Millisecond; hdfs.IsErrReplicating(err) && wait < 10*time.Second; wait *= 2 {
		time.Sleep(wait)
		err = w.Close()
	}
	if err != nil {
		t.Fatalf("close %s: %v", name, err)
	}
	blocks, err := blockLocations(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 3 {
		t.Fatalf("%s has %d blocks, want 3", name, len(blocks))
	}
	for i, b := range blocks {
		if len(b) != 3 {
			t.Errorf("block %d is on %v, want 3 DataNodes", i, b)
		}
	}

	restartLater(t, c, "hdfs-dn2")
	t0 := time.Now()
	if err := c.Kill(ctx, "hdfs-dn2"); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitLiveDataNodes(ctx, 2, 90*time.Second); err != nil {
		t.Fatal(err)
	}
	t.Logf("hdfs-dn2 killed: NameNode counts 2 live DataNodes after %v", time.Since(t0).Round(100*time.Millisecond))
	if got := readAll(t, fs, name); !bytes.Equal(got, data) {
		t.Fatalf("with hdfs-dn2 dead, %s reads back %d bytes that differ from the %d written", name, len(got), len(data))
	}
	t0 = time.Now()
	if err := c.Start(ctx, "hdfs-dn2"); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitLiveDataNodes(ctx, 3, 60*time.Second); err != nil {
		t.Fatal(err)
	}
	t.Logf("hdfs-dn2 started again: 3 live after %v", time.Since(t0).Round(100*time.Millisecond))
}

func readAll(t *testing.T, fs *hdfs.Client, name string) []byte {
	t.Helper()
	r, err := fs.Open(name)
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return b
}

// blockLocations asks WebHDFS for the DataNodes of each block of name.
func blockLocations(ctx context.Context, name string) ([][]string, error) {
	url := "http://" + NameNodeHTTP + "/webhdfs/v1" + name + "?op=GET_BLOCK_LOCATIONS&user.name=gobench"
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var v struct {
		LocatedBlocks struct {
			LocatedBlocks []struct {
				Locations []struct{ XferAddr string } `json:"locations"`
			} `json:"locatedBlocks"`
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return nil, fmt.Errorf("GET_BLOCK_LOCATIONS %s: %s: %v", name, resp.Status, err)
	}
	var out [][]string
	for _, b := range v.LocatedBlocks.LocatedBlocks {
		var l []string
		for _, x := range b.Locations {
			l = append(l, x.XferAddr)
		}
		out = append(out, l)
	}
	return out, nil
}

// A table pre-split into 24 regions spreads over the 3 RegionServers; regions move,
// close, open and split on request, and every row stays readable.
func TestClusterHBaseRegions(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	c := open(t, ctx, "hdfs", "hbase")
	h := c.HBase()
	const table, family, rows = "gobench_cluster_regions", "f", 3000
	per, err := h.CreateTable(ctx, table, family, 24, true)
	if err != nil {
		t.Fatal(err)
	}
	defer h.DropTable(context.Background(), table)
	t.Logf("created %s: %v", table, per)
	if len(per) != 3 || per["hbase-rs1"]+per["hbase-rs2"]+per["hbase-rs3"] != 24 {
		t.Fatalf("24 regions over 3 RegionServers: got %v", per)
	}
	for n, k := range per {
		if k == 0 {
			t.Errorf("%s has no region of %s: %v", n, table, per)
		}
	}
	if err := h.Load(ctx, table, family, "user", rows); err != nil {
		t.Fatal(err)
	}
	regions, err := h.Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	if len(regions) != 24 {
		t.Fatalf("Regions(%s) = %d regions, want 24", table, len(regions))
	}

	// Move one region to another server.
	r := regions[5]
	to := "hbase-rs1"
	if r.Node == to {
		to = "hbase-rs2"
	}
	m, err := h.MoveRegion(ctx, r.Encoded, to)
	if err != nil {
		t.Fatal(err)
	}
	if m.From != r.Node || m.To != to {
		t.Errorf("move %s from %s to %s: got %+v", r.Encoded, r.Node, to, m)
	}
	if got := regionNode(t, h, table, r.Encoded); got != to {
		t.Errorf("after the move, %s is open on %q, want %s", r.Encoded, got, to)
	}
	moves, err := h.MoveRegions(ctx, table, 3)
	if err != nil || len(moves) != 3 {
		t.Fatalf("MoveRegions(3) = %+v, %v", moves, err)
	}
	for _, m := range moves {
		if m.From == m.To || m.To == "" {
			t.Errorf("MoveRegions: %+v, want another server", m)
		}
	}

	// Unassign, then assign it.
	if err := h.Unassign(ctx, r.Encoded); err != nil {
		t.Fatal(err)
	}
	if got := regionNode(t, h, table, r.Encoded); got != "" {
		t.Errorf("after unassign, %s is open on %q", r.Encoded, got)
	}
	on, err := h.Assign(ctx, r.Encoded)
	if err != nil {
		t.Fatal(err)
	}
	if got := regionNode(t, h, table, r.Encoded); got == "" || got != on {
		t.Errorf("after assign (to %s), %s is open on %q", on, r.Encoded, got)
	}

	// Split it in the middle of its key range (its rows are still in the memstore, so
	// HBase could not pick a midpoint itself).
	if err := h.SplitRegion(ctx, r.Encoded, r.Start+"5"); err != nil {
		t.Fatal(err)
	}
	if regions, err = h.Regions(ctx, table); err != nil || len(regions) != 25 {
		t.Fatalf("after the split: %d regions (%v), want 25", len(regions), err)
	}
	if err := h.Verify(ctx, table, family, "user", rows); err != nil {
		t.Fatalf("after moves, unassign, assign and a split: %v", err)
	}
}

// The balancer evens out a table whose regions were all moved onto one server.
func TestClusterHBaseBalancer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	c := open(t, ctx, "hdfs", "hbase")
	h := c.HBase()
	const table = "gobench_cluster_balance"
	if _, err := h.CreateTable(ctx, table, "f", 6, true); err != nil {
		t.Fatal(err)
	}
	defer h.DropTable(context.Background(), table)
	regions, err := h.Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range regions {
		if r.Node != "hbase-rs1" {
			if _, err := h.MoveRegion(ctx, r.Encoded, "hbase-rs1"); err != nil {
				t.Fatal(err)
			}
		}
	}
	// All of one table on one server: HBase's table-skew cost alone is above its
	// threshold for balancing, whatever else the cluster holds.
	b, err := h.Balance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("balancer: %+v", b)
	if !b.Ran || b.Executed == 0 {
		t.Fatalf("balance with all of %s on hbase-rs1: %+v, want moves executed", table, b)
	}
	per, err := h.WaitServed(ctx, table, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if per["hbase-rs1"] == 6 {
		t.Errorf("after the balancer, all of %s is still on hbase-rs1: %v", table, per)
	}
}

// A SIGKILLed RegionServer's regions are served again (its WAL edits replayed from
// HDFS) once it is started again, and every row written before the kill is readable.
func TestClusterHBaseRegionServerKilled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	c := open(t, ctx, "hdfs", "hbase")
	h := c.HBase()
	const table, family, rows = "gobench_cluster_kill", "f", 3000
	if _, err := h.CreateTable(ctx, table, family, 24, true); err != nil {
		t.Fatal(err)
	}
	defer h.DropTable(context.Background(), table)
	// The rows stay in the memstores (no flush): after the kill only the WAL has them.
	if err := h.Load(ctx, table, family, "user", rows); err != nil {
		t.Fatal(err)
	}
	victim, _, err := h.Locate(ctx, table, "user500000000001")
	if err != nil {
		t.Fatal(err)
	}
	restartLater(t, c, victim)
	t0 := time.Now()
	if err := c.Kill(ctx, victim); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	if err := c.Start(ctx, victim); err != nil {
		t.Fatal(err)
	}
	tStart := time.Since(t0)
	per, err := h.WaitServed(ctx, table, 3*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s killed, started 2 s later: up after %v, every region served after %v: %v", victim,
		tStart.Round(100*time.Millisecond), time.Since(t0).Round(100*time.Millisecond), per)
	if err := h.Verify(ctx, table, family, "user", rows); err != nil {
		t.Fatalf("after %s was killed and started again: %v", victim, err)
	}
	if err := h.WaitReady(ctx, 3, time.Minute); err != nil {
		t.Fatal(err)
	}
}

func regionNode(t *testing.T, h HBase, table, encoded string) string {
	t.Helper()
	l, err := h.Regions(context.Background(), table)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range l {
		if r.Encoded == encoded {
			return r.Node
		}
	}
	t.Fatalf("%s has no region %s", table, encoded)
	return ""
}

// A replication-3 topic keeps taking acks=all writes when the leader of a partition is
// SIGKILLed (another broker takes over); the broker started again rejoins the in-sync
// replicas with the log it had on disk, and every record reads back.
func TestClusterKafkaLeaderKilled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c := open(t, ctx, "kafka")
	k := c.Kafka()
	topic := fmt.Sprintf("gobench-cluster-smoke-%d", time.Now().UnixNano())
	if err := k.CreateTopic(ctx, topic, 3, 3); err != nil {
		t.Fatal(err)
	}
	defer k.DeleteTopic(context.Background(), topic)
	parts, err := k.Partitions(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range parts {
		if len(p.Replicas) != 3 || len(p.ISR) != 3 || p.Leader == "" {
			t.Fatalf("partition %+v: want a leader, 3 replicas, 3 in sync", p)
		}
	}
	produce(t, ctx, topic, 0, 200)

	leader, err := k.Leader(ctx, topic, 0)
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := NodeDir(leader)
	segment := filepath.Join(dir, "data", topic+"-0", "00000000000000000000.log")
	before, err := os.Stat(segment)
	if err != nil || before.Size() == 0 {
		t.Fatalf("leader %s's log %s: %v (size %d), want data", leader, segment, err, sizeOf(before))
	}
	restartLater(t, c, leader)
	t0 := time.Now()
	if err := c.Kill(ctx, leader); err != nil {
		t.Fatal(err)
	}
	next, err := k.WaitLeader(ctx, topic, 0, leader, 90*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s (leader of %s/0) killed: %s leads after %v", leader, topic, next, time.Since(t0).Round(100*time.Millisecond))
	produce(t, ctx, topic, 200, 100) // 2 of 3 in sync: min.insync.replicas 2 holds

	after, err := os.Stat(segment)
	if err != nil || after.Size() < before.Size() {
		t.Fatalf("killed broker's log %s: %v (size %d, was %d): data not kept", segment, err, sizeOf(after), before.Size())
	}
	t0 = time.Now()
	if err := c.Start(ctx, leader); err != nil {
		t.Fatal(err)
	}
	if err := k.WaitISR(ctx, topic, 3, 90*time.Second); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s started again: back in sync after %v", leader, time.Since(t0).Round(100*time.Millisecond))
	got := consume(t, ctx, topic, 0)
	if len(got) != 300 {
		t.Fatalf("partition 0 holds %d distinct records, want 300", len(got))
	}
	for i := 0; i < 300; i++ {
		if _, ok := got[fmt.Sprintf("k%04d", i)]; !ok {
			t.Fatalf("record k%04d missing from partition 0", i)
		}
	}
}

func sizeOf(fi os.FileInfo) int64 {
	if fi == nil {
		return -1
	}
	return fi.Size()
}

// produce writes records k<from>..k<from+n-1> to partition 0 with acks=all, retrying
// while leadership moves.
func produce(t *testing.T, ctx context.Context, topic string, from, n int) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(KafkaBrokers()...), kgo.DefaultProduceTopic(topic),
		kgo.RequiredAcks(kgo.AllISRAcks()), kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerLinger(5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	recs := make([]*kgo.Record, n)
	for i := range recs {
		recs[i] = &kgo.Record{Partition: 0, Key: []byte(fmt.Sprintf("k%04d", from+i)), Value: []byte(strconv.Itoa(from + i))}
	}
	for attempt := 0; attempt < 40; attempt++ {
		if err = cl.ProduceSync(ctx, recs...).FirstErr(); err == nil {
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Fatalf("produce %d records to %s/0: %v", n, topic, err)
}

// endOffset is partition p's high-water mark (ListOffsets, latest).
func endOffset(t *testing.T, ctx context.Context, topic string, p int32) int64 {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(KafkaBrokers()...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	req := kmsg.NewPtrListOffsetsRequest()
	rt := kmsg.NewListOffsetsRequestTopic()
	rt.Topic = topic
	rp := kmsg.NewListOffsetsRequestTopicPartition()
	rp.Partition, rp.Timestamp = p, -1 // latest
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		t.Fatalf("end offset of %s/%d: %v", topic, p, err)
	}
	for _, tp := range resp.Topics {
		for _, pp := range tp.Partitions {
			if pp.Partition == p {
				if err := kerr.ErrorForCode(pp.ErrorCode); err != nil {
					t.Fatalf("end offset of %s/%d: %v", topic, p, err)
				}
				return pp.Offset
			}
		}
	}
	t.Fatalf("end offset of %s/%d: not in the response", topic, p)
	return 0
}

// consume reads partition p from the start to its high-water mark; keys to values.
func consume(t *testing.T, ctx context.Context, topic string, p int) map[string]string {
	t.Helper()
	end := endOffset(t, ctx, topic, int32(p))
	cl, err := kgo.NewClient(kgo.SeedBrokers(KafkaBrokers()...), kgo.FetchMaxWait(100*time.Millisecond),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {int32(p): kgo.NewOffset().AtStart()}}))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	got := map[string]string{}
	for n := int64(0); n < end; {
		fs := cl.PollFetches(ctx)
		if err := fs.Err(); err != nil {
			t.Fatalf("consume %s/%d after %d records: %v", topic, p, n, err)
		}
		fs.EachRecord(func(r *kgo.Record) {
			if r.Offset < end {
				got[string(r.Key)] = string(r.Value)
				n++
			}
		})
	}
	return got
}

// Freeze with a duration thaws by itself; without one the node stays frozen until Thaw.
func TestClusterFreeze(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := open(t, ctx, "kafka")
	restartLater(t, c, "kafka3")
	if err := c.Freeze(ctx, "kafka3", 2*time.Second); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if st, err := c.State(ctx, "kafka3"); err != nil || st != "frozen" {
		t.Fatalf("right after Freeze(kafka3, 2s): state %q, %v; want frozen", st, err)
	}
	for {
		st, err := c.State(ctx, "kafka3")
		if err != nil {
			t.Fatal(err)
		}
		if st == "up" {
			break
		}
		if time.Since(t0) > 20*time.Second {
			t.Fatalf("kafka3 still %s %v after a 2 s freeze", st, time.Since(t0))
		}
		time.Sleep(200 * time.Millisecond)
	}
	if d := time.Since(t0); d < 1500*time.Millisecond {
		t.Errorf("kafka3 thawed after %v, before its 2 s", d)
	}
	if err := c.Freeze(ctx, "kafka3", 0); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second)
	if st, _ := c.State(ctx, "kafka3"); st != "frozen" {
		t.Fatalf("3 s after Freeze(kafka3, 0): state %q, want frozen", st)
	}
	if err := c.Thaw(ctx, "kafka3"); err != nil {
		t.Fatal(err)
	}
	if st, _ := c.State(ctx, "kafka3"); st != "up" {
		t.Fatalf("after Thaw(kafka3): state %q, want up", st)
	}
}
