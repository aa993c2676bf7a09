//go:build linux

package hbtest

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"
)

func TestBlackholeListener(t *testing.T) {
	addr := BlackholeListener(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err == nil {
		c.Close()
		t.Fatalf("dial %s succeeded; want it to hang until the context ends", addr)
	}
	if !errors.Is(err, context.DeadlineExceeded) && time.Since(start) < 250*time.Millisecond {
		t.Fatalf("dial %s failed after %v with %v; want a hang until the 300ms deadline", addr, time.Since(start), err)
	}
}
