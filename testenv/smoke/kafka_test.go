//go:build integration

package smoke

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestKafkaProduceConsume creates a topic, produces records and consumes them back.
func TestKafkaProduceConsume(t *testing.T) {
	requireUp(t, "kafka", kafkaAddr)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	topic := fmt.Sprintf("gobench-smoke-%d", time.Now().UnixNano())
	cl, err := kgo.NewClient(kgo.SeedBrokers(kafkaAddr), kgo.ProducerLinger(10*time.Millisecond))
	if err != nil {
		t.Fatalf("kafka client for %s: %v", kafkaAddr, err)
	}
	defer cl.Close()
	create := kmsg.NewPtrCreateTopicsRequest()
	ct := kmsg.NewCreateTopicsRequestTopic()
	ct.Topic, ct.NumPartitions, ct.ReplicationFactor = topic, 2, 1
	create.Topics = append(create.Topics, ct)
	res, err := create.RequestWith(ctx, cl)
	if err == nil {
		err = kerr.ErrorForCode(res.Topics[0].ErrorCode)
	}
	if err != nil {
		t.Fatalf("create topic %q: %v", topic, err)
	}
	defer func() {
		del := kmsg.NewPtrDeleteTopicsRequest()
		del.TopicNames = []string{topic}
		dt := kmsg.NewDeleteTopicsRequestTopic()
		dt.Topic = kmsg.StringPtr(topic)
		del.Topics = append(del.Topics, dt)
		res, err := del.RequestWith(context.Background(), cl)
		if err == nil {
			err = kerr.ErrorForCode(res.Topics[0].ErrorCode)
		}
		if err != nil {
			t.Errorf("delete topic %q: %v", topic, err)
		}
	}()

	const n = 100
	var recs []*kgo.Record
	for i := range n {
		recs = append(recs, &kgo.Record{Topic: topic, Key: []byte(fmt.Sprintf("user%d", i)), Value: []byte(fmt.Sprintf("value-%d", i))})
	}
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatalf("produce %d records to %q: %v", n, topic, err)
	}

	cons, err := kgo.NewClient(kgo.SeedBrokers(kafkaAddr), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxWait(100*time.Millisecond))
	if err != nil {
		t.Fatalf("kafka consumer for %s: %v", kafkaAddr, err)
	}
	defer cons.Close()
	got := map[string]string{}
	for len(got) < n && ctx.Err() == nil {
		f := cons.PollFetches(ctx)
		for _, e := range f.Errors() {
			if ctx.Err() == nil {
				t.Fatalf("consume %q partition %d: %v", e.Topic, e.Partition, e.Err)
			}
		}
		f.EachRecord(func(r *kgo.Record) { got[string(r.Key)] = string(r.Value) })
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
