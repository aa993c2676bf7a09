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
	krb "github.com/jcmturner/gokrb5/v8/client"

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
	KeyConfDir     = "hdfs.conf.dir"
	KeyClasspath   = "gobench.classpath"
	KeyPrincipal   = "hdfs.kerberos.principal"
	KeyKeytab      = "hdfs.kerberos.keytab"
	// YCSB's spellings of the two (its hbase bindings' -p principal=...
	// -p keytab=...).
	KeyYCSBPrincipal = "principal"
	KeyYCSBKeytab    = "keytab"
	KeyClient        = "hdfs.client"
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
		{Name: KeyClient, Default: "gobench", Usage: "gobench: gobench's own wire client where it can (colinmarc's for what it lacks: listing, append, truncate, and secured clusters needing integrity or privacy); colinmarc: every operation through colinmarc/hdfs"},
		{Name: KeyConfDir, Default: "($HADOOP_CONF_DIR)", Usage: "Hadoop conf directory: core-site.xml and hdfs-site.xml are read for " + strings.Join(siteKeys, ", ")},
		{Name: KeyClasspath, Usage: "YCSB's -cp: ':'-separated entries; the first directory holding core-site.xml or hdfs-site.xml is read like " + KeyConfDir},
		{Name: KeyPrincipal, Usage: "Kerberos principal to log in as from " + KeyKeytab + " (user or user@REALM); without a keytab: the ticket cache must hold it"},
		{Name: KeyKeytab, Usage: "Kerberos keytab file (its path is shown, never its contents); unset: kinit's ticket cache (KRB5CCNAME)"},
		{Name: KeyYCSBPrincipal, Usage: "YCSB's spelling of " + KeyPrincipal},
		{Name: KeyYCSBKeytab, Usage: "YCSB's spelling of " + KeyKeytab},
		{Name: KeyDefaultFS, Default: "(conf dir)", Usage: "hdfs://host:port or hdfs://nameservice; used when " + KeyNamenode + " is not set"},
		{Name: KeyAuthentication, Default: "simple", Usage: "simple or kerberos (core-site.xml)"},
		{Name: KeyNNPrincipal, Usage: "the NameNode's Kerberos principal, e.g. nn/_HOST@REALM (hdfs-site.xml)"},
		{Name: KeyTransferProt, Usage: "SASL protection of DataNode connections: authentication, integrity, privacy (comma-separated; the strongest is asked for)"},
		{Name: KeyEncryptTransfer, Default: "false", Usage: "encrypt DataNode connections (Hadoop's dfs.encrypt.data.transfer)"},
		{Name: KeyRPCProtection, Default: "authentication", Usage: "SASL protection of the NameNode RPC: authentication, integrity, privacy (the NameNode's strongest offer is taken)"},
	}
}

// Config is the driver's configuration.
type Config struct {
	Namenodes   []string
	User        string
	Replication int           // 0 = server default
	BlockSize   int64         // bytes; 0 = server default
	Timeout     time.Duration // per RPC / per I/O call; 0 = none
	ConfDir     string        // the Hadoop conf directory read, "" = none
	// Kerberos is set when hadoop.security.authentication is kerberos.
	Kerberos *Kerberos
	// Protection is the SASL protection asked of DataNode connections
	// (authentication, integrity, privacy; "" = none).
	Protection string
	// RPCProtection is hadoop.rpc.protection's strongest ("" = none given).
	RPCProtection string
	// Colinmarc sends every operation through colinmarc's client
	// (hdfs.client=colinmarc).
	Colinmarc bool
}

// Secure reports whether the connections are Kerberized or protected.
func (c Config) Secure() bool { return c.Kerberos != nil || c.Protection != "" }

// ViaColinmarc reports whether every operation goes through colinmarc's
// client: when asked for, or when the cluster needs what gobench's own
// client does not speak (integrity or privacy on the NameNode RPC or the
// DataNode connections, encrypted data transfer, protection without
// Kerberos).
func (c Config) ViaColinmarc() bool {
	if c.Colinmarc {
		return true
	}
	if !c.Secure() {
		return false
	}
	return c.Kerberos == nil || (c.Protection != "" && c.Protection != "authentication") ||
		(c.RPCProtection != "" && c.RPCProtection != "authentication")
}

