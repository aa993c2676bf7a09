package hbase

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/hbase/hbclient"
	"github.com/gobench/gobench/props"
)

func decodeKV(t *testing.T, kv ...string) (Config, error) {
	t.Helper()
	var s props.Set
	for i := 0; i < len(kv); i += 2 {
		s.Add(props.Value{Key: kv[i], Value: kv[i+1], Source: "test.properties", Line: i/2 + 1})
	}
	return decode(props.NewDecoder(&s))
}

func TestDecodeDefaults(t *testing.T) {
	cfg, err := decodeKV(t)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Family: "family", WriteBufferSize: 12 << 20, MultiSize: 1000, CheckTable: true, Client: hbclient.Options{
		ZKQuorum: []string{"127.0.0.1:2181"}, ZNodeParent: "/hbase", User: "gobench",
		OperationTimeout: 60 * time.Second, RPCTimeout: 60 * time.Second, RetryPause: 100 * time.Millisecond,
		Retries: 15, FailedServerExpiry: 2 * time.Second}}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("defaults:\n got %+v\nwant %+v", cfg, want)
	}
}

func TestDecodeProperties(t *testing.T) {
	cfg, err := decodeKV(t, KeyColumnFamily, "cf", KeyClientBuffering, "TRUE", KeyWriteBufferSize, "2MB",
		KeyDurability, "skip_wal", KeyQuorum, "zk1, zk2:2182", KeyClientPort, "2888", KeyZNodeParent, "/hbase-unsecure/",
		KeyCreateTable, "true", KeySplits, "200", KeyDropTable, "true", KeyOpTimeout, "1500", KeyRPCTimeout, "2s",
		KeyPause, "50", KeyUsePageFilter, "false", KeyDebug, "true", KeyUser, "ycsb")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Family != "cf" || !cfg.ClientBuffering || cfg.WriteBufferSize != 2<<20 || cfg.Durability != hbclient.SkipWAL ||
		!cfg.CreateTable || cfg.Splits != 200 || !cfg.DropTable {
		t.Errorf("decoded %+v", cfg)
	}
	o := cfg.Client
	if !reflect.DeepEqual(o.ZKQuorum, []string{"zk1:2888", "zk2:2182"}) || o.ZNodeParent != "/hbase-unsecure" ||
		o.OperationTimeout != 1500*time.Millisecond || o.RPCTimeout != 2*time.Second || o.RetryPause != 50*time.Millisecond || o.User != "ycsb" {
		t.Errorf("client options %+v", o)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		kv   []string
		want string // in the error text
	}{
		{[]string{KeyDurability, "true"}, KeyDurability},
		{[]string{KeyScanValueFilter, "true"}, KeyScanValueFilter},
		{[]string{KeyPrincipal, "me@REALM"}, "Kerberos"},
		{[]string{KeyColumnFamily, ""}, KeyColumnFamily},
		{[]string{KeyZNodeParent, "hbase"}, KeyZNodeParent},
		{[]string{KeySplits, "-1"}, KeySplits},
		{[]string{KeyClientBuffering, "yes"}, KeyClientBuffering},
		{[]string{KeyConfDir, "/nonexistent/gobench"}, "hbase-site.xml"},
		{[]string{KeyQuorum, " , "}, KeyQuorum},
		{[]string{KeyHosts, "rs1"}, KeyHosts},
	} {
		_, err := decodeKV(t, tc.kv...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("decode %q: %v; want an error mentioning %q", tc.kv, err, tc.want)
		}
	}
	// Every problem is reported at once.
	_, err := decodeKV(t, KeyDurability, "x", KeySplits, "x")
	if err == nil || !strings.Contains(err.Error(), KeyDurability) || !strings.Contains(err.Error(), KeySplits) {
		t.Errorf("two bad keys: %v", err)
	}
}

const siteXMLText = `<?xml version="1.0"?>
<configuration>
  <property><name>hbase.cluster.distributed</name><value>true</value></property>
  <property><name>hbase.zookeeper.quorum</name><value>zka,zkb</value></property>
  <property><name>hbase.zookeeper.property.clientPort</name><value> 2183 </value></property>
  <property><name>zookeeper.znode.parent</name><value>/hbase-secure</value></property>
</configuration>`

