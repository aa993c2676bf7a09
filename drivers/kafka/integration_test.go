//go:build integration

package kafka

import (
	"net"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/props"
)

const broker = "127.0.0.1:9092"

// requireKafka fails the test at once, naming the address, when no broker
// listens (start one with testenv/up.sh kafka): a real-server test never
// skips.
func requireKafka(t *testing.T) {
	t.Helper()
	c, err := net.DialTimeout("tcp", broker, time.Second)
	if err != nil {
		t.Fatalf("Kafka not reachable at %s (testenv/up.sh kafka): %v", broker, err)
	}
	c.Close()
}

func openDB(t *testing.T, kv ...string) drivers.DB {
	t.Helper()
	var l props.Layers
	for i := 0; i+1 < len(kv); i += 2 {
		l.Add(props.LayerOverride, props.Value{Key: kv[i], Value: kv[i+1], Source: "test"})
	}
	d := props.NewDecoder(l.Set())
	db, err := Driver{}.Configure(d, driverstest.Schema())
	if err != nil {
		t.Fatalf("configure: %v", err)
	}
	return db
}

func TestConformance(t *testing.T) {
	requireKafka(t)
	driverstest.Run(t, func(t *testing.T) drivers.DB {
		return openDB(t, KeyBrokers, broker, KeyPartitions, "3")
	}, driverstest.MaxValueSize(2<<20), driverstest.Workers(8))
}

// TestIndexRebuiltByNewDB writes with one DB and reads with another, which
// must rebuild its index from the topic.
func TestIndexRebuiltByNewDB(t *testing.T) {
	requireKafka(t)
	ctx := t.Context()
	table := "gobenchtest_index_" + time.Now().Format("150405.000")
	w := openDB(t, KeyBrokers, broker, KeyPartitions, "2").(*DB)
	defer w.DropTable(ctx, table)
	c, err := w.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r := drivers.NewRecord(2)
	for i, k := range []string{"a", "b", "c"} {
		r.Set(0, []byte(k))
		r.Set(1, []byte{byte(i)})
		if err := c.Insert(ctx, table, []byte(k), r); err != nil {
			t.Fatalf("insert %q: %v", k, err)
		}
	}
	if err := c.Delete(ctx, table, []byte("b")); err != nil {
		t.Fatal(err)
	}
	c.Close(ctx)
	w.Close()

	db := openDB(t, KeyBrokers, broker).(*DB)
	defer db.Close()
	c2, _ := db.Open(ctx)
	defer c2.Close(ctx)
	got := drivers.NewRecord(2)
	if err := c2.Read(ctx, table, []byte("c"), nil, got); err != nil {
		t.Fatalf("read c through a new DB: %v", err)
	}
	if v, _ := got.Get(1); len(v) != 1 || v[0] != 2 {
		t.Errorf("c field 1 = %v, want [2]", v)
	}
	if err := c2.Read(ctx, table, []byte("b"), nil, got); drivers.Classify(err) != drivers.NotFound {
		t.Errorf("read of deleted b = %v, want NOT_FOUND", err)
	}
	b := db.IndexBuilds()
	if len(b) != 1 || b[0].Records != 4 || b[0].Keys != 2 {
		t.Errorf("IndexBuilds = %+v, want one build of 4 records, 2 live keys", b)
	}
}
