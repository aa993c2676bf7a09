package hive

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sort"
	"strings"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
)

// Property keys.
const (
	KeyServer         = "hive.server"
	KeyAuth           = "hive.auth"
	KeyUser           = "hive.user"
	KeyPassword       = "hive.password"
	KeySessionConf    = "hive.sessionconf"
	KeyConnectTimeout = "hive.connecttimeout"
	KeyTimeout        = "hive.timeout"
	KeyFetchSize      = "hive.fetchsize"
)

// DefaultServer is HiveServer2's address when none is given.
const DefaultServer = "127.0.0.1:10000"

func init() { drivers.Register("hive", Driver{}) }

// Driver is the registered "hive" driver.
type Driver struct{}

// Keys implements [drivers.Driver].
func (Driver) Keys() []props.Key {
	return []props.Key{
		{Name: KeyServer, Default: DefaultServer, Usage: "HiveServer2 address host:port (binary Thrift transport)", Show: true},
		{Name: KeyAuth, Default: "none", Usage: "authentication: none (SASL PLAIN, any user), plain (hive.user + hive.password), nosasl"},
		{Name: KeyUser, Default: "gobench", Usage: "user name of the session"},
		{Name: KeyPassword, Default: "", Usage: "password (hive.auth=plain)"},
		{Name: KeySessionConf, Default: "", Usage: "Hive settings for every session, key=value,key=value (as beeline's --hiveconf)"},
		{Name: KeyConnectTimeout, Default: "10s", Usage: "bound on connecting and opening a session (plain number = seconds)"},
		{Name: KeyTimeout, Default: "300s", Usage: "bound on one call to HiveServer2 (a status call returns within 5 s while a statement runs; plain number = seconds)"},
		{Name: KeyFetchSize, Default: "10000", Usage: "rows per fetch of a result set"},
	}
}

// Auth is how a session authenticates.
type Auth string

// The authentication modes.
const (
	AuthNone   Auth = "none"   // HiveServer2's NONE: SASL PLAIN with any user and password
	AuthPlain  Auth = "plain"  // SASL PLAIN with the configured user and password
	AuthNoSASL Auth = "nosasl" // no SASL layer (hive.server2.authentication=NOSASL)
)

// Config is the driver's configuration.
type Config struct {
	Server         string // host:port
	Auth           Auth
	User           string
	Password       string
	SessionConf    map[string]string // hive settings, sent as set:hiveconf:KEY
	ConnectTimeout time.Duration
	Timeout        time.Duration // per call; 0 = none
	FetchSize      int
}

// DefaultConfig is the configuration when no property is given.
func DefaultConfig() Config {
	return Config{Server: DefaultServer, Auth: AuthNone, User: "gobench", ConnectTimeout: 10 * time.Second,
		Timeout: 300 * time.Second, FetchSize: 10000}
}

