//go:build integration

package smoke

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"
)

// TestKafkaProduceConsume creates a topic, produces records and consumes them back.
func TestKafkaProduceConsume(t *testing.T) {
	requireUp(t, "kafka", kafkaAddr)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	topic := fmt.Sprintf("gobench-smoke-%d", time.Now().UnixNano())
	conn, err := kafka.DialContext(ctx, "tcp", kafkaAddr)
	if err != nil {
		t.Fatalf("dial kafka %s: %v", kafkaAddr, err)
	}
	defer conn.Close()
	ctrl, err := conn.Controller()
	if err != nil {
		t.Fatalf("find kafka controller via %s: %v", kafkaAddr, err)
	}
	cc, err := kafka.DialContext(ctx, "tcp", net.JoinHostPort(ctrl.Host, strconv.Itoa(ctrl.Port)))
	if err != nil {
		t.Fatalf("dial kafka controller %s:%d: %v", ctrl.Host, ctrl.Port, err)
	}
	defer cc.Close()
	if err := cc.CreateTopics(kafka.TopicConfig{Topic: topic, NumPartitions: 2, ReplicationFactor: 1}); err != nil {
		t.Fatalf("create topic %q: %v", topic, err)
	}
	defer func() {
		if err := cc.DeleteTopics(topic); err != nil {
			t.Errorf("delete topic %q: %v", topic, err)
		}
	}()

	const n = 100
	w := &kafka.Writer{
		Addr:         kafka.TCP(kafkaAddr),
		Topic:        topic,
		Balancer:     &kafka.Hash{},
		RequiredAcks: kafka.RequireAll,
		BatchTimeout: 10 * time.Millisecond,
	}
	msgs := make([]kafka.Message, n)
	for i := range msgs {
		msgs[i] = kafka.Message{Key: []byte(fmt.Sprintf("user%d", i)), Value: []byte(fmt.Sprintf("value-%d", i))}
	}
	// The topic's leader may not be known to the metadata cache for a moment: retry.
	for attempt := 0; ; attempt++ {
		err = w.WriteMessages(ctx, msgs...)
		if err == nil || attempt == 20 || ctx.Err() != nil {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("produce %d records to %q: %v", n, topic, err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("close writer: %v", err)
	}

	got := map[string]string{}
	for p := 0; p < 2; p++ {
		r := kafka.NewReader(kafka.ReaderConfig{Brokers: []string{kafkaAddr}, Topic: topic, Partition: p, MaxWait: 100 * time.Millisecond})
		hw, err := highWater(ctx, topic, p)
		if err != nil {
			t.Fatalf("partition %d high water mark: %v", p, err)
		}
		for off := int64(0); off < hw; off++ {
			m, err := r.ReadMessage(ctx)
			if err != nil {
				t.Fatalf("consume %q partition %d offset %d: %v", topic, p, off, err)
			}
			got[string(m.Key)] = string(m.Value)
		}
		r.Close()
	}
	if len(got) != n {
		t.Fatalf("consumed %d distinct records from %q, want %d", len(got), topic, n)
	}
	for i := 0; i < n; i++ {
		k, want := fmt.Sprintf("user%d", i), fmt.Sprintf("value-%d", i)
		if got[k] != want {
			t.Errorf("record %q = %q, want %q", k, got[k], want)
		}
	}
}

func highWater(ctx context.Context, topic string, p int) (int64, error) {
	c, err := kafka.DialLeader(ctx, "tcp", kafkaAddr, topic, p)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	return c.ReadLastOffset()
}
