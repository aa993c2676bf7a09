//go:build integration

package smoke

import (
	"net"
	"testing"
	"time"
)

// Fixed addresses of the servers started by testenv/up.sh.
const (
	kafkaAddr = "127.0.0.1:9092"
	hdfsAddr  = "127.0.0.1:9000"
	zkAddr    = "127.0.0.1:2181"
)

// requireUp fails the test (never skips) when nothing listens on addr.
func requireUp(t *testing.T, name, addr string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 3*time.Second)
	if err != nil {
		t.Fatalf("%s is not reachable at %s (%v); start it with: testenv/up.sh %s", name, addr, err, name)
	}
	c.Close()
}