// Configure implements [drivers.Driver]. It does no I/O.
func (Driver) Configure(d *props.Decoder, _ drivers.Schema) (drivers.DB, error) {
	c := DefaultConfig()
	c.Server = strings.TrimSpace(strings.TrimPrefix(d.String(KeyServer, c.Server), "hive2://"))
	if _, _, err := net.SplitHostPort(c.Server); err != nil {
		v, _ := d.Lookup(KeyServer)
		d.Fail(&props.Error{Key: KeyServer, Value: v.Value, Source: v.Source, Line: v.Line,
			Err: fmt.Errorf("bad address: %w", err), Allowed: "host:port, e.g. 127.0.0.1:10000"})
	}
	c.Auth = Auth(d.Enum(KeyAuth, string(c.Auth), string(AuthNone), string(AuthPlain), string(AuthNoSASL)))
	c.User = d.String(KeyUser, c.User)
	c.Password = d.String(KeyPassword, "")
	if v, ok := d.Lookup(KeySessionConf); ok {
		conf, err := ParseSessionConf(v.Value)
		if err != nil {
			d.Fail(&props.Error{Key: KeySessionConf, Value: v.Value, Source: v.Source, Line: v.Line,
				Err: err, Allowed: "key=value,key=value (e.g. hive.execution.engine=mr,mapreduce.job.reduces=2)"})
		}
		c.SessionConf = conf
	}
	c.ConnectTimeout = d.Duration(KeyConnectTimeout, c.ConnectTimeout, time.Second)
	c.Timeout = d.Duration(KeyTimeout, c.Timeout, time.Second)
	c.FetchSize = d.IntRange(KeyFetchSize, c.FetchSize, 1, 1<<24)
	if c.Auth == AuthPlain && c.Password == "" {
		d.Fail(&props.Error{Key: KeyPassword, Err: errors.New("hive.auth=plain needs a password"),
			Hint: "give -p hive.password=... or use hive.auth=none"})
	}
	if c.ConnectTimeout <= 0 {
		v, _ := d.Lookup(KeyConnectTimeout)
		d.Fail(&props.Error{Key: KeyConnectTimeout, Value: v.Value, Source: v.Source, Line: v.Line,
			Err: errors.New("must be > 0"), Allowed: "a duration > 0"})
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	return NewDB(c), nil
}

// ParseSessionConf parses key=value,key=value; blanks around items are
// ignored.
func ParseSessionConf(s string) (map[string]string, error) {
	m := map[string]string{}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		if k = strings.TrimSpace(k); !ok || k == "" {
			return nil, fmt.Errorf("item %q is not key=value", item)
		}
		m[k] = strings.TrimSpace(v)
	}
	return m, nil
}

// DB is the driver's shared state: only its configuration (each Conn has
// its own connection and session).
type DB struct{ cfg Config }

// NewDB returns a DB for c.
func NewDB(c Config) *DB { return &DB{cfg: c} }

// Config returns the DB's configuration.
func (db *DB) Config() Config { return db.cfg }

// Caps implements [drivers.Capable]: Conns run SQL.
func (db *DB) Caps() drivers.Caps { return drivers.CapQuery }

// Open implements [drivers.DB]: it connects and opens a session.
func (db *DB) Open(ctx context.Context) (drivers.Conn, error) {
	s, err := openSession(ctx, db.cfg)
	if err != nil {
		return nil, err
	}
	return &Conn{s: s}, nil
}

// Close implements [drivers.DB]. Each Conn closes its own session.
func (db *DB) Close() error { return nil }

// sessionConf is the configuration map of TOpenSessionReq.
func (c Config) sessionConf() map[string]string {
	m := map[string]string{}
	keys := make([]string, 0, len(c.SessionConf))
	for k := range c.SessionConf {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		m["set:hiveconf:"+k] = c.SessionConf[k]
	}
	return m
}

// Conn is one worker's HiveServer2 session.
type Conn struct{ s *session }

// Query implements [drivers.Querier].
func (c *Conn) Query(ctx context.Context, stmt string, fn func(cols, row []string) error) error {
	return c.s.query(ctx, stmt, fn)
}

// Close implements [drivers.Conn]: it closes the session and the connection.
func (c *Conn) Close(ctx context.Context) error { return c.s.close(ctx) }

var errRecords = fmt.Errorf("hive: the hive driver runs SQL (workload=hive), not YCSB record operations: %w", errors.ErrUnsupported)

// Read implements [drivers.Conn]: unsupported.
func (c *Conn) Read(context.Context, string, []byte, drivers.FieldSet, *drivers.Record) error {
	return errRecords
}

// Scan implements [drivers.Conn]: unsupported.
func (c *Conn) Scan(context.Context, string, []byte, int, drivers.FieldSet, func([]byte, *drivers.Record) error) error {
	return errRecords
}

// Update implements [drivers.Conn]: unsupported.
func (c *Conn) Update(context.Context, string, []byte, *drivers.Record) error { return errRecords }

// Insert implements [drivers.Conn]: unsupported.
func (c *Conn) Insert(context.Context, string, []byte, *drivers.Record) error { return errRecords }

// Delete implements [drivers.Conn]: unsupported.
func (c *Conn) Delete(context.Context, string, []byte) error { return errRecords }
