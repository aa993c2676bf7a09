//go:build linux

package iperf3

import (
	"net"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

func rawOf(c net.Conn) syscall.RawConn {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return rc
}

// tcpInfo reads TCP_INFO: retransmissions so far and the congestion window
// in bytes.
func tcpInfo(c net.Conn) (retransmits, cwnd int64, ok bool) {
	rc := rawOf(c)
	if rc == nil {
		return 0, 0, false
	}
	var ti *unix.TCPInfo
	var err error
	if cerr := rc.Control(func(fd uintptr) { ti, err = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO) }); cerr != nil || err != nil {
		return 0, 0, false
	}
	return int64(ti.Total_retrans), int64(ti.Snd_cwnd) * int64(ti.Snd_mss), true
}

func fdOf(c net.Conn) int {
	rc := rawOf(c)
	fd := -1
	if rc != nil {
		rc.Control(func(f uintptr) { fd = int(f) })
	}
	return fd
}

// cpuTimes is the process's CPU time so far.
type cpuTimes struct{ user, sys time.Duration }

func cpuNow() cpuTimes {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return cpuTimes{}
	}
	return cpuTimes{time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())}
}

// since returns the CPU used since c0 as percentages of wall seconds:
// total, user, system (iperf3's cpu_util).
func (c cpuTimes) since(c0 cpuTimes, wall float64) (total, user, sys float64) {
	if wall <= 0 {
		return 0, 0, 0
	}
	user = 100 * (c.user - c0.user).Seconds() / wall
	sys = 100 * (c.sys - c0.sys).Seconds() / wall
	return user + sys, user, sys
}
