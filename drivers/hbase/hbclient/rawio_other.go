//go:build !linux

package hbclient

import "net"

// rawIO is Linux-only (see rawio.go); elsewhere connections use net.Conn's
// Read and Write.
type rawIO struct{}

func newRawIO(net.Conn) *rawIO { return nil }

func (*rawIO) Read([]byte) (int, error) { panic("hbclient: rawIO outside Linux") }

func (*rawIO) write([]byte) error { panic("hbclient: rawIO outside Linux") }
