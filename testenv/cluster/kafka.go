package cluster

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kafka answers questions about the cluster's Kafka (which broker leads a partition,
// who is in sync) and creates topics, through the long-lived Java helper
// (testenv/java/ClusterKafka.java, kafka-clients' Admin API). Brokers are node names:
// broker id N is kafkaN.
type Kafka struct{ c *Cluster }

// Kafka returns the Kafka actions of c.
func (c *Cluster) Kafka() Kafka { return Kafka{c} }

func (k Kafka) do(ctx context.Context, args ...string) ([]string, error) {
	return k.c.do(ctx, "kafka", args...)
}

// Partition is one partition of a topic.
type Partition struct {
	ID       int
	Leader   string // "" when it has none
	Replicas []string
	ISR      []string
}

// CreateTopic creates a topic with replication factor rf (min.insync.replicas is the
// brokers' default, 2) and waits until every partition has a leader and rf replicas in
// sync.
func (k Kafka) CreateTopic(ctx context.Context, topic string, partitions, rf int) error {
	_, err := k.do(ctx, "create", topic, strconv.Itoa(partitions), strconv.Itoa(rf))
	return err
}

// DeleteTopic deletes a topic.
func (k Kafka) DeleteTopic(ctx context.Context, topic string) error {
	_, err := k.do(ctx, "delete", topic)
	return err
}

// Partitions describes the partitions of topic.
func (k Kafka) Partitions(ctx context.Context, topic string) ([]Partition, error) {
	lines, err := k.do(ctx, "describe", topic)
	if err != nil {
		return nil, err
	}
	return parsePartitions(lines)
}

// parsePartitions parses "ID LEADER replicas=a,b,c isr=a,b" lines.
func parsePartitions(lines []string) ([]Partition, error) {
	var l []Partition
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) != 4 || !strings.HasPrefix(f[2], "replicas=") || !strings.HasPrefix(f[3], "isr=") {
			return nil, fmt.Errorf("cluster: describe: bad line %q", line)
		}
		id, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, fmt.Errorf("cluster: describe: bad line %q", line)
		}
		l = append(l, Partition{ID: id, Leader: dash(f[1]),
			Replicas: list(strings.TrimPrefix(f[2], "replicas=")), ISR: list(strings.TrimPrefix(f[3], "isr="))})
	}
	return l, nil
}

func list(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// Leader returns the node that leads a partition ("" if none).
func (k Kafka) Leader(ctx context.Context, topic string, partition int) (string, error) {
	lines, err := k.do(ctx, "leader", topic, strconv.Itoa(partition))
	if err != nil {
		return "", err
	}
	if len(lines) != 1 {
		return "", fmt.Errorf("cluster: leader: bad answer %q", lines)
	}
	return dash(lines[0]), nil
}

// WaitLeader waits (at most timeout) until the partition has a leader other than not
// ("": any leader) and returns it. After a SIGKILL the old leader keeps its partitions
// until the controller fences it (broker.session.timeout.ms, 15 s in testenv).
func (k Kafka) WaitLeader(ctx context.Context, topic string, partition int, not string, timeout time.Duration) (string, error) {
	args := []string{"wait-leader", topic, strconv.Itoa(partition), seconds(timeout)}
	if not != "" {
		args = append(args, not)
	}
	lines, err := k.do(ctx, args...)
	if err != nil {
		return "", err
	}
	if len(lines) != 1 {
		return "", fmt.Errorf("cluster: wait-leader: bad answer %q", lines)
	}
	return lines[0], nil
}

// WaitISR waits (at most timeout) until every partition of topic has a leader and at
// least n replicas in sync.
func (k Kafka) WaitISR(ctx context.Context, topic string, n int, timeout time.Duration) error {
	_, err := k.do(ctx, "wait-isr", topic, strconv.Itoa(n), seconds(timeout))
	return err
}
