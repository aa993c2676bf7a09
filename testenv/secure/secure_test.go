package secure

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The Go node table is the scripts' (testenv/secure.sh ports, from sec_ports).
func TestPortsMatchScript(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatalf("bash is needed to run testenv/secure.sh: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "bash", "../secure.sh", "ports").Output()
	if err != nil {
		t.Fatalf("secure.sh ports: %v", err)
	}
	var got []node
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		n := node{name: f[0]}
		for _, p := range f[1:] {
			v, err := strconv.Atoi(p)
			if err != nil {
				t.Fatalf("line %q: %v", l, err)
			}
			n.ports = append(n.ports, v)
		}
		got = append(got, n)
	}
	if len(got) != len(nodes) {
		t.Fatalf("secure.sh ports lists %d nodes, the Go table %d:\n%s", len(got), len(nodes), out)
	}
	for i := range nodes {
		if got[i].name != nodes[i].name || !slices.Equal(got[i].ports, nodes[i].ports) {
			t.Errorf("node %d: script %v, Go %v", i, got[i], nodes[i])
		}
	}
	for _, a := range []struct {
		addr string
		node string
		port int
	}{{NameNodeAddr, "hdfs-nn", 0}, {DataNodeAddr, "hdfs-dn", 0}, {ZooKeeperAddr, "hbase-zk", 0},
		{MasterAddr, "hbase-master", 0}, {RegionServerAddr, "hbase-rs", 0}, {KafkaSASLSSL, "kafka", 0},
		{KafkaSASLPlaintext, "kafka", 1}, {KafkaSSL, "kafka", 2}, {KDCAddr, "kdc", 0}} {
		for _, n := range nodes {
			if n.name == a.node && !strings.HasSuffix(a.addr, ":"+strconv.Itoa(n.ports[a.port])) {
				t.Errorf("%s: want port %d of %s", a.addr, n.ports[a.port], a.node)
			}
		}
	}
}

func TestPrincipal(t *testing.T) {
	for in, want := range map[string]string{
		"nn": "nn/localhost@GOBENCH.TEST", "hbase": "hbase/localhost@GOBENCH.TEST",
		"HTTP": "HTTP/localhost@GOBENCH.TEST", "jason": "jason@GOBENCH.TEST", "nogrant": "nogrant@GOBENCH.TEST",
	} {
		if got := Principal(in); got != want {
			t.Errorf("Principal(%q) = %q, want %q", in, got, want)
		}
	}
}

func openIn(t *testing.T, run string) *Env {
	t.Helper()
	t.Setenv("GOBENCH_RUN", run)
	e, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestPasswordsAndPaths(t *testing.T) {
	run := t.TempDir()
	e := openIn(t, run)
	if _, err := e.Password(Jason); err == nil || !strings.Contains(err.Error(), "testenv/up.sh --secure") {
		t.Fatalf("no secrets yet: err = %v, want one naming testenv/up.sh --secure", err)
	}
	if got := e.Secrets(); len(got) != 0 {
		t.Fatalf("Secrets() = %d entries before setup, want none", len(got))
	}
	sec := filepath.Join(run, "secure", "secrets")
	if err := os.MkdirAll(sec, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]string{"jason.password": "pw-j\n", "nogrant.password": "pw-n", "store.password": "pw-s\n"} {
		if err := os.WriteFile(filepath.Join(sec, name), []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if p, err := e.Password(Jason); err != nil || p != "pw-j" {
		t.Fatalf("Password(jason) = %q, %v; want pw-j", p, err)
	}
	if _, err := e.Password("root"); err == nil || !strings.Contains(err.Error(), "not a test user") {
		t.Fatalf("Password(root): err = %v", err)
	}
	if got := e.Secrets(); !slices.Equal(got, []string{"pw-j", "pw-n", "pw-s"}) {
		t.Fatalf("Secrets() = %q", got)
	}
	d := filepath.Join(run, "secure")
	for got, want := range map[string]string{
		e.Krb5Conf():                       d + "/krb5.conf",
		e.ConfDir():                        d + "/conf",
		e.Keytab("hbase"):                  d + "/keytabs/hbase.keytab",
		e.CCache(Jason):                    d + "/ccache/jason",
		e.KafkaProps(NoGrant, KafkaGSSAPI): d + "/conf/kafka-nogrant-gssapi.properties",
		e.Truststore("jks"):                d + "/tls/truststore.jks",
		e.Keystore(Jason, "p12"):           d + "/tls/jason.p12",
		e.ClientEncKey(Jason):              d + "/tls/jason.enc.key",
		e.CACert():                         d + "/tls/ca.pem",
	} {
		if got != want {
			t.Errorf("path %q, want %q", got, want)
		}
	}
}

func TestCheckNotUp(t *testing.T) {
	e := openIn(t, t.TempDir())
	err := e.Check("hbase")
	if err == nil {
		t.Fatal("Check on an empty run directory: no error")
	}
	for _, want := range []string{"krb5.conf", "testenv/up.sh --secure hbase"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if err := e.Check("yarn"); err == nil || !strings.Contains(err.Error(), `unknown system "yarn"`) {
		t.Errorf("Check(yarn): %v", err)
	}
}

func TestListeningIn(t *testing.T) {
	const table = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:6DB8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0000000000000000 100 0 0 10 0
   1: 0100007F:6D60 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 2 1 0000000000000000 20 4 30 10 -1
   2: 00000000:6D6A 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 3 1 0000000000000000 100 0 0 10 0
   3: 0200007F:6D74 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4 1 0000000000000000 100 0 0 10 0
`
	for port, want := range map[int]bool{28088: true, 28000: false, 28010: true, 28020: false, 9092: false} {
		if got := listeningIn(bufio.NewScanner(strings.NewReader(table)), port); got != want {
			t.Errorf("port %d: listening %v, want %v", port, got, want)
		}
	}
}

// The users, services, realm, namespace and Kafka prefix are the scripts' (secure.sh info).
func TestInfoMatchesScript(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "bash", "../secure.sh", "info").Output()
	if err != nil {
		t.Fatalf("secure.sh info: %v", err)
	}
	kv := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			kv[k] = v
		}
	}
	for k, want := range map[string]string{
		"realm": Realm, "kdc": KDCAddr, "users": strings.Join(Users, " "), "services": strings.Join(Services, " "),
		"namespace": Namespace, "kafka_prefix": KafkaPrefix,
	} {
		if kv[k] != want {
			t.Errorf("secure.sh info %s=%q, Go %q", k, kv[k], want)
		}
	}
}
