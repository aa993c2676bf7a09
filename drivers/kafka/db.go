package kafka

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/gobench/gobench/drivers"
)

// DB is the state every Conn shares: the producer client (also used for
// metadata and administration), the clients reads fetch through, and per
// topic its partitions, leaders and key index. It is safe for concurrent
// use.
type DB struct {
	cfg     Config
	fields  int
	table   string
	metrics *metrics

	mu      sync.Mutex
	prod    *kgo.Client // idempotent producer; metadata, admin, point fetches
	big     *kgo.Client // records larger than their topic's batch cap
	readers []*kgo.Client
	topics  map[string]*topic
	builds  []IndexBuild
	closed  bool
	nextRd  atomic.Uint32

	krbMu sync.Mutex
	krb   *krbclient.Client // GSSAPI: logged in once, shared by every client

	capMu sync.Mutex       // not mu: franz-go asks for caps while db.mu is held
	caps  map[string]int32 // per topic: batch cap fixed at its first record
	// batchRoom is the partition max bytes of all but the first partition
	// of a multi-partition fetch: the largest batch seen.
	batchRoom atomic.Int32
}

// IndexBuild describes the reading of one topic that builds the driver's
// key → offset index (see the package doc), before the measured phase when
// the run prepares the DB ([DB.Prepare]), else at the topic's first use.
type IndexBuild struct {
	Topic    string
	Records  int64         // records read
	Keys     int           // live keys found
	Took     time.Duration // wall time of the read
	Prepared bool          // built before the measured phase
}

// NewDB returns a DB for cfg and s; nothing connects until [DB.Prepare] or
// the first [DB.Open].
func NewDB(cfg Config, s drivers.Schema) *DB {
	db := &DB{cfg: cfg, fields: len(s.Fields), table: s.Table, metrics: newMetrics(),
		caps: map[string]int32{}, topics: map[string]*topic{}}
	db.batchRoom.Store(2 << 10)
	return db
}

// Config returns the DB's configuration.
func (db *DB) Config() Config { return db.cfg }

var _ drivers.Preparer = (*DB)(nil)

// Prepare implements [drivers.Preparer]; the runner calls it before the
// measured phase. For a YCSB run (a schema with fields) it creates the
// table's topic when it is missing and builds its key index by reading it
// (reported by [DB.Notes]), so that no operation's latency, and not the
// run's time, includes that read. Kafka perf runs (no fields) only connect.
func (db *DB) Prepare(ctx context.Context) error {
	cl, err := db.client()
	if err != nil {
		return err
	}
	if err := db.login(ctx, cl); err != nil {
		return err
	}
	if db.fields == 0 || db.table == "" {
		return nil
	}
	t, err := db.indexed(ctx, db.table, true)
	if err != nil {
		return err
	}
	// Connect every read client's fetch connection now, not in a worker's
	// first operation.
	for i := range db.cfg.ReadClients {
		want := [1]fetchWant{{part: 0, off: t.idx.covered(0)}}
		var got [1]fetchGot
		if err := db.fetch(ctx, t, i, want[:], got[:]); err != nil {
			return fmt.Errorf("connect read client %d: %w", i, err)
		}
	}
	return nil
}

// Open returns a new connection; the first one creates the producer client
// (franz-go connects lazily).
func (db *DB) Open(ctx context.Context) (drivers.Conn, error) {
	if _, err := db.client(); err != nil {
		return nil, err
	}
	return newConn(db), nil
}

// client returns the producer client, making it on first use.
func (db *DB) client() (*kgo.Client, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return nil, errors.New("kafka: use of a closed DB")
	}
	if db.prod == nil {
		cl, err := kgo.NewClient(db.producerOpts(db.batchCap, db.cfg.MaxMessageBytes)...)
		if err != nil {
			return nil, fmt.Errorf("kafka producer: %w", err)
		}
		db.prod = cl
	}
	return db.prod, nil
}

// bigClient returns the client for records larger than their topic's batch
// cap (batches up to kafka.maxmessagebytes), making it on first use.
func (db *DB) bigClient() (*kgo.Client, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return nil, errors.New("kafka: use of a closed DB")
	}
	if db.big == nil {
		limit := func(string) int32 { return int32(db.cfg.MaxMessageBytes) }
		cl, err := kgo.NewClient(db.producerOpts(limit, db.cfg.MaxMessageBytes)...)
		if err != nil {
			return nil, fmt.Errorf("kafka producer: %w", err)
		}
		db.big = cl
	}
	return db.big, nil
}

// reader returns a client for point fetches, spreading the conns over
// kafka.readclients clients (the broker serves one request per connection
// at a time). The first is the producer client, whose fetch connection is
// otherwise idle.
func (db *DB) reader(i int) (*kgo.Client, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return nil, errors.New("kafka: use of a closed DB")
	}
	if db.readers == nil {
		db.readers = make([]*kgo.Client, db.cfg.ReadClients)
		db.readers[0] = db.prod
	}
	i %= len(db.readers)
	if db.readers[i] == nil {
		cl, err := kgo.NewClient(db.commonOpts("-reader", &db.metrics.other)...)
		if err != nil {
			return nil, fmt.Errorf("kafka reader: %w", err)
		}
		db.readers[i] = cl
	}
	return db.readers[i], nil
}

