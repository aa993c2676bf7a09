package hive

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync/atomic"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	hs "github.com/beltran/gohive/hiveserver"
)

// session is one TCP connection to HiveServer2 with one open session. It
// is used by one goroutine at a time (its Conn's worker).
type session struct {
	cfg    Config
	nc     net.Conn
	client *hs.TCLIServiceClient
	handle *hs.TSessionHandle
	// broken is set once an I/O error or a cancellation left the Thrift
	// stream in an unknown state; the session is then unusable.
	broken atomic.Bool
	row    []string // reused for every row passed to fn
}

// thriftConf allows result batches of up to 1 GiB (the default frame limit
// is 16 MB, a few hundred thousand short rows).
var thriftConf = &thrift.TConfiguration{MaxMessageSize: 1 << 30, MaxFrameSize: 1 << 30}

// openSession dials cfg.Server, authenticates and opens a session, all
// within cfg.ConnectTimeout.
func openSession(ctx context.Context, cfg Config) (*session, error) {
	octx, cancel := context.WithTimeout(ctx, cfg.ConnectTimeout)
	defer cancel()
	var d net.Dialer
	nc, err := d.DialContext(octx, "tcp", cfg.Server)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("hive: connecting to %s: %w", cfg.Server, ctx.Err())
		}
		return nil, &UnreachableError{Addr: cfg.Server, Err: err}
	}
	s := &session{cfg: cfg, nc: nc}
	stop := context.AfterFunc(octx, func() { nc.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if dl, ok := octx.Deadline(); ok {
		nc.SetDeadline(dl)
	}
	fail := func(what string, err error) (*session, error) {
		nc.Close()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("hive: %s at %s: %w", what, cfg.Server, ctx.Err())
		}
		var ne net.Error
		if octx.Err() != nil || errors.As(err, &ne) && ne.Timeout() {
			err = fmt.Errorf("no answer within hive.connecttimeout=%v (%w)", cfg.ConnectTimeout, err)
		}
		return nil, &UnreachableError{Addr: cfg.Server, What: what, Err: err, Hint: authHint(cfg.Auth)}
	}
	var tr thrift.TTransport = &connTransport{c: nc}
	if cfg.Auth == AuthNoSASL {
		tr = thrift.NewTBufferedTransport(tr, 64<<10)
	} else {
		user, pass := cfg.User, cfg.Password
		if pass == "" {
			pass = "anonymous" // what Hive's JDBC driver sends without a password; NONE accepts any
		}
		if err := saslPlain(nc, user, pass); err != nil {
			return fail("SASL handshake", err)
		}
		// After a SASL PLAIN handshake (no integrity or privacy layer),
		// Thrift messages travel in 4-byte length-prefixed frames: the
		// framed transport's format.
		tr = thrift.NewTFramedTransportConf(tr, thriftConf)
	}
	p := thrift.NewTBinaryProtocolConf(tr, thriftConf)
	s.client = hs.NewTCLIServiceClient(thrift.NewTStandardClient(p, p))
	user := cfg.User
	req := &hs.TOpenSessionReq{ClientProtocol: hs.TProtocolVersion_HIVE_CLI_SERVICE_PROTOCOL_V10, Username: &user,
		Configuration: cfg.sessionConf()}
	if cfg.Password != "" {
		pw := cfg.Password
		req.Password = &pw
	}
	resp, err := s.client.OpenSession(octx, req)
	if err != nil {
		return fail("opening a session", err)
	}
	if !statusOK(resp.GetStatus()) {
		nc.Close()
		return nil, fmt.Errorf("hive: opening a session at %s: %w", cfg.Server, newStatementError(resp.GetStatus(), nil))
	}
	if resp.SessionHandle == nil {
		nc.Close()
		return nil, fmt.Errorf("hive: opening a session at %s: no session handle in the answer", cfg.Server)
	}
	s.handle = resp.SessionHandle
	nc.SetDeadline(time.Time{})
	return s, nil
}

func authHint(a Auth) string {
	if a == AuthNoSASL {
		return "is HiveServer2's hive.server2.authentication NOSASL? if not, use hive.auth=none or plain"
	}
	return "if HiveServer2 runs with hive.server2.authentication=NOSASL, use hive.auth=nosasl"
}

// errBroken is returned by a session after a failure left it unusable.
var errBroken = errors.New("hive: the connection was broken by an earlier failure or cancellation; this session is unusable")

// deadline prepares the connection for one call: a deadline of
// cfg.Timeout (and no later than ctx's). It fails when ctx has ended: a
// cancellation that raced with setting the deadline is not lost.
func (s *session) deadline(ctx context.Context) error {
	var dl time.Time
	if s.cfg.Timeout > 0 {
		dl = time.Now().Add(s.cfg.Timeout)
	}
	if cd, ok := ctx.Deadline(); ok && (dl.IsZero() || cd.Before(dl)) {
		dl = cd
	}
	s.nc.SetDeadline(dl)
	return ctx.Err()
}

// ioErr marks the session broken after a failed call and says why.
func (s *session) ioErr(ctx context.Context, what string, err error) error {
	s.broken.Store(true)
	s.nc.Close()
	if ctx.Err() != nil {
		return fmt.Errorf("hive: %s: %w", what, ctx.Err())
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return fmt.Errorf("hive: %s: no answer from %s within hive.timeout=%v: %w", what, s.cfg.Server, s.cfg.Timeout, err)
	}
	return &UnreachableError{Addr: s.cfg.Server, What: what, Err: err}
}

// close closes the session (bounded by a few seconds when ctx has none)
// and the connection.
func (s *session) close(ctx context.Context) error {
	if s.broken.Swap(true) {
		return nil // already closed after the failure that broke it
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	var err error
	if s.deadline(ctx) == nil {
		var resp *hs.TCloseSessionResp
		resp, err = s.client.CloseSession(ctx, &hs.TCloseSessionReq{SessionHandle: s.handle})
		if err == nil && !statusOK(resp.GetStatus()) {
			err = newStatementError(resp.GetStatus(), nil)
		}
	}
	if cerr := s.nc.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("hive: closing the session: %w", err)
	}
	return nil
}

// connTransport is a Thrift transport over a net.Conn that leaves the
// deadlines to the session (thrift.TSocket would reset them on every read,
// undoing a cancellation).
type connTransport struct{ c net.Conn }

func (t *connTransport) Read(p []byte) (int, error)  { return t.c.Read(p) }
func (t *connTransport) Write(p []byte) (int, error) { return t.c.Write(p) }
func (t *connTransport) Close() error                { return t.c.Close() }
func (t *connTransport) Flush(context.Context) error { return nil }
func (t *connTransport) RemainingBytes() uint64      { return ^uint64(0) }
func (t *connTransport) IsOpen() bool                { return true }
func (t *connTransport) Open() error                 { return nil }
