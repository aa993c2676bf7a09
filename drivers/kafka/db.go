package kafka

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"github.com/gobench/gobench/drivers"
)

// DB is the state every Conn shares: one kafka-go client (a pooled,
// concurrency-safe transport), the producers of the produce workload, and per
// topic its partition count and key index. It is safe for concurrent use.
type DB struct {
	cfg    Config
	fields int
	addr   net.Addr
	tr     *kafkago.Transport
	client *kafkago.Client

	mu     sync.Mutex
	topics map[string]*topic
	small  []*kafkago.Writer // batches of up to BatchSize bytes
	big    []*kafkago.Writer // records larger than BatchSize, one per request
	builds []IndexBuild
	closed bool
}

// IndexBuild describes the reading of one topic at its first use, which
// rebuilds the driver's key → offset index (see the package doc). It is
// not part of any operation's latency.
type IndexBuild struct {
	Topic   string
	Records int64         // records read
	Keys    int           // live keys found
	Took    time.Duration // wall time of the read
}

// NewDB returns a DB for cfg and s; nothing connects until the first
// operation needs the cluster.
func NewDB(cfg Config, s drivers.Schema) *DB {
	tr := &kafkago.Transport{DialTimeout: 5 * time.Second, IdleTimeout: 30 * time.Second, MetadataTTL: 10 * time.Second, ClientID: "gobench"}
	addr := kafkago.TCP(cfg.Brokers...)
	return &DB{
		cfg: cfg, fields: len(s.Fields), addr: addr, tr: tr,
		client: &kafkago.Client{Addr: addr, Timeout: cfg.Timeout, Transport: tr},
		topics: map[string]*topic{},
	}
}

// Config returns the DB's configuration.
func (db *DB) Config() Config { return db.cfg }

// Open returns a new connection. It does no I/O: each topic is looked up
// (and created, and indexed) at its first use.
func (db *DB) Open(ctx context.Context) (drivers.Conn, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return nil, errors.New("kafka: open on a closed DB")
	}
	return newConn(db), nil
}

// IndexBuilds returns the topic reads done so far to rebuild the index.
func (db *DB) IndexBuilds() []IndexBuild {
	db.mu.Lock()
	defer db.mu.Unlock()
	return append([]IndexBuild(nil), db.builds...)
}

// Close closes the producers and idle connections.
func (db *DB) Close() error {
	db.mu.Lock()
	db.closed = true
	small, big := db.small, db.big
	db.small, db.big = nil, nil
	db.mu.Unlock()
	var errs []error
	for _, w := range append(small, big...) {
		if w != nil {
			if err := w.Close(); err != nil {
				errs = append(errs, err)
			}
		}
	}
	db.tr.CloseIdleConnections()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close kafka producers: %w", err)
	}
	return nil
}

// CreateTable creates topic table with kafka.partitions partitions (splits
// are ignored: Kafka partitions by key hash) and max.message.bytes set to
// kafka.maxmessagebytes.
func (db *DB) CreateTable(ctx context.Context, table string, _ [][]byte, ifMissing bool) error {
	err := db.createTopic(ctx, table)
	if ifMissing && errors.Is(err, kafkago.TopicAlreadyExists) {
		return nil
	}
	return err
}

// DropTable deletes topic table and forgets its index.
func (db *DB) DropTable(ctx context.Context, table string) error {
	res, err := db.client.DeleteTopics(ctx, &kafkago.DeleteTopicsRequest{Topics: []string{table}})
	if err == nil {
		err = res.Errors[table]
	}
	db.mu.Lock()
	delete(db.topics, table)
	db.mu.Unlock()
	if err != nil {
		return fmt.Errorf("delete topic %q: %w", table, err)
	}
	return nil
}

func (db *DB) createTopic(ctx context.Context, name string) error {
	res, err := db.client.CreateTopics(ctx, &kafkago.CreateTopicsRequest{Topics: []kafkago.TopicConfig{{
		Topic: name, NumPartitions: db.cfg.Partitions, ReplicationFactor: db.cfg.Replication,
		ConfigEntries: []kafkago.ConfigEntry{{ConfigName: "max.message.bytes", ConfigValue: strconv.FormatInt(db.cfg.MaxMessageBytes, 10)}},
	}}})
	if err == nil {
		err = res.Errors[name]
	}
	if err != nil {
		return fmt.Errorf("create topic %q: %w", name, err)
	}
	return nil
}

