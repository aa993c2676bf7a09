//go:build integration

package smoke

import (
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// TestHBaseMetaRegionServer reads /hbase/meta-region-server from HBase's ZooKeeper,
// decodes the server name and checks that the RegionServer it names accepts connections.
func TestHBaseMetaRegionServer(t *testing.T) {
	requireUp(t, "hbase", zkAddr)
	conn, _, err := zk.Connect([]string{zkAddr}, 10*time.Second, zk.WithLogInfo(false))
	if err != nil {
		t.Fatalf("connect to zookeeper %s: %v", zkAddr, err)
	}
	defer conn.Close()

	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, _, err := conn.Get("/hbase/meta-region-server")
		done <- result{data, err}
	}()
	var res result
	select {
	case res = <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("get /hbase/meta-region-server from %s: no answer in 20s", zkAddr)
	}
	if res.err != nil {
		t.Fatalf("get /hbase/meta-region-server from %s: %v", zkAddr, res.err)
	}
	mr, err := DecodeMetaRegionServer(res.data)
	if err != nil {
		t.Fatalf("decode /hbase/meta-region-server (%x): %v", res.data, err)
	}
	t.Logf("hbase:meta at %s:%d (start code %d, state %d)", mr.Host, mr.Port, mr.StartCode, mr.State)
	if mr.Host == "" || mr.Port == 0 {
		t.Fatalf("meta region server = %+v, want a host and a port", mr)
	}
	if mr.State != -1 && mr.State != metaStateOpen {
		t.Errorf("meta region state = %d, want %d (OPEN)", mr.State, metaStateOpen)
	}
	addr := net.JoinHostPort(mr.Host, strconv.Itoa(int(mr.Port)))
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatalf("dial the meta RegionServer %s: %v", addr, err)
	}
	c.Close()
}
