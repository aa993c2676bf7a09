package cluster

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The Go node table and the scripts' (fault.sh ports, from srv/cluster-common.sh) agree.
func TestNodeTableMatchesScripts(t *testing.T) {
	out, err := exec.Command("bash", "../fault.sh", "ports").Output()
	if err != nil {
		t.Fatalf("fault.sh ports: %v", err)
	}
	var got []node
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		n := node{name: f[0]}
		for _, p := range f[1:] {
			v, err := strconv.Atoi(p)
			if err != nil {
				t.Fatalf("fault.sh ports: bad line %q", line)
			}
			n.ports = append(n.ports, v)
		}
		got = append(got, n)
	}
	if len(got) != len(nodeTable) {
		t.Fatalf("fault.sh ports lists %d nodes, the Go table %d", len(got), len(nodeTable))
	}
	for i, n := range nodeTable {
		if got[i].name != n.name || !reflect.DeepEqual(got[i].ports, n.ports) {
			t.Errorf("node %d: fault.sh says %s %v, Go says %s %v", i, got[i].name, got[i].ports, n.name, n.ports)
		}
	}
}

func TestAddresses(t *testing.T) {
	if a, err := Addr("hbase-rs2"); err != nil || a != "127.0.0.1:26022" {
		t.Errorf("Addr(hbase-rs2) = %q, %v", a, err)
	}
	if _, err := Addr("hbase-rs4"); err == nil || !strings.Contains(err.Error(), "hbase-rs3") {
		t.Errorf("Addr(hbase-rs4) error = %v, want one listing the nodes", err)
	}
	if got := KafkaBrokers(); !reflect.DeepEqual(got, []string{"127.0.0.1:19091", "127.0.0.1:19092", "127.0.0.1:19093"}) {
		t.Errorf("KafkaBrokers() = %v", got)
	}
	if got := DataNodeAddrs(); len(got) != 3 || got[0] != "127.0.0.1:29101" {
		t.Errorf("DataNodeAddrs() = %v", got)
	}
	if got := RegionServerAddrs(); len(got) != 3 || got[2] != "127.0.0.1:26023" {
		t.Errorf("RegionServerAddrs() = %v", got)
	}
	if got := Nodes("kafka"); !reflect.DeepEqual(got, []string{"kafka1", "kafka2", "kafka3"}) {
		t.Errorf("Nodes(kafka) = %v", got)
	}
	if RegionServerNode(26021) != "hbase-rs1" || RegionServerNode(26000) != "" {
		t.Errorf("RegionServerNode: 26021 -> %q, 26000 -> %q", RegionServerNode(26021), RegionServerNode(26000))
	}
}

