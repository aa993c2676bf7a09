// Command kafka-franz is bench/kafka.sh's third contestant: the same
// producer and consumer perf loops as gobench's produce and consume
// workloads, on github.com/twmb/franz-go instead of kafka-go, printing
// Kafka's perf-tool lines so the script parses all three alike. It is a
// separate module so that the main module does not depend on franz-go.
//
//	kafka-franz produce -topic T -n N -size S [-acks all|1] [-linger 5ms] [-batch 16384] [-throughput R]
//	kafka-franz consume -topic T -n N [-group G] [-timeout 30s]
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: kafka-franz produce|consume [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	broker := fs.String("broker", "127.0.0.1:9092", "bootstrap broker")
	topic := fs.String("topic", "", "topic")
	n := fs.Int64("n", 0, "records")
	size := fs.Int("size", 100, "record bytes (produce)")
	acks := fs.String("acks", "all", "all or 1")
	noidem := fs.Bool("noidem", false, "disable idempotence (enable.idempotence=false)")
	linger := fs.Duration("linger", 5*time.Millisecond, "linger")
	batch := fs.Int("batch", 16384, "batch.size bytes (raised to fit one record)")
	throughput := fs.Float64("throughput", -1, "records/s, -1 unthrottled")
	group := fs.String("group", fmt.Sprintf("franz-perf-%d", rand.IntN(100000)), "consumer group")
	timeout := fs.Duration("timeout", 30*time.Second, "consume idle timeout")
	fs.Parse(os.Args[2:])
	var err error
	switch os.Args[1] {
	case "produce":
		err = produce(*broker, *topic, *n, *size, *acks, *noidem, *linger, *batch, *throughput)
	case "consume":
		err = consume(*broker, *topic, *n, *group, *timeout)
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "kafka-franz:", err)
		os.Exit(1)
	}
}

func produce(broker, topic string, n int64, size int, acks string, noidem bool, linger time.Duration, batch int, target float64) error {
	opts := []kgo.Opt{kgo.SeedBrokers(broker), kgo.DefaultProduceTopic(topic), kgo.ProducerLinger(linger),
		kgo.ProducerBatchMaxBytes(int32(max(batch, size+512))), kgo.MaxBufferedBytes(32 << 20), kgo.AllowAutoTopicCreation(),
		kgo.ProducerBatchCompression(kgo.NoCompression())}
	switch {
	case acks == "1":
		opts = append(opts, kgo.RequiredAcks(kgo.LeaderAck()), kgo.DisableIdempotentWrite())
	case noidem:
		opts = append(opts, kgo.DisableIdempotentWrite())
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return err
	}
	defer cl.Close()
	ctx := context.Background()
	lat := make([]int32, 0, n)
	var mu sync.Mutex
	var okN, bytes atomic.Int64
	var sumUs, maxUs atomic.Int64
	start := time.Now()
	var deficit time.Duration
	for i := int64(0); i < n; i++ {
		v := make([]byte, size) // franz-go keeps the slice until the callback
		for j := range v {
			v[j] = 'A' + byte(rand.IntN(26))
		}
		t0 := time.Now()
		cl.Produce(ctx, &kgo.Record{Value: v}, func(r *kgo.Record, err error) {
			if err != nil {
				fmt.Fprintln(os.Stderr, "send failed:", err)
				return
			}
			us := time.Since(t0).Microseconds()
			okN.Add(1)
			bytes.Add(int64(len(r.Value)))
			sumUs.Add(us)
			for m := maxUs.Load(); us > m && !maxUs.CompareAndSwap(m, us); m = maxUs.Load() {
			}
			mu.Lock()
			lat = append(lat, int32(us/1000))
			mu.Unlock()
		})
		if target > 0 {
			if el := time.Since(start).Seconds(); el > 0 && float64(i+1)/el > target {
				deficit += time.Duration(float64(time.Second) / target)
				if deficit >= 2*time.Millisecond {
					time.Sleep(deficit)
					deficit = 0
				}
			}
		}
	}
	if err := cl.Flush(ctx); err != nil {
		return err
	}
	el := time.Since(start)
	slices.Sort(lat)
	pct := func(p float64) int32 {
		if len(lat) == 0 {
			return 0
		}
		return lat[int(p*float64(len(lat)))]
	}
	k := okN.Load()
	fmt.Printf("%d records sent, %f records/sec (%.2f MB/sec), %.2f ms avg latency, %.2f ms max latency, %d ms 50th, %d ms 95th, %d ms 99th, %d ms 99.9th.\n",
		k, float64(k)/el.Seconds(), float64(bytes.Load())/el.Seconds()/(1<<20), float64(sumUs.Load())/float64(max(k, 1))/1000,
		float64(maxUs.Load())/1000, pct(0.5), pct(0.95), pct(0.99), pct(0.999))
	return nil
}

func consume(broker, topic string, n int64, group string, timeout time.Duration) error {
	start := time.Now()
	var joined atomic.Int64
	cl, err := kgo.NewClient(kgo.SeedBrokers(broker), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxPartitionBytes(1<<20),
		kgo.OnPartitionsAssigned(func(context.Context, *kgo.Client, map[string][]int32) {
			joined.CompareAndSwap(0, int64(time.Since(start)))
		}))
	if err != nil {
		return err
	}
	defer cl.Close()
	var recs, bytes int64
	last := time.Now()
	for recs < n && time.Since(last) <= timeout {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		f := cl.PollFetches(ctx)
		cancel()
		got := false
		f.EachRecord(func(r *kgo.Record) {
			recs++
			bytes += int64(len(r.Key) + len(r.Value))
			got = true
		})
		if got {
			last = time.Now()
		}
	}
	end := time.Now()
	ms := end.Sub(start).Milliseconds()
	reb := time.Duration(joined.Load()).Milliseconds()
	mb := float64(bytes) / (1 << 20)
	date := func(t time.Time) string {
		return t.Format("2006-01-02 15:04:05") + fmt.Sprintf(":%03d", t.Nanosecond()/1e6)
	}
	fmt.Println("start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec")
	fmt.Printf("%s, %s, %.4f, %.4f, %d, %.4f, %d, %d, %.4f, %.4f\n", date(start), date(end), mb, mb/(float64(ms)/1000), recs,
		float64(recs)/(float64(ms)/1000), reb, ms-reb, mb/(float64(ms-reb)/1000), float64(recs)/(float64(ms-reb)/1000))
	return nil
}
