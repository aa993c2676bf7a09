//go:build integration || cluster

package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// consumeFrom reads topic from the start at brokers until want records
// came, 20 s passed without one or 2 minutes in all; the values by
// partition, in offset order.
func consumeFrom(t *testing.T, brokers, topic string, want int) map[int32][]string {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(brokers, ",")...), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxWait(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	out := map[int32][]string{}
	n := 0
	idle := time.Now()
	for n < want && ctx.Err() == nil && time.Since(idle) < 20*time.Second {
		pctx, pcancel := context.WithTimeout(ctx, time.Second)
		f := cl.PollFetches(pctx)
		pcancel()
		f.EachRecord(func(r *kgo.Record) {
			out[r.Partition] = append(out[r.Partition], string(r.Value))
			n++
			idle = time.Now()
		})
	}
	return out
}

// checkMonotonic verifies that the payloads are each index in [0, n)
// exactly once and increase within each partition (one worker sent them in
// index order).
func checkMonotonic(t *testing.T, parts map[int32][]string, n int) {
	t.Helper()
	seen := make([]int, n)
	total := 0
	for p, vs := range parts {
		prev := -1
		for i, v := range vs {
			x, err := strconv.Atoi(v)
			if err != nil || x < 0 || x >= n {
				t.Fatalf("partition %d record %d: payload %q is not an index below %d", p, i, v, n)
			}
			seen[x]++
			total++
			if x <= prev {
				t.Errorf("partition %d: payload %d after %d: not in send order", p, x, prev)
				prev = x
				continue
			}
			prev = x
		}
	}
	missing, dup := 0, 0
	for i, c := range seen {
		switch {
		case c == 0:
			if missing == 0 {
				t.Errorf("payload %d missing", i)
			}
			missing++
		case c > 1:
			if dup == 0 {
				t.Errorf("payload %d appears %d times", i, c)
			}
			dup++
		}
	}
	if missing > 0 || dup > 0 || total != n {
		t.Errorf("consumed %d records: %d payloads missing, %d duplicated, want each of %d once", total, missing, dup, n)
	}
}
