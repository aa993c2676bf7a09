package hdfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/user"
	"strings"
	"sync"
	"time"

	hdfsc "github.com/colinmarc/hdfs/v2"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/hdfs/hwire"
	"github.com/gobench/gobench/props"
)

// Property keys.
const (
	KeyNamenode    = "hdfs.namenode"
	KeyUser        = "hdfs.user"
	KeyReplication = "hdfs.replication"
	KeyBlockSize   = "hdfs.blocksize"
	KeyTimeout     = "hdfs.timeout"
)

// DefaultNamenode is the NameNode RPC address used when none is given.
const DefaultNamenode = "127.0.0.1:9000"

func init() { drivers.Register("hdfs", Driver{}) }

// Driver is the registered "hdfs" driver.
type Driver struct{}

// Keys implements [drivers.Driver].
func (Driver) Keys() []props.Key {
	return []props.Key{
		{Name: KeyNamenode, Default: DefaultNamenode, Usage: "NameNode RPC address host:port (comma-separated for HA pairs)", Show: true},
		{Name: KeyUser, Default: "(OS user)", Usage: "HDFS user name"},
		{Name: KeyReplication, Default: "0", Usage: "replication of files written; 0 = the NameNode's dfs.replication"},
		{Name: KeyBlockSize, Default: "0", Usage: "block size of files written (e.g. 128MB); 0 = the NameNode's dfs.blocksize"},
		{Name: KeyTimeout, Default: "60s", Usage: "bound on one NameNode RPC or one DataNode I/O call (plain number = seconds)"},
	}
}

// Config is the driver's configuration.
type Config struct {
	Namenodes   []string
	User        string
	Replication int           // 0 = server default
	BlockSize   int64         // bytes; 0 = server default
	Timeout     time.Duration // per RPC / per I/O call; 0 = none
}

// Configure implements [drivers.Driver]. It does no I/O.
func (Driver) Configure(d *props.Decoder, s drivers.Schema) (drivers.DB, error) {
	c := Config{Timeout: 60 * time.Second}
	nn := d.String(KeyNamenode, DefaultNamenode)
	for _, a := range strings.Split(nn, ",") {
		a = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(a), "hdfs://"))
		a = strings.TrimSuffix(a, "/")
		if _, _, err := net.SplitHostPort(a); err != nil {
			v, _ := d.Lookup(KeyNamenode)
			d.Fail(&props.Error{Key: KeyNamenode, Value: nn, Source: v.Source, Line: v.Line,
				Err: fmt.Errorf("bad address %q: %w", a, err), Allowed: "host:port[,host:port]"})
			continue
		}
		c.Namenodes = append(c.Namenodes, a)
	}
	c.User = d.String(KeyUser, "")
	c.Replication = d.IntRange(KeyReplication, 0, 0, 512)
	c.BlockSize = d.Bytes(KeyBlockSize, 0)
	c.Timeout = d.Duration(KeyTimeout, c.Timeout, time.Second)
	if err := d.Err(); err != nil {
		return nil, err
	}
	return New(c, s), nil
}

// DB is the shared state: the configuration. Safe for concurrent use.
type DB struct {
	cfg    Config
	schema drivers.Schema

	mu    sync.Mutex
	nconn int
	defs  *hwire.Defaults // the NameNode's, once fetched
}

var (
	_ drivers.DB         = (*DB)(nil)
	_ drivers.TableAdmin = (*DB)(nil)
)

// New returns a DB for c; it does no I/O.
func New(c Config, s drivers.Schema) *DB {
	if len(c.Namenodes) == 0 {
		c.Namenodes = []string{DefaultNamenode}
	}
	if c.User == "" {
		c.User = "gobench"
		if u, err := user.Current(); err == nil && u.Username != "" {
			c.User = u.Username
		}
	}
	return &DB{cfg: c, schema: s}
}

// Config returns the effective configuration.
func (db *DB) Config() Config { return db.cfg }

// dialer is the TCP dialer of every connection, bounded by hdfs.timeout.
func (db *DB) dialer() *net.Dialer {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if t := db.cfg.Timeout; t > 0 && t < d.Timeout {
		d.Timeout = t
	}
	return d
}

