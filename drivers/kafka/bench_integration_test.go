//go:build integration

package kafka

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
)

// BenchmarkProduceAsync measures the asynchronous producer path (the
// produce workload's) with 1 KiB records: b.N records, 32 MiB in flight.
func BenchmarkProduceAsync(b *testing.B) {
	requireKafka(b)
	ctx := context.Background()
	db := openDB(b, KeyAcks, "1", KeyBatchSize, "64KB").(*DB)
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

// BenchmarkRead measures Read of one of 100 keys written by the same DB
// (offsets from acknowledgements), one worker.
func BenchmarkRead(b *testing.B) {
	requireKafka(b)
	ctx := context.Background()
	db := openDB(b).(*DB)
	defer db.Close()
	topic := "gobenchbench_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	defer db.DropTable(ctx, topic)
	c, err := db.Open(ctx)
	if err != nil {
		b.Fatal(err)
	}
	r := drivers.NewRecord(10)
	for f := range 10 {
		r.Set(f, make([]byte, 100))
	}
	keys := make([][]byte, 100)
	for i := range keys {
		keys[i] = []byte("user" + strconv.Itoa(i))
		if err := c.Insert(ctx, topic, keys[i], r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.Read(ctx, topic, keys[i%len(keys)], nil, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConsume measures Consume over a topic of 100-byte records
// produced first (b.N of them), one group member.
func BenchmarkConsume(b *testing.B) {
	requireKafka(b)
	ctx := context.Background()
	topic := "gobenchbench_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	db := openDB(b, KeyAcks, "1", KeyGroup, topic).(*DB)
	defer db.Close()
	defer db.DropTable(ctx, topic)
	c, _ := db.Open(ctx)
	p := c.(*conn)
	value := make([]byte, 100)
	sem := make(chan struct{}, 1<<16)
	for i := 0; i < b.N; i++ {
		sem <- struct{}{}
		if err := p.Produce(ctx, topic, nil, value, 0, func(int64, error) { <-sem }); err != nil {
			b.Fatal(err)
		}
	}
	p.Flush(ctx)
	n := 0
	fn := func(k, v []byte) { n += len(v) }
	b.ReportAllocs()
	b.SetBytes(100)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := p.Consume(ctx, topic, fn); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	p.Close(ctx)
}