// Configure implements [drivers.Driver]. It opens no connection; it reads
// the Hadoop conf directory (a configuration file, like a -P file).
func (Driver) Configure(d *props.Decoder, s drivers.Schema) (drivers.DB, error) {
	c := Config{Timeout: 60 * time.Second}
	dir, dirKey := confDir(d.String(KeyConfDir, ""), d.String(KeyClasspath, ""))
	st := loadSite(d, dir, dirKey)
	c.ConfDir = dir
	nn := d.String(KeyNamenode, DefaultNamenode)
	if _, set := d.Lookup(KeyNamenode); !set {
		addrs, err := st.namenodes()
		if err != nil {
			_, src := st.get(KeyDefaultFS)
			d.Fail(fmt.Errorf("hdfs: %s: %w", src, err))
		} else if len(addrs) > 0 {
			nn = strings.Join(addrs, ",")
		}
	}
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
	c.Colinmarc = d.Enum(KeyClient, "gobench", "gobench", "colinmarc") == "colinmarc"
	configureSecurity(d, st, &c)
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
	krb   *krb.Client     // the Kerberos login, once made
	who   string          // its principal
	kerr  error           // a failed login (not tried again)
}

var (
	_ drivers.DB         = (*DB)(nil)
	_ drivers.TableAdmin = (*DB)(nil)
	_ drivers.Preparer   = (*DB)(nil)
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
// connection of which g bounds (see [guard]); with Kerberos it logs in
// first (once per DB) and authenticates with SASL GSSAPI, and DataNode
// connections get SASL data transfer protection. Call it inside
// g.begin/g.end.
func (db *DB) dial(g *guard) (*hdfsc.Client, error) {
	d := db.dialer()
	o := hdfsc.ClientOptions{
		Addresses: db.cfg.Namenodes, User: db.cfg.User,
		NamenodeDialFunc: g.dialer(d, true), DatanodeDialFunc: g.dialer(d, false),
		DataTransferProtection: db.cfg.Protection,
	}
	if k := db.cfg.Kerberos; k != nil {
		cl, err := db.login()
		if err != nil {
			return nil, err
		}
		o.KerberosClient = cl
		o.Addresses, o.KerberosServicePrincipleName = kerberosTargets(k, db.cfg.Namenodes)
	}
	c, err := hdfsc.NewClient(o)
	if err != nil {
		if db.cfg.Kerberos != nil && !isNetErr(err) {
			return nil, fmt.Errorf("hdfs: Kerberos authentication as %s to namenode %s (service principal %s) failed: %w",
				db.who, strings.Join(db.cfg.Namenodes, ","), o.KerberosServicePrincipleName, err)
		}
		return nil, fmt.Errorf("hdfs: connect to namenode %s: %w: %w", strings.Join(db.cfg.Namenodes, ","), drivers.ErrUnavailable, err)
	}
	return c, nil
}

// isNetErr reports whether err is the network's (the NameNode is down),
// not the authentication's.
func isNetErr(err error) bool {
	var ne net.Error
	return errors.As(err, &ne)
}

// kerberosTargets returns the addresses to give colinmarc's client and the
// NameNode's service principal: with one NameNode, _HOST is resolved here
// (the canonical name of its host); with several, colinmarc puts each
// address's host in _HOST, so IP addresses are replaced by their names.
func kerberosTargets(k *Kerberos, addrs []string) ([]string, string) {
	if len(addrs) == 1 {
		h, _, _ := net.SplitHostPort(addrs[0])
		return addrs, k.spn(h)
	}
	out := make([]string, len(addrs))
	for i, a := range addrs {
		h, p, _ := net.SplitHostPort(a)
		spn := k.spn(h)
		if j := strings.IndexByte(spn, '/'); j >= 0 && strings.Contains(k.NNPrincipal, "_HOST") {
			h = spn[j+1:]
		}
		out[i] = net.JoinHostPort(h, p)
	}
	return out, k.NNPrincipal
}

// login logs in with the configured Kerberos credentials, once per DB.
func (db *DB) login() (*krb.Client, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.krb == nil && db.kerr == nil {
		cl, who, err := db.cfg.Kerberos.login()
		if err != nil {
			db.kerr = fmt.Errorf("hdfs: Kerberos login as %s failed: %w", orDefault(who, db.cfg.Kerberos.describe()), err)
		} else {
			db.krb, db.who = cl, who
		}
	}
	return db.krb, db.kerr
}

// Prepare implements [drivers.Preparer]: with Kerberos it logs in and
// opens (and closes) one authenticated NameNode connection, so that
// missing or refused credentials stop the run before it starts.
func (db *DB) Prepare(ctx context.Context) error {
	if db.cfg.Kerberos == nil {
		return nil
	}
	if _, err := db.login(); err != nil {
		return err
	}
	if !db.cfg.ViaColinmarc() {
		g := newGuard(db.cfg.Timeout)
		if err := g.begin(ctx); err != nil {
			return err
		}
		defer g.end()
		nn, err := db.dialWire(g)
		if err != nil {
			return ctxErr(ctx, err)
		}
		defer nn.Close()
		d, err := db.defaults(nn) // one call: the session works
		if err != nil {
			return ctxErr(ctx, fmt.Errorf("hdfs: namenode %s as %s: %w", strings.Join(db.cfg.Namenodes, ","), db.who, err))
		}
		if d.EncryptData {
			return fmt.Errorf("hdfs: the cluster encrypts data transfer but %s is not true in the configuration (%s): set it (-p %s=true) so that the driver uses colinmarc's client, which speaks it",
				KeyEncryptTransfer, orDefault(db.cfg.ConfDir, "no conf dir"), KeyEncryptTransfer)
		}
		return nil
	}
	return db.admin(ctx, func(c *hdfsc.Client) error { return nil })
}

// dialWire opens gobench's own NameNode connection (hwire), bounded by g,
// trying the addresses in order; with Kerberos it authenticates with SASL
// GSSAPI. Call it inside g.begin/g.end.
func (db *DB) dialWire(g *guard) (*hwire.NameNode, error) {
	var cl *krb.Client
	k := db.cfg.Kerberos
	if k != nil {
		var err error
		if cl, err = db.login(); err != nil {
			return nil, err
		}
	}
	dial := g.dialer(db.dialer(), true)
	var errs []error
	for _, a := range db.cfg.Namenodes {
		nc, err := dial(context.Background(), "tcp", a)
		if err == nil {
			var nn *hwire.NameNode
			if k == nil {
				nn, err = hwire.NewNameNode(nc, db.cfg.User)
			} else {
				h, _, _ := net.SplitHostPort(a)
				spn := k.spn(h)
				if nn, err = hwire.NewNameNodeKerberos(nc, db.who, &gss{cl: cl, spn: spn}); err != nil && !isNetErr(err) {
					nc.Close()
					return nil, fmt.Errorf("hdfs: Kerberos authentication as %s to namenode %s (service principal %s) failed: %w", db.who, a, spn, err)
				}
			}
			if err == nil {
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
	return &hwire.Peers{Dial: func(addr string) (net.Conn, error) { return dial(context.Background(), "tcp", addr) },
		SASL: db.cfg.Protection != ""}
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
	var nn *hwire.NameNode
	var cl *hdfsc.Client
	var err error
	if db.cfg.ViaColinmarc() {
		cl, err = db.dial(g)
	} else {
		nn, err = db.dialWire(g)
	}
	if err != nil {
		return nil, ctxErr(ctx, err)
	}
	db.mu.Lock()
	db.nconn++
	id := db.nconn
	db.mu.Unlock()
	c := newConn(db, nn, g, id)
	c.cl = cl
	return c, nil
}

// Close implements [drivers.DB]: it ends the Kerberos login (its renewal);
// the DB holds no connection.
func (db *DB) Close() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.krb != nil {
		db.krb.Destroy()
		db.krb = nil
		db.kerr = errors.New("hdfs: DB closed")
	}
	return nil
}

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