// dial makes a colinmarc client with its own NameNode connection, every
// connection of which g bounds (see [guard]). Call it inside g.begin/g.end.
func (db *DB) dial(g *guard) (*hdfsc.Client, error) {
	d := db.dialer()
	c, err := hdfsc.NewClient(hdfsc.ClientOptions{
		Addresses: db.cfg.Namenodes, User: db.cfg.User,
		NamenodeDialFunc: g.dialer(d, true), DatanodeDialFunc: g.dialer(d, false),
	})
	if err != nil {
		return nil, fmt.Errorf("hdfs: connect to namenode %s: %w: %w", strings.Join(db.cfg.Namenodes, ","), drivers.ErrUnavailable, err)
	}
	return c, nil
}

// dialWire opens gobench's own NameNode connection (hwire), bounded by g,
// trying the addresses in order. Call it inside g.begin/g.end.
func (db *DB) dialWire(g *guard) (*hwire.NameNode, error) {
	dial := g.dialer(db.dialer(), true)
	var errs []error
	for _, a := range db.cfg.Namenodes {
		nc, err := dial(context.Background(), "tcp", a)
		if err == nil {
			var nn *hwire.NameNode
			if nn, err = hwire.NewNameNode(nc, db.cfg.User); err == nil {
				return nn, nil
			}
			nc.Close()
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("hdfs: connect to namenode %s: %w: %w", strings.Join(db.cfg.Namenodes, ","), drivers.ErrUnavailable, errors.Join(errs...))
}

// peers returns the DataNode connection cache of a Conn, dialling through g.
func (db *DB) peers(g *guard) *hwire.Peers {
	dial := g.dialer(db.dialer(), false)
	return &hwire.Peers{Dial: func(addr string) (net.Conn, error) { return dial(context.Background(), "tcp", addr) }}
}

// defaults returns the NameNode's defaults, fetched once per DB (one
// getServerDefaults call) when hdfs.replication or hdfs.blocksize is 0.
func (db *DB) defaults(nn *hwire.NameNode) (hwire.Defaults, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.defs != nil {
		return *db.defs, nil
	}
	d, err := nn.ServerDefaults()
	if err != nil {
		return d, fmt.Errorf("server defaults: %w", err)
	}
	db.defs = &d
	return d, nil
}

// Open implements [drivers.DB]: a new client (NameNode connection) per
// worker.
func (db *DB) Open(ctx context.Context) (drivers.Conn, error) {
	g := newGuard(db.cfg.Timeout)
	if err := g.begin(ctx); err != nil {
		return nil, err
	}
	defer g.end()
	nn, err := db.dialWire(g)
	if err != nil {
		return nil, ctxErr(ctx, err)
	}
	db.mu.Lock()
	db.nconn++
	id := db.nconn
	db.mu.Unlock()
	return newConn(db, nn, g, id), nil
}

// Close implements [drivers.DB]; the DB holds no connection.
func (db *DB) Close() error { return nil }

// admin runs fn with a client of its own, bounded by ctx.
func (db *DB) admin(ctx context.Context, fn func(*hdfsc.Client) error) error {
	g := newGuard(db.cfg.Timeout)
	if err := g.begin(ctx); err != nil {
		return err
	}
	defer g.end()
	c, err := db.dial(g)
	if err != nil {
		return ctxErr(ctx, err)
	}
	defer func() {
		g.retire()
		c.Close()
	}()
	return ctxErr(ctx, fn(c))
}

// CreateTable implements [drivers.TableAdmin]: it makes the directory
// /<table>. splits are ignored (HDFS has no regions).
func (db *DB) CreateTable(ctx context.Context, table string, splits [][]byte, ifMissing bool) error {
	dir := tableDir(table)
	return db.admin(ctx, func(c *hdfsc.Client) error {
		if !ifMissing {
			if _, err := c.Stat(dir); err == nil {
				return fmt.Errorf("hdfs: create table %q: %s: %w", table, dir, fs.ErrExist)
			}
		}
		if err := c.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("hdfs: create table %q: %w", table, err)
		}
		return nil
	})
}

// DropTable implements [drivers.TableAdmin]: it removes /<table> and every
// record in it.
func (db *DB) DropTable(ctx context.Context, table string) error {
	return db.admin(ctx, func(c *hdfsc.Client) error {
		if err := c.RemoveAll(tableDir(table)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("hdfs: drop table %q: %w", table, err)
		}
		return nil
	})
}

func tableDir(table string) string { return "/" + strings.Trim(table, "/") }