func TestParseList(t *testing.T) {
	out := `NODE          STATE  PID           RSS  ADDRESS          LOG
hdfs-nn       up     31276     204 MiB  127.0.0.1:29000  /tmp/gobench-testenv/cluster/hdfs-nn/out
hbase-rs3     frozen 4856      312 MiB  127.0.0.1:26023  /tmp/gobench-testenv/cluster/hbase-rs3/out
kafka1        down   -               -  127.0.0.1:19091  -
`
	got, err := parseList(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []NodeStatus{
		{Name: "hdfs-nn", State: "up", PID: 31276, RSSMiB: 204, Addr: "127.0.0.1:29000"},
		{Name: "hbase-rs3", State: "frozen", PID: 4856, RSSMiB: 312, Addr: "127.0.0.1:26023"},
		{Name: "kafka1", State: "down", Addr: "127.0.0.1:19091"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseList =\n%+v\nwant\n%+v", got, want)
	}
	if _, err := parseList("kafka1 up 12 x MiB a b"); err == nil {
		t.Error("parseList accepted a bad RSS")
	}
}

func TestParseAnswers(t *testing.T) {
	r, err := parseRegions([]string{`e7fc957f4dfc0b72dc7cb33a85df374b hbase-rs2 "" user1391`, `688284b8bbce66c47e452023cb6161b4 - user1391 user\x00`})
	if err != nil {
		t.Fatal(err)
	}
	want := []Region{{"e7fc957f4dfc0b72dc7cb33a85df374b", "hbase-rs2", "", "user1391"}, {"688284b8bbce66c47e452023cb6161b4", "", "user1391", `user\x00`}}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("parseRegions = %+v, want %+v", r, want)
	}
	m, err := parseMoves([]string{"moved e7fc hbase-rs2 -> hbase-rs1"})
	if err != nil || !reflect.DeepEqual(m, []Move{{"e7fc", "hbase-rs2", "hbase-rs1"}}) {
		t.Errorf("parseMoves = %+v, %v", m, err)
	}
	per, err := parsePerServer([]string{"created t24: 24 regions open: hbase-rs1=8 hbase-rs2=7 hbase-rs3=9"})
	if err != nil || !reflect.DeepEqual(per, map[string]int{"hbase-rs1": 8, "hbase-rs2": 7, "hbase-rs3": 9}) {
		t.Errorf("parsePerServer = %v, %v", per, err)
	}
	p, err := parsePartitions([]string{"0 kafka2 replicas=kafka1,kafka2,kafka3 isr=kafka2,kafka3", "1 - replicas=kafka1 isr="})
	if err != nil {
		t.Fatal(err)
	}
	wantP := []Partition{{0, "kafka2", []string{"kafka1", "kafka2", "kafka3"}, []string{"kafka2", "kafka3"}}, {1, "", []string{"kafka1"}, nil}}
	if !reflect.DeepEqual(p, wantP) {
		t.Errorf("parsePartitions = %+v, want %+v", p, wantP)
	}
}

// With no cluster (an empty run directory) Check fails and names the up command; the
// node actions fail with fault.sh's message.
func TestCheckWithoutCluster(t *testing.T) {
	t.Setenv("GOBENCH_RUN", t.TempDir())
	c, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	err = c.Check(ctx, "hbase")
	if err == nil || !strings.Contains(err.Error(), "testenv/up.sh --cluster hdfs hbase") || !strings.Contains(err.Error(), "hbase-rs1 down") {
		t.Errorf("Check(hbase) = %v, want the nodes down and the up command", err)
	}
	if err := c.Check(ctx, "zookeeper"); err == nil || !strings.Contains(err.Error(), "allowed: hdfs, hbase, kafka") {
		t.Errorf("Check(zookeeper) = %v", err)
	}
	if err := c.Kill(ctx, "kafka2"); err == nil || !strings.Contains(err.Error(), "not part of a running cluster") {
		t.Errorf("Kill(kafka2) without a cluster = %v", err)
	}
	if err := c.Freeze(ctx, "kafka2", -time.Second); err == nil {
		t.Error("Freeze with a negative duration: no error")
	}
	if err := c.Restart(ctx, "kafka9"); err == nil || !strings.Contains(err.Error(), "unknown cluster node") {
		t.Errorf("Restart(kafka9) = %v", err)
	}
}

// The helper protocol against a stand-in fault.sh: answers, errors, a helper that
// hangs (the context ends it, the next call starts a new one) and one that exits.
func TestShellProtocol(t *testing.T) {
	dir := t.TempDir()
	script := `#!/usr/bin/env bash
echo "> ok ready"
while read -r cmd arg; do
	case $cmd in
	echo) echo "$arg"; echo "> ok" ;;
	fail) echo "> err IllegalStateException: $arg" ;;
	hang) sleep 30 ;;
	exit) echo "bye" >&2; exit 3 ;;
	quit) exit 0 ;;
	esac
done
`
	if err := os.WriteFile(filepath.Join(dir, "fault.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOBENCH_TESTENV", dir)
	c, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if l, err := c.do(ctx, "hbase", "echo", "x1"); err != nil || !reflect.DeepEqual(l, []string{"x1"}) {
		t.Fatalf("echo = %q, %v", l, err)
	}
	if _, err := c.do(ctx, "hbase", "fail", "boom"); err == nil || !strings.Contains(err.Error(), "IllegalStateException: boom") {
		t.Fatalf("fail = %v", err)
	}
	if _, err := c.do(ctx, "hbase", "echo", "two words"); err == nil || !strings.Contains(err.Error(), "white space") {
		t.Fatalf("an argument with a space = %v", err)
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	t0 := time.Now()
	_, err = c.do(short, "hbase", "hang")
	cancel()
	if err == nil || time.Since(t0) > 5*time.Second {
		t.Fatalf("hang = %v after %v, want the context's error at once", err, time.Since(t0))
	}
	if l, err := c.do(ctx, "hbase", "echo", "x2"); err != nil || !reflect.DeepEqual(l, []string{"x2"}) {
		t.Fatalf("echo after a hang = %q, %v (want a fresh helper)", l, err)
	}
	if _, err := c.do(ctx, "hbase", "exit"); err == nil || !strings.Contains(err.Error(), "bye") {
		t.Fatalf("exit = %v, want the helper's stderr", err)
	}
	if l, err := c.do(ctx, "hbase", "echo", "x3"); err != nil || !reflect.DeepEqual(l, []string{"x3"}) {
		t.Fatalf("echo after an exit = %q, %v", l, err)
	}
}
