//go:build linux

package hbtest

import (
	"fmt"
	"net"
	"syscall"
	"testing"
	"time"
)

// BlackholeListener returns the address of a real TCP port on 127.0.0.1
// whose listen queue is full and never drained, so a connect to it hangs
// (the kernel drops the SYNs) until the dialler gives up: a RegionServer
// host that fell off the network, for tests against the real HBase. It is
// closed when the test ends.
func BlackholeListener(t testing.TB) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatalf("hbtest: blackhole socket: %v", err)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		syscall.Close(fd)
		t.Fatalf("hbtest: blackhole bind: %v", err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		syscall.Close(fd)
		t.Fatalf("hbtest: blackhole listen: %v", err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		syscall.Close(fd)
		t.Fatalf("hbtest: blackhole address: %v", err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
	// Nothing accepts: the first connection(s) fill the queue, later SYNs
	// are dropped.
	var fill []net.Conn
	full := false
	for i := 0; i < 8 && !full; i++ {
		c, err := net.DialTimeout("tcp", addr, 300*time.Millisecond)
		if err != nil {
			full = true
			break
		}
		fill = append(fill, c)
	}
	t.Cleanup(func() {
		for _, c := range fill {
			c.Close()
		}
		syscall.Close(fd)
	})
	if !full {
		t.Fatalf("hbtest: the listen queue of %s never filled (%d connections queued)", addr, len(fill))
	}
	return addr
}
