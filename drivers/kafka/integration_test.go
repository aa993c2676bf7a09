//go:build integration

package kafka

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/props"
)

// broker is the bootstrap list of the Kafka the tests use: the testenv's
// (testenv/up.sh kafka), or GOBENCH_KAFKA_BROKERS (a private broker, the
// 3-broker cluster).
var broker = func() string {
	if b := os.Getenv("GOBENCH_KAFKA_BROKERS"); b != "" {
		return b
	}
	return "127.0.0.1:9092"
}()

// requireKafka fails the test at once, naming the address, when no broker
// listens (start one with testenv/up.sh kafka): a real-server test never
// skips.
func requireKafka(t testing.TB) {
	t.Helper()
	addr := strings.Split(broker, ",")[0]
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		t.Fatalf("Kafka not reachable at %s (testenv/up.sh kafka, or set GOBENCH_KAFKA_BROKERS): %v", addr, err)
	}
	c.Close()
}

func openDB(t testing.TB, kv ...string) drivers.DB {
	t.Helper()
	var l props.Layers
	l.Add(props.LayerOverride, props.Value{Key: KeyBrokers, Value: broker, Source: "test"})
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

func topicName(prefix string) string {
	return fmt.Sprintf("gobenchtest_%s_%d", prefix, time.Now().UnixNano()%(1<<40))
}

func TestConformance(t *testing.T) {
	requireKafka(t)
	for _, reads := range []string{"state", "log"} {
		t.Run(reads, func(t *testing.T) {
			driverstest.Run(t, func(t *testing.T) drivers.DB {
				return openDB(t, KeyPartitions, "3", KeyReads, reads)
			}, driverstest.MaxValueSize(2<<20), driverstest.Workers(8))
		})
	}
}

// TestIndexRebuiltByNewDB writes with one DB and reads with another, which
// must build its index from the topic.
func TestIndexRebuiltByNewDB(t *testing.T) {
	requireKafka(t)
	ctx := t.Context()
	table := topicName("index")
	w := openDB(t, KeyPartitions, "2").(*DB)
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

	db := openDB(t).(*DB)
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
	if len(b) != 1 || b[0].Records < 4 || b[0].Keys != 2 || b[0].Prepared {
		t.Errorf("IndexBuilds = %+v, want one build at first use of at least 4 records, 2 live keys", b)
	}
}

// TestPrepareBuildsIndexBeforeUse: a DB prepared for a YCSB table builds
// the index in Prepare, so that the first read does not.
func TestPrepareBuildsIndexBeforeUse(t *testing.T) {
	requireKafka(t)
	ctx := t.Context()
	table := topicName("prepare")
	w := openDB(t).(*DB)
	defer w.DropTable(ctx, table)
	c, _ := w.Open(ctx)
	r := drivers.NewRecord(1)
	r.Set(0, []byte("v"))
	for i := range 50 {
		if err := c.Insert(ctx, table, []byte(fmt.Sprintf("k%02d", i)), r); err != nil {
			t.Fatal(err)
		}
	}
	c.Close(ctx)
	w.Close()

	var l props.Layers
	l.Add(props.LayerOverride, props.Value{Key: KeyBrokers, Value: broker, Source: "test"})
	s := driverstest.Schema()
	s.Table = table
	dbi, err := Driver{}.Configure(props.NewDecoder(l.Set()), s)
	if err != nil {
		t.Fatal(err)
	}
	db := dbi.(*DB)
	defer db.Close()
	if err := db.Prepare(ctx); err != nil {
		t.Fatalf("prepare: %v", err)
	}
	b := db.IndexBuilds()
	if len(b) != 1 || !b[0].Prepared || b[0].Keys != 50 {
		t.Fatalf("IndexBuilds after Prepare = %+v, want one prepared build of 50 keys", b)
	}
	if n := db.Notes(); len(n) != 1 || !strings.Contains(n[0], "before the measured phase") {
		t.Errorf("Notes = %q", n)
	}
	c2, _ := db.Open(ctx)
	defer c2.Close(ctx)
	if err := c2.Read(ctx, table, []byte("k07"), nil, drivers.NewRecord(1)); err != nil {
		t.Fatal(err)
	}
	if len(db.IndexBuilds()) != 1 {
		t.Errorf("a read after Prepare built the index again: %+v", db.IndexBuilds())
	}
}

// helperEnv makes the test binary, started again by TestReadsSeeOtherProcess,
// act as the second client process.
const helperEnv = "GOBENCH_KAFKA_TEST_HELPER"

func TestMain(m *testing.M) {
	if h := os.Getenv(helperEnv); h != "" {
		if err := helper(h); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// helper is the second process: "topic key value newkey" updates key to
// value and inserts newkey.
func helper(arg string) error {
	f := strings.Fields(arg)
	if len(f) != 4 {
		return fmt.Errorf("bad helper argument %q", arg)
	}
	var l props.Layers
	l.Add(props.LayerOverride, props.Value{Key: KeyBrokers, Value: broker, Source: "helper"})
	s := driverstest.Schema()
	s.Table = f[0]
	dbi, err := Driver{}.Configure(props.NewDecoder(l.Set()), s)
	if err != nil {
		return err
	}
	db := dbi.(*DB)
	defer db.Close()
	ctx := context.Background()
	if err := db.Prepare(ctx); err != nil {
		return err
	}
	c, err := db.Open(ctx)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	r := drivers.NewRecord(len(s.Fields))
	r.Set(1, []byte(f[2]))
	if err := c.Update(ctx, f[0], []byte(f[1]), r); err != nil {
		return err
	}
	r.Set(0, []byte("new"))
	return c.Insert(ctx, f[0], []byte(f[3]), r)
}

// TestReadsSeeOtherProcess: client 1 inserts and reads key k; client 2, a
// separate process, updates k and inserts k2; client 1's next read of k
// returns client 2's value and its scan finds k2, although client 1 never
// produced either record.
func TestReadsSeeOtherProcess(t *testing.T) {
	requireKafka(t)
	for _, reads := range []string{"state", "log"} {
		t.Run(reads, func(t *testing.T) { readsSeeOtherProcess(t, reads) })
	}
}

func readsSeeOtherProcess(t *testing.T, reads string) {
	ctx := t.Context()
	table := topicName("twoclients")
	db := openDB(t, KeyPartitions, "3", KeyReads, reads).(*DB)
	defer db.Close()
	defer db.DropTable(context.Background(), table)
	c, err := db.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	r := drivers.NewRecord(len(driverstest.Schema().Fields))
	r.Set(0, []byte("f0"))
	r.Set(1, []byte("client1"))
	for _, k := range []string{"k", "k1", "k3"} {
		if err := c.Insert(ctx, table, []byte(k), r); err != nil {
			t.Fatal(err)
		}
	}
	got := drivers.NewRecord(r.Len())
	if err := c.Read(ctx, table, []byte("k"), nil, got); err != nil {
		t.Fatal(err)
	}
	if v, _ := got.Get(1); string(v) != "client1" {
		t.Fatalf("k field 1 = %q before the other client wrote, want client1", v)
	}

	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+table+" k client2 k2", "GOBENCH_KAFKA_BROKERS="+broker)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("second client process: %v\n%s", err, out)
	}

	if err := c.Read(ctx, table, []byte("k"), nil, got); err != nil {
		t.Fatal(err)
	}
	if v, _ := got.Get(1); string(v) != "client2" {
		t.Errorf("k field 1 = %q after client 2 updated it, want client2", v)
	}
	if v, _ := got.Get(0); string(v) != "f0" {
		t.Errorf("k field 0 = %q, want f0 kept by client 2's update", v)
	}
	var keys []string
	err = c.Scan(ctx, table, []byte("k"), 10, nil, func(k []byte, r *drivers.Record) error {
		keys = append(keys, string(k))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"k", "k1", "k2", "k3"}; !slices.Equal(keys, want) {
		t.Errorf("scan = %q, want %q (k2 from client 2)", keys, want)
	}
	if err := c.Read(ctx, table, []byte("k2"), nil, got); err != nil {
		t.Errorf("read of k2, inserted by client 2: %v", err)
	}
}
