//go:build !linux

package iperf3

import "net"

func tcpInfo(net.Conn) (retransmits, cwnd int64, ok bool) { return 0, 0, false }
func fdOf(net.Conn) int                                   { return -1 }

type cpuTimes struct{}

func cpuNow() cpuTimes                                              { return cpuTimes{} }
func (cpuTimes) since(cpuTimes, float64) (total, user, sys float64) { return 0, 0, 0 }
