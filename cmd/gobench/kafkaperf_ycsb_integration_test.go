//go:build integration

package main

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/kafka"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
)

// timedKafka is the kafka driver with every Read timed per connection, so
// that a test can compare each worker's first operation with the rest.
type timedKafka struct {
	kafka.Driver
	lat *latencies
}

type latencies struct {
	mu    sync.Mutex
	first []time.Duration
	all   []time.Duration
}

func (d timedKafka) Configure(p *props.Decoder, s drivers.Schema) (drivers.DB, error) {
	db, err := d.Driver.Configure(p, s)
	if err != nil {
		return nil, err
	}
	return &timedDB{DB: db.(*kafka.DB), lat: d.lat}, nil
}

// timedDB is the kafka DB (Prepare, Caps, Notes and all) with timed Conns.
type timedDB struct {
	*kafka.DB
	lat *latencies
}

func (db *timedDB) Open(ctx context.Context) (drivers.Conn, error) {
	c, err := db.DB.Open(ctx)
	if err != nil {
		return nil, err
	}
	return &timedConn{Conn: c, lat: db.lat}, nil
}

type timedConn struct {
	drivers.Conn
	lat *latencies
	n   int
}

func (c *timedConn) Read(ctx context.Context, table string, key []byte, fields drivers.FieldSet, dst *drivers.Record) error {
	start := time.Now()
	err := c.Conn.Read(ctx, table, key, fields, dst)
	d := time.Since(start)
	c.lat.mu.Lock()
	if c.n == 0 {
		c.lat.first = append(c.lat.first, d)
	}
	c.lat.all = append(c.lat.all, d)
	c.lat.mu.Unlock()
	c.n++
	return err
}

// TestYCSBOnKafkaFirstOperationNotSlowed: the key index of a topic of
// 50 000 records is built before the measured phase (DB.Prepare), not in
// the first operation of a worker: each worker's first read is no slower
// than 10 times the median read plus 25 ms (the bound leaves room for the
// loaded 2-core test machine; an index build of 50 000 records takes
// seconds). The build is reported on its own line.
func TestYCSBOnKafkaFirstOperationNotSlowed(t *testing.T) {
	requireKafka(t)
	table := "gobenchtest_firstop_" + strconv.FormatInt(time.Now().UnixNano()%(1<<40), 36)
	const records = 50000
	if code, _, stderr := gobench(t, t.Context(), "load", "-db", "kafka", "-P", "workloads/workloadc", "-p", "table="+table,
		"-p", "recordcount="+strconv.Itoa(records), "-threads", "16", "-p", "kafka.brokers="+kafkaBroker, "-p", "kafka.partitions=3"); code != 0 {
		t.Fatalf("load: exit %d\n%s", code, stderr)
	}
	var l props.Layers
	for k, v := range map[string]string{
		"db": "kafka", "table": table, "recordcount": strconv.Itoa(records), "operationcount": "8000", "threadcount": "8",
		"readproportion": "1", "updateproportion": "0", "scanproportion": "0", "insertproportion": "0",
		"requestdistribution": "zipfian", "kafka.brokers": kafkaBroker,
	} {
		l.Add(props.LayerOverride, props.Value{Key: k, Value: v, Source: "test"})
	}
	lat := &latencies{}
	plan, err := workload.Prepare(l.Set(), workload.WithDriver("kafka", timedKafka{lat: lat}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := plan.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(lat.first) != 8 || len(lat.all) != 8000 {
		t.Fatalf("timed %d first reads and %d reads, want 8 and 8000", len(lat.first), len(lat.all))
	}
	all := slices.Clone(lat.all)
	slices.Sort(all)
	median := all[len(all)/2]
	bound := 10*median + 25*time.Millisecond
	for i, f := range lat.first {
		if f > bound {
			t.Errorf("worker %d's first read took %v, more than 10 x the median %v + 25 ms", i, f, median)
		}
	}
	if len(res.Notes) != 1 || !containsAll(res.Notes[0], "built the key index of topic "+table, "50000 live keys", "before the measured phase") {
		t.Errorf("notes = %q, want the index build of 50000 keys before the measured phase", res.Notes)
	}
	t.Logf("median read %v, first reads %v; %q", median, lat.first, res.Notes)
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
