//go:build cluster

package main

import (
	"context"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/gobench/gobench/testenv/cluster"
)

// The cluster's three KRaft brokers (testenv/up.sh --cluster kafka).
const clusterBrokers = "127.0.0.1:19091,127.0.0.1:19092,127.0.0.1:19093"

// producer-perf of 300 000 records (--payload-monotonic) at 10 000
// records/s on a topic of 3 partitions with replication 3, while the broker
// leading partition 0 is SIGKILLed 5 s in and started again 10 s later:
// every record is acknowledged, the topic holds each payload index exactly
// once (no loss, no duplicate), in send order within each partition (issue
// 20 on the cluster).
func TestClusterProducerPerfLeaderKilled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	c, err := cluster.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Check(ctx, "kafka"); err != nil {
		t.Fatal(err)
	}
	k := c.Kafka()
	topic := "gobenchtest_leaderkill_" + strconv.FormatInt(time.Now().UnixNano()%(1<<40), 36)
	if err := k.CreateTopic(ctx, topic, 3, 3); err != nil {
		t.Fatal(err)
	}
	defer k.DeleteTopic(context.Background(), topic)
	leader, err := k.Leader(ctx, topic, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // the broker is up again whatever happened
		sctx, scancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer scancel()
		if st, _ := c.State(sctx, leader); st != "up" {
			if err := c.Start(sctx, leader); err != nil {
				t.Errorf("start %s again: %v", leader, err)
			}
		}
	})
	faults := make(chan error, 1)
	go func() {
		time.Sleep(5 * time.Second)
		if err := c.Kill(ctx, leader); err != nil {
			faults <- err
			return
		}
		time.Sleep(10 * time.Second)
		faults <- c.Start(ctx, leader)
	}()

	const n = 300000
	start := time.Now()
	code, stdout, stderr := gobench(t, ctx, "producer-perf", "--topic", topic, "--num-records", strconv.Itoa(n), "--payload-monotonic",
		"--throughput", "10000", "--bootstrap-server", clusterBrokers,
		"--producer-props", "acks=all", "delivery.timeout.ms=300000")
	took := time.Since(start)
	if err := <-faults; err != nil {
		t.Fatalf("killing and starting %s: %v", leader, err)
	}
	if code != 0 {
		t.Fatalf("producer-perf across the leader's SIGKILL: exit %d\n%s\n%s", code, stdout, stderr)
	}
	m := regexp.MustCompile(`(?m)^\[PRODUCE\], Return=OK, (\d+)$`).FindStringSubmatch(stdout)
	if m == nil || m[1] != strconv.Itoa(n) {
		t.Errorf("acknowledged %v records, want %d\n%s", m, n, stdout)
	}
	if regexp.MustCompile(`(?m)^\[PRODUCE\], Return=(?:[^O]|O[^K])`).MatchString(stdout) {
		t.Errorf("failed produces counted:\n%s", stdout)
	}
	t.Logf("%s (leader of partition 0) SIGKILLed at 5 s and started at 15 s: producer-perf exit %d in %v", leader, code, took.Round(time.Millisecond))
	checkMonotonic(t, consumeFrom(t, clusterBrokers, topic, n), n)
}