func TestHBaseSiteXML(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hbase-site.xml"), []byte(siteXMLText), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := decodeKV(t, KeyConfDir, dir)
	if err != nil || !reflect.DeepEqual(cfg.Client.ZKQuorum, []string{"zka:2183", "zkb:2183"}) || cfg.Client.ZNodeParent != "/hbase-secure" {
		t.Errorf("from %s: quorum %v parent %q, %v", KeyConfDir, cfg.Client.ZKQuorum, cfg.Client.ZNodeParent, err)
	}
	// YCSB's -cp: jars and missing directories are skipped; properties win.
	cp := strings.Join([]string{"/opt/x.jar", filepath.Join(dir, "missing"), dir}, string(os.PathListSeparator))
	cfg, err = decodeKV(t, KeyClasspath, cp, KeyZNodeParent, "/mine", KeyClientPort, "3000")
	if err != nil || !reflect.DeepEqual(cfg.Client.ZKQuorum, []string{"zka:3000", "zkb:3000"}) || cfg.Client.ZNodeParent != "/mine" {
		t.Errorf("from %s: quorum %v parent %q, %v", KeyClasspath, cfg.Client.ZKQuorum, cfg.Client.ZNodeParent, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hbase-site.xml"), []byte("<configuration><property>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := decodeKV(t, KeyConfDir, dir); err == nil || !strings.Contains(err.Error(), "parse") {
		t.Errorf("broken hbase-site.xml: %v; want a parse error", err)
	}
}

func TestSplitKeys(t *testing.T) {
	for _, tc := range []struct {
		n           int
		first, last string
	}{{1, "user9999", "user9999"}, {10, "user1899", "user9999"}, {200, "user1044", "user9999"}} {
		keys := SplitKeys(tc.n)
		if len(keys) != tc.n || string(keys[0]) != tc.first || string(keys[tc.n-1]) != tc.last {
			t.Errorf("SplitKeys(%d): %d keys %q..%q; want %s..%s", tc.n, len(keys), keys[0], keys[len(keys)-1], tc.first, tc.last)
		}
		for i := 1; i < len(keys); i++ {
			if bytes.Compare(keys[i-1], keys[i]) >= 0 {
				t.Errorf("SplitKeys(%d) not increasing at %d: %q, %q", tc.n, i, keys[i-1], keys[i])
			}
		}
	}
	if len(SplitKeys(0)) != 0 {
		t.Errorf("SplitKeys(0) not empty")
	}
}

func TestRegistered(t *testing.T) {
	for _, name := range []string{"hbase", "hbase1", "hbase2", "hbase10", "hbase12", "hbase14", "hbase20", "site.ycsb.db.hbase2.HBaseClient2"} {
		if c, ok := drivers.Canonical(name); !ok || c != "hbase" {
			t.Errorf("Canonical(%q) = %q, %v; want hbase", name, c, ok)
		}
	}
	seen := map[string]bool{}
	for _, k := range (Driver{}).Keys() {
		if seen[k.Name] || k.Usage == "" {
			t.Errorf("key %q duplicated or without usage", k.Name)
		}
		seen[k.Name] = true
	}
}

func TestWriteBuffer(t *testing.T) {
	var b writeBuffer
	row, val := []byte("row"), []byte("value")
	quals := [][]byte{[]byte("f0")}
	m := hbclient.Mutation{Row: row, Type: hbclient.Put, Family: []byte("f"), Qualifiers: quals, Values: [][]byte{val}}
	b.add(&m)
	row[0], val[0] = 'X', 'X' // the caller reuses its buffers
	b.add(&hbclient.Mutation{Row: []byte("del"), Type: hbclient.Delete})
	if b.len() != 2 || string(b.muts[0].Row) != "row" || string(b.muts[0].Values[0]) != "value" || b.muts[1].Qualifiers != nil || b.bytes <= 0 {
		t.Fatalf("buffered %+v (bytes %d)", b.muts, b.bytes)
	}
	big := make([]byte, chunkSize+1)
	b.add(&hbclient.Mutation{Row: []byte("big"), Type: hbclient.Put, Family: []byte("f"), Qualifiers: quals, Values: [][]byte{big}})
	if string(b.muts[0].Values[0]) != "value" || len(b.muts[2].Values[0]) != len(big) {
		t.Fatalf("a chunk overflow corrupted earlier entries")
	}
	b.reset()
	if b.len() != 0 || b.bytes != 0 {
		t.Fatalf("reset left %d mutations, %d bytes", b.len(), b.bytes)
	}
	if raceEnabled {
		return
	}
	if n := testing.AllocsPerRun(1000, func() {
		if b.len() >= 500 {
			b.reset()
		}
		b.add(&m)
	}); n > 0 {
		t.Errorf("buffering a put allocates %.2f times, want 0", n)
	}
}

func TestHostsMapping(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	cfg, err := decodeKV(t, KeyHosts, "rs1.internal.example=127.0.0.1, other=10.0.0.1")
	if err != nil || cfg.Client.Dial == nil {
		t.Fatalf("decode %s: %v", KeyHosts, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := cfg.Client.Dial(ctx, net.JoinHostPort("rs1.internal.example", port))
	if err != nil {
		t.Fatalf("dial the mapped name: %v", err)
	}
	c.Close()
}
