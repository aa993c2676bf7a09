package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Fixed addresses of the cluster (testenv/srv/cluster-*.sh; fault.sh ports lists them).
const (
	NameNodeAddr  = "127.0.0.1:29000" // HDFS NameNode RPC (fs.defaultFS hdfs://127.0.0.1:29000)
	NameNodeHTTP  = "127.0.0.1:29870" // NameNode HTTP: JMX, WebHDFS
	ZooKeeperAddr = "127.0.0.1:22181" // HBase's ZooKeeper; znode parent /hbase
	MasterAddr    = "127.0.0.1:26000" // HMaster RPC
)

// Systems of the cluster, in start order.
var systems = []string{"hdfs", "hbase", "kafka"}

// node is one JVM of the cluster: its name, system and ports (the first is its address).
type node struct {
	name   string
	system string
	ports  []int
}

var nodeTable = []node{
	{"hdfs-nn", "hdfs", []int{29000, 29870}},
	{"hdfs-dn1", "hdfs", []int{29101, 29201, 29301}},
	{"hdfs-dn2", "hdfs", []int{29102, 29202, 29302}},
	{"hdfs-dn3", "hdfs", []int{29103, 29203, 29303}},
	{"hbase-zk", "hbase", []int{22181}},
	{"hbase-master", "hbase", []int{26000}},
	{"hbase-rs1", "hbase", []int{26021}},
	{"hbase-rs2", "hbase", []int{26022}},
	{"hbase-rs3", "hbase", []int{26023}},
	{"kafka1", "kafka", []int{19091, 19191}},
	{"kafka2", "kafka", []int{19092, 19192}},
	{"kafka3", "kafka", []int{19093, 19193}},
}

func lookup(name string) (node, error) {
	for _, n := range nodeTable {
		if n.name == name {
			return n, nil
		}
	}
	return node{}, fmt.Errorf("unknown cluster node %q (allowed: %s)", name, strings.Join(Nodes(), ", "))
}

// Nodes returns the names of the nodes of the given systems ("hdfs", "hbase",
// "kafka"; none: all), in start order.
func Nodes(system ...string) []string {
	var out []string
	for _, n := range nodeTable {
		if len(system) == 0 || slices.Contains(system, n.system) {
			out = append(out, n.name)
		}
	}
	return out
}

// Addr returns the main address of a node (127.0.0.1:PORT): the NameNode's RPC, a
// DataNode's data transfer, a RegionServer's RPC, a broker's listener.
func Addr(name string) (string, error) {
	n, err := lookup(name)
	if err != nil {
		return "", err
	}
	return "127.0.0.1:" + strconv.Itoa(n.ports[0]), nil
}

func addrs(system, prefix string) []string {
	var out []string
	for _, n := range nodeTable {
		if n.system == system && strings.HasPrefix(n.name, prefix) {
			out = append(out, "127.0.0.1:"+strconv.Itoa(n.ports[0]))
		}
	}
	return out
}

// DataNodeAddrs returns the data transfer addresses of hdfs-dn1..3.
func DataNodeAddrs() []string { return addrs("hdfs", "hdfs-dn") }

// RegionServerAddrs returns the RPC addresses of hbase-rs1..3. They register in
// ZooKeeper as localhost:PORT.
func RegionServerAddrs() []string { return addrs("hbase", "hbase-rs") }

// KafkaBrokers returns the bootstrap addresses of kafka1..3 (broker N is node.id N).
func KafkaBrokers() []string { return addrs("kafka", "kafka") }

// RegionServerNode returns the node name of the RegionServer on port (as in a
// ServerName localhost,26022,...), or "" if no RegionServer has that port.
func RegionServerNode(port int) string {
	for _, n := range nodeTable {
		if n.system == "hbase" && strings.HasPrefix(n.name, "hbase-rs") && n.ports[0] == port {
			return n.name
		}
	}
	return ""
}

// RunDir returns the testenv run directory: GOBENCH_RUN, else $TMPDIR/gobench-testenv
// (as testenv/lib.sh).
func RunDir() string {
	if d := os.Getenv("GOBENCH_RUN"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "gobench-testenv")
}

// NodeDir returns the directory of a node: its data/ (NameNode metadata, DataNode
// blocks, ZooKeeper snapshots, Kafka log dirs), out (its log), conf/, tmp/.
func NodeDir(name string) (string, error) {
	if _, err := lookup(name); err != nil {
		return "", err
	}
	return filepath.Join(RunDir(), "cluster", name), nil
}
