package hbase

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/hbase/hbclient"
	"github.com/gobench/gobench/props"
)

func init() {
	drivers.Register("hbase", Driver{})
	for _, a := range []string{
		"hbase1", "hbase2", "hbase10", "hbase12", "hbase14", "hbase20", "hbase098",
		"site.ycsb.db.hbase2.HBaseClient2", "site.ycsb.db.hbase1.HBaseClient1",
		"site.ycsb.db.HBaseClient10", "site.ycsb.db.HBaseClient",
		"com.yahoo.ycsb.db.HBaseClient10", "com.yahoo.ycsb.db.HBaseClient",
	} {
		drivers.Alias(a, "hbase")
	}
}

// Property keys. YCSB's hbase2 binding spells the first five; the rest are
// HBase's own configuration names (also read from hbase-site.xml) or
// gobench's.
const (
	KeyColumnFamily    = "columnfamily"
	KeyClientBuffering = "clientbuffering"
	KeyWriteBufferSize = "writebuffersize"
	KeyDurability      = "durability"
	KeyUsePageFilter   = "hbase.usepagefilter"
	KeyScanValueFilter = "hbase.usescanvaluefiltering"
	KeyDebug           = "debug"
	KeyPrincipal       = "principal"
	KeyKeytab          = "keytab"
	KeyQuorum          = "hbase.zookeeper.quorum"
	KeyClientPort      = "hbase.zookeeper.property.clientPort"
	KeyZNodeParent     = "hbase.zookeeper.znode.parent"
	KeyConfDir         = "hbase.conf.dir"
	KeyClasspath       = "gobench.classpath"
	KeyCreateTable     = "hbase.createtable"
	KeySplits          = "hbase.splits"
	KeyDropTable       = "hbase.droptable"
	KeyOpTimeout       = "hbase.client.operation.timeout"
	KeyRPCTimeout      = "hbase.rpc.timeout"
	KeyPause           = "hbase.client.pause"
	KeyUser            = "hbase.user"
	KeyMultiSize       = "hbase.multi.maxactions"
	KeyCheckTable      = "hbase.checktable"
	KeyHosts           = "hbase.hosts"
	KeyRetries         = "hbase.client.retries.number"
	KeyPauseOverloaded = "hbase.client.pause.server.overloaded"
	KeyFailedExpiry    = "hbase.ipc.client.failed.servers.expiry"
	KeyRPCCodec        = "hbase.client.rpc.codec"
)

// Driver is the "hbase" driver (aliases: YCSB's hbase1, hbase2, hbase10…
// binding names). The zero value is ready to use.
type Driver struct{}

// Keys lists the driver's properties.
func (Driver) Keys() []props.Key {
	return append([]props.Key{
		{Name: KeyColumnFamily, Default: "family", Usage: "the column family holding every field"},
		{Name: KeyClientBuffering, Default: "false", Usage: "buffer inserts, updates and deletes and send them as batched Multi RPCs (YCSB's BufferedMutator); buffered writes count as BATCHED_OK"},
		{Name: KeyWriteBufferSize, Default: "12582912", Usage: "bytes buffered per connection before a flush when clientbuffering=true"},
		{Name: KeyDurability, Default: "USE_DEFAULT", Usage: "write durability: USE_DEFAULT, SKIP_WAL, ASYNC_WAL, SYNC_WAL or FSYNC_WAL"},
		{Name: KeyUsePageFilter, Default: "true", Usage: "accepted for YCSB compatibility; scans always ask the server for exactly the rows wanted (ScanRequest.limit_of_rows)"},
		{Name: KeyScanValueFilter, Default: "false", Usage: "YCSB's scan value filter; not supported (true is refused)"},
		{Name: KeyDebug, Default: "false", Usage: "accepted for YCSB compatibility; ignored"},
		{Name: KeyPrincipal, Usage: "Kerberos principal (YCSB's; user[@REALM]) to log in as with " + KeyKeytab + ", or that kinit's ticket cache must hold; needs " + KeyAuthentication + "=kerberos"},
		{Name: KeyKeytab, Usage: "Kerberos keytab of " + KeyPrincipal + " (YCSB's); without one the ticket cache of kinit is used"},
		{Name: KeyQuorum, Default: "127.0.0.1:2181", Usage: "ZooKeeper quorum, host[:port],... (hosts without a port use " + KeyClientPort + "); overrides hbase-site.xml", Show: true},
		{Name: KeyClientPort, Default: "2181", Usage: "ZooKeeper port for quorum hosts given without one"},
		{Name: KeyZNodeParent, Default: "/hbase", Usage: "HBase's parent znode (zookeeper.znode.parent)"},
		{Name: KeyConfDir, Usage: "directory holding hbase-site.xml, read for the ZooKeeper quorum, client port and parent znode"},
		{Name: KeyClasspath, Usage: "YCSB's -cp: ':'-separated entries; the first directory holding hbase-site.xml is read like " + KeyConfDir},
		{Name: KeyCreateTable, Default: "false", Usage: "create the table (with " + KeyColumnFamily + ") at the first connection if it does not exist"},
		{Name: KeySplits, Default: "0", Usage: "with hbase.createtable: pre-split into N+1 regions at YCSB's recommended keys \"user\" + (1000 + i*(9999-1000)/N), i=1..N"},
		{Name: KeyDropTable, Default: "false", Usage: "drop the table (if it exists) at the first connection, before hbase.createtable; the run starts empty"},
		{Name: KeyOpTimeout, Default: "60000", Usage: "milliseconds (or Go duration) an operation may take with all its retries"},
		{Name: KeyRPCTimeout, Default: "60000", Usage: "milliseconds (or Go duration) one RPC may take"},
		{Name: KeyPause, Default: "100", Usage: "base retry pause in milliseconds (or Go duration); HBase's backoff multiplies it"},
		{Name: KeyUser, Default: "gobench", Usage: "effective user sent to HBase (SIMPLE authentication; with kerberos the principal is the user)"},
		{Name: KeyMultiSize, Default: "1000", Usage: "maximum mutations per Multi RPC when flushing the client buffer"},
		{Name: KeyCheckTable, Default: "true", Usage: "the first connection fails if the table does not exist (as YCSB's init does)"},
		{Name: KeyRetries, Default: "15", Usage: "retries of one operation before it fails (Java's hbase.client.retries.number), within hbase.client.operation.timeout"},
		{Name: KeyPauseOverloaded, Default: "(hbase.client.pause)", Usage: "milliseconds (or Go duration): base pause after a server said it is overloaded"},
		{Name: KeyFailedExpiry, Default: "2000", Usage: "milliseconds (or Go duration) a RegionServer whose dial failed is not dialled again (Java's failed-servers list)"},
		{Name: KeyRPCCodec, Default: "org.apache.hadoop.hbase.codec.KeyValueCodec", Usage: "cell codec of RegionServer calls (cell blocks); empty sends cells inside the protobuf messages"},
		{Name: KeyHosts, Usage: "host names the servers advertise mapped to addresses to dial, name=address,... (for advertised names this machine cannot resolve)"},
	}, securityKeys()...)
}