// partitionsOf returns the partition count of topic name, creating the topic
// when it is missing and kafka.createtopic is set, and waiting until every
// partition has a leader.
func (db *DB) partitionsOf(ctx context.Context, name string) (int, error) {
	created := false
	deadline := time.Now().Add(db.cfg.Timeout)
	for {
		res, err := db.client.Metadata(ctx, &kafkago.MetadataRequest{Topics: []string{name}})
		if err != nil {
			return 0, fmt.Errorf("metadata of topic %q: %w", name, err)
		}
		var terr error = kafkago.UnknownTopicOrPartition
		if len(res.Topics) > 0 {
			t := res.Topics[0]
			terr = t.Error
			if terr == nil && len(t.Partitions) > 0 && leadersKnown(t.Partitions) {
				return len(t.Partitions), nil
			}
		}
		switch {
		case errors.Is(terr, kafkago.UnknownTopicOrPartition) && !created && db.cfg.CreateTopic:
			if err := db.createTopic(ctx, name); err != nil && !errors.Is(err, kafkago.TopicAlreadyExists) {
				return 0, err
			}
			created = true
		case errors.Is(terr, kafkago.UnknownTopicOrPartition) && !db.cfg.CreateTopic:
			return 0, fmt.Errorf("topic %q does not exist (%s=false): %w", name, KeyCreateTopic, drivers.ErrNotFound)
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("topic %q has no leader after %v: %w", name, db.cfg.Timeout, errors.Join(terr, drivers.ErrUnavailable))
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("metadata of topic %q: %w", name, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func leadersKnown(ps []kafkago.Partition) bool {
	for _, p := range ps {
		if p.Error != nil || p.Leader.Host == "" {
			return false
		}
	}
	return true
}

// meta returns the state of topic name with its partition count known,
// looking the topic up (and creating it) on first use. A failed first use is
// retried by the next call.
func (db *DB) meta(ctx context.Context, name string) (*topic, error) {
	db.mu.Lock()
	t := db.topics[name]
	if t == nil {
		t = &topic{name: name, locs: map[string]loc{}}
		db.topics[name] = t
	}
	db.mu.Unlock()
	if t.known.Load() {
		return t, nil
	}
	t.initMu.Lock()
	defer t.initMu.Unlock()
	if !t.known.Load() {
		n, err := db.partitionsOf(ctx, name)
		if err != nil {
			return nil, err
		}
		t.parts = n
		t.known.Store(true)
	}
	return t, nil
}

// topic returns the state of topic name with its key index built: at first
// use the driver reads the whole topic once (see [IndexBuild]).
func (db *DB) topic(ctx context.Context, name string) (*topic, error) {
	t, err := db.meta(ctx, name)
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
	start := time.Now()
	records, err := db.buildIndex(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("index topic %q: %w", name, err)
	}
	b := IndexBuild{Topic: name, Records: records, Keys: t.live(), Took: time.Since(start)}
	db.mu.Lock()
	db.builds = append(db.builds, b)
	db.mu.Unlock()
	t.ready.Store(true)
	return t, nil
}

// partition maps a key to a partition: FNV-1a modulo the partition count.
func partition(key []byte, n int) int {
	if n <= 1 {
		return 0
	}
	h := uint32(2166136261)
	for _, c := range key {
		h ^= uint32(c)
		h *= 16777619
	}
	return int(h % uint32(n))
}

// balancer is the producers' partitioner: FNV-1a of the key like the YCSB
// operations, round robin for records without a key.
type balancer struct{ rr kafkago.RoundRobin }

func (b *balancer) Balance(m kafkago.Message, parts ...int) int {
	if m.Key == nil {
		return b.rr.Balance(m, parts...)
	}
	return parts[partition(m.Key, len(parts))]
}

// Notes reports each offset index built by reading a topic, timed apart
// from the operations (drivers.Noter).
func (db *DB) Notes() []string {
	var n []string
	for _, b := range db.IndexBuilds() {
		n = append(n, fmt.Sprintf("kafka: built the offset index of topic %s by reading %d records (%d live keys) in %v; that time is inside the run",
			b.Topic, b.Records, b.Keys, b.Took.Round(time.Millisecond)))
	}
	return n
}
