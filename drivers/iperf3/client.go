package iperf3

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
)

func init() { drivers.Register("iperf3", Driver{}) }

// Property keys.
const (
	KeyHost    = "iperf3.host"           // the server (iperf3 -s or gobench net -s)
	KeyPort    = "iperf3.port"           // its port
	KeyTimeout = "iperf3.connecttimeout" // seconds to connect and for each control exchange
)

// Driver is the iperf3 client driver (db=iperf3; gobench net -c selects it).
type Driver struct{}

// Keys implements drivers.Driver.
func (Driver) Keys() []props.Key {
	return []props.Key{
		{Name: KeyHost, Usage: "the server to test against: an iperf3 -s or a gobench net -s (required)", Show: true},
		{Name: KeyPort, Default: strconv.Itoa(DefaultPort), Usage: "its port", Show: true},
		{Name: KeyTimeout, Default: "10", Usage: "seconds allowed to connect"},
	}
}

// Configure implements drivers.Driver; it does no I/O.
func (Driver) Configure(d *props.Decoder, _ drivers.Schema) (drivers.DB, error) {
	v, _ := d.Require(KeyHost)
	port := d.IntRange(KeyPort, DefaultPort, 1, 65535)
	to := d.Duration(KeyTimeout, 10*time.Second, time.Second)
	if to <= 0 {
		d.Failf(KeyTimeout, "want a time > 0")
	}
	return NewClient(net.JoinHostPort(v.Value, strconv.Itoa(port)), to), nil
}

// Caps implements drivers.Capable.
func (Driver) Caps() drivers.Caps { return drivers.CapNet }

// Client is one test against an iperf3 server at Addr: a drivers.DB whose
// Conns are the test's streams. It runs one test.
type Client struct {
	addr    string
	timeout time.Duration
	t       *test
	dialMu  sync.Mutex
	dialErr error
	dialed  bool
}

// NewClient returns a test against the server at addr ("host:port").
func NewClient(addr string, connectTimeout time.Duration) *Client {
	c := &Client{addr: addr, timeout: connectTimeout, t: newTest(true)}
	c.t.cookie = newCookie()
	c.t.lead, c.t.exchange = c.lead, c.ending
	return c
}

// Caps implements drivers.Capable.
func (*Client) Caps() drivers.Caps { return drivers.CapNet }

// Addr is the server's address.
func (c *Client) Addr() string { return c.addr }

// Open implements drivers.DB: the first Open connects the control
// connection (so that an unreachable server fails here); each returns one
// stream, connected when it starts.
func (c *Client) Open(ctx context.Context) (drivers.Conn, error) {
	c.dialMu.Lock()
	if !c.dialed {
		c.dialed = true
		c.dialErr = c.dialControl(ctx)
	}
	err := c.dialErr
	c.dialMu.Unlock()
	if err != nil {
		return nil, err
	}
	return c.t.open()
}

func (c *Client) dial(ctx context.Context) (net.Conn, error) {
	d := net.Dialer{Timeout: c.timeout}
	conn, err := d.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return nil, fmt.Errorf("iperf3: connect to %s: %w", c.addr, err)
	}
	return conn, nil
}

func (c *Client) dialControl(ctx context.Context) error {
	conn, err := c.dial(ctx)
	if err != nil {
		return err
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	conn.SetDeadline(time.Now().Add(ctrlTimeout))
	if _, err := conn.Write(c.t.cookie[:]); err != nil {
		conn.Close()
		return fmt.Errorf("iperf3: send the cookie to %s: %w", c.addr, err)
	}
	c.t.ctrl = conn
	return nil
}

// expect reads the next state and fails unless it is want.
func (c *Client) expect(want int8) error {
	s, err := readState(c.t.ctrl)
	if err != nil {
		return fmt.Errorf("iperf3: waiting for %s from %s: %w", stateName(want), c.addr, err)
	}
	switch {
	case s == want:
		return nil
	case s == serverError:
		return readServerError(c.t.ctrl)
	}
	return &ServerError{State: s}
}

// lead is the client's handshake: parameters, streams, start.
func (c *Client) lead(ctx context.Context) error {
	t := c.t
	t.ctrl.SetDeadline(time.Now().Add(ctrlTimeout))
	if err := c.expect(paramExchange); err != nil {
		return err
	}
	sp := t.spec
	if sp.Streams < 1 || sp.Streams > maxStreams {
		return fmt.Errorf("iperf3: %d streams (allowed: 1 to %d)", sp.Streams, maxStreams)
	}
	p := params{TCP: true, Time: int(math.Ceil(sp.Duration.Seconds())), Parallel: sp.Streams, Reverse: sp.Reverse,
		Len: sp.BlockSize, PacingTimer: 1000, ClientVersion: "gobench"}
	if err := writeJSON(t.ctrl, p); err != nil {
		return fmt.Errorf("iperf3: send the parameters: %w", err)
	}
	if err := c.expect(createStreams); err != nil {
		return err
	}
	for i := 0; i < sp.Streams; i++ {
		s, err := c.dial(ctx)
		if err != nil {
			return err
		}
		if _, err := s.Write(t.cookie[:]); err != nil {
			s.Close()
			return fmt.Errorf("iperf3: open stream %d: %w", streamID(i), err)
		}
		t.mu.Lock()
		t.socks = append(t.socks, s)
		t.mu.Unlock()
	}
	if err := c.expect(testStart); err != nil {
		return err
	}
	if err := c.expect(testRunning); err != nil {
		return err
	}
	t.ctrl.SetDeadline(time.Time{})
	go t.readControl(exchangeResults)
	return nil
}

// ending is the client's end of the test: TEST_END, the results both ways,
// IPERF_DONE.
func (c *Client) ending(ctx context.Context) error {
	t := c.t
	defer t.close()
	if err := t.endErr(); err != nil {
		return err
	}
	t.ctrl.SetDeadline(time.Now().Add(ctrlTimeout))
	if err := writeState(t.ctrl, testEnd); err != nil {
		return fmt.Errorf("iperf3: send TEST_END: %w", err)
	}
	select {
	case s, ok := <-t.states:
		if !ok || s != exchangeResults {
			if err := t.endErr(); err != nil {
				return err
			}
			return errors.New("iperf3: the server did not answer TEST_END")
		}
	case <-ctx.Done():
		return fmt.Errorf("iperf3: waiting for the server's results: %w", ctx.Err())
	}
	if !t.sender() {
		// The server has stopped sending: count what it sent before
		// TEST_END that is still in flight or buffered, as the server
		// counts it when the client sends.
		t.drainReceived()
	}
	t.end(nil)
	if err := writeJSON(t.ctrl, t.results(t.sender())); err != nil {
		return fmt.Errorf("iperf3: send the results: %w", err)
	}
	var peer peerResults
	if err := readJSON(t.ctrl, 0, &peer); err != nil {
		return fmt.Errorf("iperf3: read the server's results: %w", err)
	}
	t.mu.Lock()
	for _, s := range peer.streams() {
		t.peer[s.ID] = s
	}
	t.mu.Unlock()
	if err := c.expect(displayResults); err != nil {
		return err
	}
	for _, s := range t.socks {
		s.Close()
	}
	return writeState(t.ctrl, iperfDone)
}

// Close implements drivers.DB.
func (c *Client) Close() error {
	c.t.close()
	return nil
}