// Config is the driver's decoded configuration (see [Driver.Keys] for the
// properties behind each field).
type Config struct {
	Family          string              // columnfamily
	ClientBuffering bool                // clientbuffering
	WriteBufferSize int64               // writebuffersize, bytes per Conn
	Durability      hbclient.Durability // durability
	CreateTable     bool                // hbase.createtable
	Splits          int                 // hbase.splits
	DropTable       bool                // hbase.droptable
	MultiSize       int                 // hbase.multi.maxactions
	CheckTable      bool                // hbase.checktable
	Client          hbclient.Options    // cluster location, timeouts, user
}

// Configure decodes the driver's properties. Besides the properties it reads
// hbase-site.xml from hbase.conf.dir or gobench.classpath when given (a
// configuration file, like a -P file); it opens no connection.
func (Driver) Configure(p *props.Decoder, s drivers.Schema) (drivers.DB, error) {
	cfg, err := decode(p)
	if err != nil {
		return nil, err
	}
	return NewDB(cfg, s), nil
}

func decode(p *props.Decoder) (Config, error) {
	before := len(p.Errs())
	durNames := []string{"USE_DEFAULT", "SKIP_WAL", "ASYNC_WAL", "SYNC_WAL", "FSYNC_WAL"}
	cfg := Config{
		Family:          p.String(KeyColumnFamily, "family"),
		ClientBuffering: p.Bool(KeyClientBuffering, false),
		WriteBufferSize: p.Bytes(KeyWriteBufferSize, 12<<20),
		Durability:      hbclient.DurabilityNames[p.Enum(KeyDurability, "USE_DEFAULT", durNames...)],
		CreateTable:     p.Bool(KeyCreateTable, false),
		Splits:          p.IntRange(KeySplits, 0, 0, 8999),
		DropTable:       p.Bool(KeyDropTable, false),
		MultiSize:       p.IntRange(KeyMultiSize, 1000, 1, 100000),
		CheckTable:      p.Bool(KeyCheckTable, true),
	}
	p.Bool(KeyUsePageFilter, true)
	p.Bool(KeyDebug, false)
	if p.Bool(KeyScanValueFilter, false) {
		p.Failf(KeyScanValueFilter, "scan value filtering is not supported by gobench's HBase client; want false")
	}
	if cfg.Family == "" {
		p.Failf(KeyColumnFamily, "want a column family name, not an empty value")
	}
	if cfg.WriteBufferSize <= 0 {
		p.Failf(KeyWriteBufferSize, "want a positive size in bytes")
	}

	site := siteConfig{}
	dir := p.String(KeyConfDir, "")
	cp := p.String(KeyClasspath, "")
	if dir != "" || cp != "" {
		var err error
		if site, err = readSite(dir, cp); err != nil {
			key := KeyConfDir
			if dir == "" {
				key = KeyClasspath
			}
			p.Failf(key, "%v", err)
		}
	}
	decodeSecurity(p, site, &cfg)
	port := p.IntRange(KeyClientPort, 0, 1, 65535)
	if port == 0 {
		port = 2181
		if site.clientPort != "" {
			n, err := strconv.Atoi(site.clientPort)
			if err != nil || n < 1 || n > 65535 {
				p.Failf(KeyConfDir, "hbase-site.xml: hbase.zookeeper.property.clientPort %q is not a port", site.clientPort)
			} else {
				port = n
			}
		}
	}
	quorum := p.String(KeyQuorum, "")
	if quorum == "" {
		quorum = site.quorum
	}
	if quorum == "" {
		quorum = "127.0.0.1"
	}
	cfg.Client.ZKQuorum = splitQuorum(quorum, port)
	if len(cfg.Client.ZKQuorum) == 0 {
		p.Failf(KeyQuorum, "want host[:port],..., got no host")
	}
	parent := p.String(KeyZNodeParent, "")
	if parent == "" {
		parent = site.parent
	}
	if parent == "" {
		parent = "/hbase"
	}
	if !strings.HasPrefix(parent, "/") {
		p.Failf(KeyZNodeParent, "want an absolute znode path like /hbase")
	}
	cfg.Client.ZNodeParent = strings.TrimRight(parent, "/")
	cfg.Client.OperationTimeout = p.Duration(KeyOpTimeout, 60*time.Second, time.Millisecond)
	cfg.Client.RPCTimeout = p.Duration(KeyRPCTimeout, 60*time.Second, time.Millisecond)
	cfg.Client.RetryPause = p.Duration(KeyPause, 100*time.Millisecond, time.Millisecond)
	cfg.Client.Retries = p.IntRange(KeyRetries, 15, 0, 1000)
	if cfg.Client.Retries == 0 {
		cfg.Client.Retries = -1 // hbclient: 0 is its default (15), negative is none
	}
	cfg.Client.PauseServerOverloaded = p.Duration(KeyPauseOverloaded, 0, time.Millisecond)
	cfg.Client.FailedServerExpiry = p.Duration(KeyFailedExpiry, 2*time.Second, time.Millisecond)
	switch codec := p.String(KeyRPCCodec, "org.apache.hadoop.hbase.codec.KeyValueCodec"); codec {
	case "":
		cfg.Client.PBCells = true // Java: an empty codec sends every cell in the protobuf
	case "org.apache.hadoop.hbase.codec.KeyValueCodec":
	default:
		p.Failf(KeyRPCCodec, "only org.apache.hadoop.hbase.codec.KeyValueCodec, or empty for cells inside the protobuf messages, is supported; got %q", codec)
	}
	cfg.Client.User = p.String(KeyUser, "gobench")
	if hosts := p.String(KeyHosts, ""); hosts != "" {
		m, err := parseHosts(hosts)
		if err != nil {
			p.Failf(KeyHosts, "%v", err)
		} else {
			cfg.Client.Dial = hostDialer(m)
		}
	}
	if errs := p.Errs()[before:]; len(errs) > 0 {
		return cfg, fmt.Errorf("configure hbase: %w", errors.Join(errs...))
	}
	return cfg, nil
}

