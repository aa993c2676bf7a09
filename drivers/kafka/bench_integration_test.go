//go:build integration

package kafka

import (
	"context"
	"strconv"
	"testing"
	"time"
)

// BenchmarkProduceAsync measures the asynchronous producer path (the
// produce workload's) with 1 KiB records: b.N records, 32 MiB in flight.
func BenchmarkProduceAsync(b *testing.B) {
	requireKafka(&testing.T{})
	ctx := context.Background()
	db := openDB(&testing.T{}, KeyBrokers, broker, KeyAcks, "1", KeyBatchSize, "64KB").(*DB)
	defer db.Close()
	topic := "gobenchbench_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	defer db.DropTable(ctx, topic)
	c, err := db.Open(ctx)
	if err != nil {
		b.Fatal(err)
	}
	p := c.(*conn)
	value := make([]byte, 1024)
	sem := make(chan struct{}, 32<<10)
	done := func(int64, error) { <-sem }
	b.ReportAllocs()
	b.SetBytes(int64(len(value)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sem <- struct{}{}
		if err := p.Produce(ctx, topic, nil, value, int64(i), done); err != nil {
			b.Fatal(err)
		}
	}
	if err := p.Flush(ctx); err != nil {
		b.Fatal(err)
	}
}
