package hbtest

import (
	"context"
	"fmt"
	"net"
	"sync"
	"syscall"
	"testing"
)

// Net is an in-memory network of fake servers, one behaviour per address,
// for tests that need dials to reach different servers (a region moving
// from one RegionServer to another, a dead server beside a live one). Use
// [Net.Dial] as hbclient.Options.Dial. An address nobody set up refuses
// connections. Safe for concurrent use.
type Net struct {
	t     testing.TB
	mu    sync.Mutex
	hosts map[string]*host
}

type hostMode uint8

const (
	modeServe     hostMode = iota // a new Server per dial
	modeRefuse                    // dials fail at once
	modeBlackhole                 // dials hang until their context ends
)

type host struct {
	mode        hostMode
	handle      Handler
	refuseCodec bool
	dials       int
	servers     []*Server
}

// NewNet returns an empty network.
func NewNet(t testing.TB) *Net { return &Net{t: t, hosts: make(map[string]*host)} }

func (n *Net) host(addr string) *host {
	h := n.hosts[addr]
	if h == nil {
		h = &host{mode: modeRefuse}
		n.hosts[addr] = h
	}
	return h
}

// Serve makes addr accept connections, each served by a new [Server]
// running handle (nil: a server that reads requests and never answers).
// Connections already open keep their handler.
func (n *Net) Serve(addr string, handle Handler) {
	n.mu.Lock()
	defer n.mu.Unlock()
	h := n.host(addr)
	h.mode, h.handle = modeServe, handle
}

// Refuse makes dials to addr fail at once, like a closed port. Open
// connections stay up (see [Net.Disconnect]).
func (n *Net) Refuse(addr string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.host(addr).mode = modeRefuse
}

// Blackhole makes dials to addr hang until the dialler's context ends, like
// a host that drops every packet.
func (n *Net) Blackhole(addr string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.host(addr).mode = modeBlackhole
}

// RefuseCodec makes the servers of addr answer a connection header that
// names a cell-block codec with a fatal UnsupportedCellCodecException
// (call id -1) and close, as a server that cannot load the codec does.
func (n *Net) RefuseCodec(addr string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.host(addr).refuseCodec = true
}

// Disconnect closes, from the server side, every connection open to addr.
func (n *Net) Disconnect(addr string) {
	n.mu.Lock()
	servers := append([]*Server(nil), n.host(addr).servers...)
	n.mu.Unlock()
	for _, s := range servers {
		s.Close()
	}
}

// Dials returns how many dials reached addr (blackholed and refused ones
// included).
func (n *Net) Dials(addr string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.host(addr).dials
}

// Servers lists the servers of the connections accepted at addr so far.
func (n *Net) Servers(addr string) []*Server {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]*Server(nil), n.host(addr).servers...)
}

// Dial connects to addr as the address's behaviour says.
func (n *Net) Dial(ctx context.Context, addr string) (net.Conn, error) {
	n.mu.Lock()
	h := n.host(addr)
	h.dials++
	mode, handle, refuseCodec := h.mode, h.handle, h.refuseCodec
	n.mu.Unlock()
	switch mode {
	case modeBlackhole:
		<-ctx.Done()
		return nil, fmt.Errorf("hbtest: dial %s: %w", addr, ctx.Err())
	case modeRefuse:
		return nil, fmt.Errorf("hbtest: dial %s: %w", addr, syscall.ECONNREFUSED)
	}
	s, cli := newServer(n.t, handle, refuseCodec)
	n.mu.Lock()
	h.servers = append(h.servers, s)
	n.mu.Unlock()
	return cli, nil
}