// batchCap is the producer's batch limit for topic: kafka.batchsize,
// raised to fit the first record produced to the topic (Java sends a
// record larger than batch.size in a batch of its own), at most
// kafka.maxmessagebytes. franz-go asks once per partition, when it first
// produces to it.
func (db *DB) batchCap(topic string) int32 {
	db.capMu.Lock()
	defer db.capMu.Unlock()
	if c, ok := db.caps[topic]; ok {
		return c
	}
	return int32(max(db.cfg.BatchSize, 512))
}

// fixCap fixes topic's batch cap from the size of its first record and
// reports whether a record of size bytes fits it.
func (db *DB) fixCap(topic string, size int) bool {
	db.capMu.Lock()
	defer db.capMu.Unlock()
	c, ok := db.caps[topic]
	if !ok {
		c = int32(min(max(db.cfg.BatchSize, int64(size)+recordOverhead, 512), db.cfg.MaxMessageBytes))
		db.caps[topic] = c
	}
	return int64(size)+recordOverhead <= int64(c)
}

// recordOverhead bounds a record's framing inside a batch plus the batch
// header (61 bytes) and its request framing.
const recordOverhead = 512

// Close closes the tails, consumers and clients.
func (db *DB) Close() error {
	db.mu.Lock()
	if db.closed {
		db.mu.Unlock()
		return nil
	}
	db.closed = true
	topics := db.topics
	db.topics = map[string]*topic{}
	clients := append([]*kgo.Client{db.prod, db.big}, db.readers...)
	db.mu.Unlock()
	for _, t := range topics {
		t.close()
	}
	seen := map[*kgo.Client]bool{}
	for _, cl := range clients {
		if cl != nil && !seen[cl] {
			seen[cl] = true
			cl.Close()
		}
	}
	db.krbMu.Lock()
	if db.krb != nil {
		db.krb.Destroy()
		db.krb = nil
	}
	db.krbMu.Unlock()
	return nil
}

// IndexBuilds returns the topic reads done so far to build the index.
func (db *DB) IndexBuilds() []IndexBuild {
	db.mu.Lock()
	defer db.mu.Unlock()
	return append([]IndexBuild(nil), db.builds...)
}

// Notes reports each offset index built by reading a topic (drivers.Noter).
func (db *DB) Notes() []string {
	var n []string
	for _, b := range db.IndexBuilds() {
		where := "before the measured phase: not in any operation or the run time"
		if !b.Prepared {
			where = "at the topic's first use: inside that operation"
		}
		n = append(n, fmt.Sprintf("kafka: built the key index of topic %s by reading %d records (%d live keys) in %v, %s",
			b.Topic, b.Records, b.Keys, b.Took.Round(time.Millisecond), where))
	}
	return n
}

// indexed returns topic name with its index built and tailed.
func (db *DB) indexed(ctx context.Context, name string, prepared bool) (*topic, error) {
	t, err := db.topic(ctx, name)
	if err != nil {
		return nil, err
	}
	if t.ready.Load() {
		return t, nil
	}
	t.initMu.Lock()
	defer t.initMu.Unlock()
	if t.ready.Load() {
		return t, nil
	}
	b, err := db.buildIndex(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("index topic %q: %w", name, err)
	}
	b.Prepared = prepared
	db.mu.Lock()
	db.builds = append(db.builds, b)
	db.mu.Unlock()
	t.ready.Store(true)
	return t, nil
}

// topic returns the state of topic name with its metadata known, looking
// the topic up (and creating it) on first use. A failed first use is
// retried by the next call.
func (db *DB) topic(ctx context.Context, name string) (*topic, error) {
	db.mu.Lock()
	if db.closed {
		db.mu.Unlock()
		return nil, errors.New("kafka: use of a closed DB")
	}
	t := db.topics[name]
	if t == nil {
		t = &topic{name: name}
		db.topics[name] = t
	}
	db.mu.Unlock()
	if t.known.Load() {
		return t, nil
	}
	t.initMu.Lock()
	defer t.initMu.Unlock()
	if !t.known.Load() {
		if t.lookErr != nil && time.Now().Before(t.lookNext) {
			return nil, t.lookErr // a look-up just waited kafka.timeout in vain: do not wait again for every record
		}
		m, err := db.describe(ctx, name, db.cfg.CreateTopic)
		if err != nil {
			if ctx.Err() == nil && errors.Is(err, drivers.ErrUnavailable) {
				t.lookErr, t.lookNext = err, time.Now().Add(db.cfg.Timeout)
			}
			return nil, err
		}
		t.lookErr = nil
		t.setMeta(m)
		t.idx = newIndex(len(m.leaders), db.cfg.StateReads)
		t.known.Store(true)
	}
	return t, nil
}