// parseHosts reads "name=address,..." into a map.
func parseHosts(s string) (map[string]string, error) {
	m := make(map[string]string)
	for _, e := range strings.Split(s, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		name, addr, ok := strings.Cut(e, "=")
		name, addr = strings.TrimSpace(name), strings.TrimSpace(addr)
		if !ok || name == "" || addr == "" {
			return nil, fmt.Errorf("entry %q: want name=address", e)
		}
		m[name] = addr
	}
	return m, nil
}

// hostDialer dials host:port with host replaced by its mapping, if any.
func hostDialer(m map[string]string) func(ctx context.Context, addr string) (net.Conn, error) {
	var d net.Dialer
	return func(ctx context.Context, addr string) (net.Conn, error) {
		if host, port, err := net.SplitHostPort(addr); err == nil {
			if to, ok := m[host]; ok {
				addr = net.JoinHostPort(to, port)
			}
		}
		return d.DialContext(ctx, "tcp", addr)
	}
}

// splitQuorum turns "a,b:2182" into host:port entries, adding port where missing.
func splitQuorum(q string, port int) []string {
	var out []string
	for _, h := range strings.Split(q, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if !strings.Contains(h, ":") || (strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]")) {
			h += ":" + strconv.Itoa(port)
		}
		out = append(out, h)
	}
	return out
}

// SplitKeys returns YCSB's recommended split points for n splits:
// "user" + (1000 + i*(9999-1000)/n) for i = 1..n (integer division).
func SplitKeys(n int) [][]byte {
	keys := make([][]byte, 0, n)
	for i := 1; i <= n; i++ {
		keys = append(keys, []byte("user"+strconv.Itoa(1000+i*(9999-1000)/n)))
	}
	return keys
}
