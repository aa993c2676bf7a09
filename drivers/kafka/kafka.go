package kafka

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
)

func init() { drivers.Register("kafka", Driver{}) }

// Property keys. The Java client property each one stands for is in the
// package doc's table.
const (
	KeyBrokers         = "kafka.brokers"
	KeyClientID        = "kafka.clientid"
	KeyAcks            = "kafka.acks"
	KeyIdempotence     = "kafka.idempotence"
	KeyInFlight        = "kafka.inflight"
	KeyRetries         = "kafka.retries"
	KeyDeliveryTimeout = "kafka.deliverytimeout"
	KeyCompression     = "kafka.compression"
	KeyGzipLevel       = "kafka.gziplevel"
	KeyLz4Level        = "kafka.lz4level"
	KeyZstdLevel       = "kafka.zstdlevel"
	KeyBatchSize       = "kafka.batchsize"
	KeyLinger          = "kafka.linger"
	KeyMaxMessageBytes = "kafka.maxmessagebytes"
	KeyTimeout         = "kafka.timeout"
	KeyRetryBackoff    = "kafka.retrybackoff"
	KeyRetryBackoffMax = "kafka.retrybackoffmax"
	KeyMetadataMaxAge  = "kafka.metadatamaxage"
	KeyConnIdle        = "kafka.connidle"
	KeyPartitions      = "kafka.partitions"
	KeyReplication     = "kafka.replication"
	KeyCreateTopic     = "kafka.createtopic"
	KeyReadClients     = "kafka.readclients"
	KeyReadLatest      = "kafka.readlatest"
	KeyReads           = "kafka.reads"

	KeyGroup              = "kafka.group"
	KeyGroupInstanceID    = "kafka.groupinstanceid"
	KeyGroupProtocol      = "kafka.groupprotocol"
	KeyAssignors          = "kafka.assignors"
	KeyOffsetReset        = "kafka.offsetreset"
	KeyFetchSize          = "kafka.fetchsize"
	KeyFetchMaxBytes      = "kafka.fetchmaxbytes"
	KeyFetchMinBytes      = "kafka.fetchminbytes"
	KeyFetchWait          = "kafka.fetchwait"
	KeyAutoCommit         = "kafka.autocommit"
	KeyAutoCommitInterval = "kafka.autocommitinterval"
	KeySessionTimeout     = "kafka.sessiontimeout"
	KeyHeartbeat          = "kafka.heartbeat"
	KeyRebalanceTimeout   = "kafka.rebalancetimeout"
	KeyIsolationLevel     = "kafka.isolationlevel"
	KeyRack               = "kafka.rack"
	KeyCheckCRCs          = "kafka.checkcrcs"
	KeyConsumerQueue      = "kafka.consumerqueue"
)

// Driver is the "kafka" driver. The zero value is ready to use.
type Driver struct{}

// Keys lists the kafka driver's properties.
func (Driver) Keys() []props.Key {
	return append([]props.Key{
		{Name: KeyBrokers, Default: "127.0.0.1:9092", Usage: "bootstrap brokers, comma-separated host:port (bootstrap.servers)", Show: true},
		{Name: KeyClientID, Default: "gobench", Usage: "client id sent to the brokers and shown in --print-metrics (client.id)"},
		{Name: KeyAcks, Default: "all", Usage: "acknowledgements a produce waits for: all (or -1), 1, 0 (acks)"},
		{Name: KeyIdempotence, Default: "true", Usage: "idempotent producer, as Java's default since Kafka 3.0; needs acks=all, and is turned off by acks 0 or 1 unless set (enable.idempotence)"},
		{Name: KeyInFlight, Default: "5", Usage: "produce requests in flight per broker; 5 with idempotence, 1-64 without (max.in.flight.requests.per.connection)"},
		{Name: KeyRetries, Default: "-1", Usage: "times a record is sent again after a retriable error, -1 = until kafka.deliverytimeout (retries)"},
		{Name: KeyDeliveryTimeout, Default: "120000", Usage: "ms from produce until a record counts as failed; retries go on until then (delivery.timeout.ms)"},
		{Name: KeyCompression, Default: "none", Usage: "producer compression: none, gzip, snappy, lz4, zstd (compression.type)"},
		{Name: KeyGzipLevel, Default: "-1", Usage: "gzip level 1-9, -1 = the codec's default (compression.gzip.level)"},
		{Name: KeyLz4Level, Default: "9", Usage: "lz4 level 1-17 (compression.lz4.level)"},
		{Name: KeyZstdLevel, Default: "3", Usage: "zstd level 1-22 (compression.zstd.level)"},
		{Name: KeyBatchSize, Default: "16KB", Usage: "bytes a partition's produce batch collects (batch.size); raised per topic to fit its first record, as Java sends a larger record alone"},
		{Name: KeyLinger, Default: "5", Usage: "ms a produce batch waits for more records (linger.ms)"},
		{Name: KeyMaxMessageBytes, Default: "16MB", Usage: "largest record batch: the producer's limit (max.request.size) and max.message.bytes of topics the driver creates"},
		{Name: KeyTimeout, Default: "30000", Usage: "ms a request may take before it is retried or fails (request.timeout.ms)"},
		{Name: KeyRetryBackoff, Default: "100", Usage: "ms before the first retry (retry.backoff.ms)"},
		{Name: KeyRetryBackoffMax, Default: "1000", Usage: "ms the exponential retry backoff grows to (retry.backoff.max.ms)"},
		{Name: KeyMetadataMaxAge, Default: "300000", Usage: "ms after which metadata is refreshed (metadata.max.age.ms)"},
		{Name: KeyConnIdle, Default: "540000", Usage: "ms after which an idle connection is closed (connections.max.idle.ms)"},
		{Name: KeyPartitions, Default: "1", Usage: "partitions of the topics the driver creates"},
		{Name: KeyReplication, Default: "1", Usage: "replication factor of the topics the driver creates"},
		{Name: KeyCreateTopic, Default: "true", Usage: "create a missing topic (named after the table) before the run"},
		{Name: KeyReadClients, Default: "4", Usage: "YCSB reads: client connections (per broker) the reads and scans are spread over"},
		{Name: KeyReads, Default: "state", Usage: "YCSB reads and scans: state (from the values the tail keeps in memory, as a Kafka Streams state store: memory holds the whole table) or log (fetch each record from the log at its indexed offset: one request per record)"},
		{Name: KeyReadLatest, Default: "true", Usage: "YCSB reads: wait until the index has every record below the partition's high watermark, so a read sees the newest value any client wrote"},

		{Name: KeyGroup, Default: "perf-consumer-<random>", Usage: "consumer group of the consume workload (group.id)"},
		{Name: KeyGroupInstanceID, Usage: "static group membership id (group.instance.id)"},
		{Name: KeyGroupProtocol, Default: "classic", Usage: "group protocol: classic or consumer (KIP-848) (group.protocol)"},
		{Name: KeyAssignors, Default: "range,cooperative-sticky", Usage: "partition assignors in order of preference: range, roundrobin, sticky, cooperative-sticky (partition.assignment.strategy)"},
		{Name: KeyOffsetReset, Default: "earliest", Usage: "where a new group starts reading: earliest or latest (auto.offset.reset; earliest as in Kafka's consumer perf tool)"},
		{Name: KeyFetchSize, Default: "1MB", Usage: "bytes fetched per partition and request by consumers (max.partition.fetch.bytes)"},
		{Name: KeyFetchMaxBytes, Default: "50MB", Usage: "bytes a consumer fetch request returns at most (fetch.max.bytes)"},
		{Name: KeyFetchMinBytes, Default: "1", Usage: "bytes a consumer fetch waits for (fetch.min.bytes)"},
		{Name: KeyFetchWait, Default: "500", Usage: "ms a consumer fetch waits for fetch.min.bytes (fetch.max.wait.ms)"},
		{Name: KeyAutoCommit, Default: "true", Usage: "commit consumed offsets periodically and at close (enable.auto.commit)"},
		{Name: KeyAutoCommitInterval, Default: "5000", Usage: "ms between offset commits (auto.commit.interval.ms)"},
		{Name: KeySessionTimeout, Default: "45000", Usage: "ms without heartbeat before the group drops a member (session.timeout.ms)"},
		{Name: KeyHeartbeat, Default: "3000", Usage: "ms between group heartbeats (heartbeat.interval.ms)"},
		{Name: KeyRebalanceTimeout, Default: "300000", Usage: "ms a member may take to rejoin in a rebalance (max.poll.interval.ms)"},
		{Name: KeyIsolationLevel, Default: "read_uncommitted", Usage: "read_uncommitted or read_committed (isolation.level)"},
		{Name: KeyRack, Usage: "rack of the client, for rack-aware fetching (client.rack)"},
		{Name: KeyCheckCRCs, Default: "true", Usage: "check the CRC of fetched batches (check.crcs)"},
		{Name: KeyConsumerQueue, Default: "500", Usage: "records one consumer poll returns at most (max.poll.records)"},
	}, securityKeys()...)
}

// Config is the kafka driver's decoded configuration. Start from
// [DefaultConfig].
type Config struct {
	Brokers  []string
	ClientID string

	Acks            int16 // -1 all, 1 leader, 0 none
	Idempotence     bool
	InFlight        int
	Retries         int // -1 = unlimited
	DeliveryTimeout time.Duration
	Compression     string // none, gzip, snappy, lz4, zstd
	GzipLevel       int
	Lz4Level        int
	ZstdLevel       int
	BatchSize       int64
	Linger          time.Duration
	MaxMessageBytes int64
	Timeout         time.Duration
	RetryBackoff    time.Duration
	RetryBackoffMax time.Duration
	MetadataMaxAge  time.Duration
	ConnIdle        time.Duration

	Partitions  int
	Replication int
	CreateTopic bool
	ReadClients int
	ReadLatest  bool
	StateReads  bool

	Group              string
	GroupInstanceID    string
	GroupProtocol      string
	Assignors          []string
	FromLatest         bool
	FetchSize          int64
	FetchMaxBytes      int64
	FetchMinBytes      int64
	FetchWait          time.Duration
	AutoCommit         bool
	AutoCommitInterval time.Duration
	SessionTimeout     time.Duration
	Heartbeat          time.Duration
	RebalanceTimeout   time.Duration
	ReadCommitted      bool
	Rack               string
	CheckCRCs          bool
	ConsumerQueue      int

	// Security: TLS and SASL (security.protocol, ssl.*, sasl.*).
	Security Security
}

// DefaultConfig returns the defaults listed by [Driver.Keys] (Java's
// client defaults, except kafka.maxmessagebytes), with a fresh random
// consumer group name as Kafka's consumer perf tool picks.
func DefaultConfig() Config {
	return Config{
		Brokers: []string{"127.0.0.1:9092"}, ClientID: "gobench",
		Acks: -1, Idempotence: true, InFlight: 5, Retries: -1, DeliveryTimeout: 120 * time.Second,
		Compression: "none", GzipLevel: -1, Lz4Level: 9, ZstdLevel: 3,
		BatchSize: 16 << 10, Linger: 5 * time.Millisecond, MaxMessageBytes: 16 << 20, Timeout: 30 * time.Second,
		RetryBackoff: 100 * time.Millisecond, RetryBackoffMax: time.Second,
		MetadataMaxAge: 5 * time.Minute, ConnIdle: 9 * time.Minute,
		Partitions: 1, Replication: 1, CreateTopic: true, ReadClients: 4, ReadLatest: true, StateReads: true,
		Group:         "perf-consumer-" + strconv.Itoa(rand.IntN(100000)),
		GroupProtocol: "classic", Assignors: []string{"range", "cooperative-sticky"},
		FetchSize: 1 << 20, FetchMaxBytes: 50 << 20, FetchMinBytes: 1, FetchWait: 500 * time.Millisecond,
		AutoCommit: true, AutoCommitInterval: 5 * time.Second, SessionTimeout: 45 * time.Second,
		Heartbeat: 3 * time.Second, RebalanceTimeout: 5 * time.Minute, CheckCRCs: true, ConsumerQueue: 500,
		Security: Security{Protocol: "PLAINTEXT"},
	}
}

// Configure decodes the kafka properties. It does no I/O: the clients
// connect at [DB.Prepare] or the first [DB.Open].
func (Driver) Configure(p *props.Decoder, s drivers.Schema) (drivers.DB, error) {
	cfg, err := Decode(p)
	if err != nil {
		return nil, err
	}
	return NewDB(cfg, s), nil
}

var assignorNames = []string{"range", "roundrobin", "sticky", "cooperative-sticky"}

// javaAssignors maps Java's assignor class names onto the short names.
var javaAssignors = map[string]string{
	"org.apache.kafka.clients.consumer.RangeAssignor":             "range",
	"org.apache.kafka.clients.consumer.RoundRobinAssignor":        "roundrobin",
	"org.apache.kafka.clients.consumer.StickyAssignor":            "sticky",
	"org.apache.kafka.clients.consumer.CooperativeStickyAssignor": "cooperative-sticky",
}

// Decode reads the kafka properties from p into a Config, reporting every
// problem at once.
func Decode(p *props.Decoder) (Config, error) {
	before := len(p.Errs())
	def := DefaultConfig()
	cfg := def
	cfg.Brokers = nil
	for _, b := range strings.Split(p.String(KeyBrokers, strings.Join(def.Brokers, ",")), ",") {
		if b = strings.TrimSpace(b); b != "" {
			cfg.Brokers = append(cfg.Brokers, b)
		}
	}
	if len(cfg.Brokers) == 0 {
		p.Failf(KeyBrokers, "want at least one host:port")
	}
	cfg.ClientID = p.String(KeyClientID, def.ClientID)
	switch p.Enum(KeyAcks, "all", "all", "-1", "1", "0") {
	case "1":
		cfg.Acks = 1
	case "0":
		cfg.Acks = 0
	}
	_, idemSet := p.Lookup(KeyIdempotence)
	cfg.Idempotence = p.Bool(KeyIdempotence, true)
	if cfg.Acks != -1 {
		if idemSet && cfg.Idempotence {
			p.Failf(KeyIdempotence, "idempotence needs %s=all (Java: ConfigException); set %s=false or %s=all", KeyAcks, KeyIdempotence, KeyAcks)
		}
		cfg.Idempotence = false // Java turns it off when acks is set and idempotence is not
	}
	cfg.InFlight = p.IntRange(KeyInFlight, def.InFlight, 1, 64)
	if cfg.Idempotence && cfg.InFlight != 5 {
		p.Failf(KeyInFlight, "with idempotence franz-go keeps exactly 5 requests in flight per broker (Java allows 1-5); set %s=false to choose another number", KeyIdempotence)
	}
	cfg.Retries = p.IntRange(KeyRetries, def.Retries, -1, 1<<31-1)
	if cfg.Retries == 1<<31-1 {
		cfg.Retries = -1 // Java's default, Integer.MAX_VALUE
	}
	cfg.DeliveryTimeout = p.Duration(KeyDeliveryTimeout, def.DeliveryTimeout, time.Millisecond)
	cfg.Compression = p.Enum(KeyCompression, "none", "none", "gzip", "snappy", "lz4", "zstd")
	cfg.GzipLevel = p.IntRange(KeyGzipLevel, def.GzipLevel, -1, 9)
	cfg.Lz4Level = p.IntRange(KeyLz4Level, def.Lz4Level, 1, 17)
	cfg.ZstdLevel = p.IntRange(KeyZstdLevel, def.ZstdLevel, 1, 22)
	cfg.BatchSize = p.Bytes(KeyBatchSize, def.BatchSize)
	cfg.Linger = p.Duration(KeyLinger, def.Linger, time.Millisecond)
	cfg.MaxMessageBytes = p.Bytes(KeyMaxMessageBytes, def.MaxMessageBytes)
	cfg.Timeout = p.Duration(KeyTimeout, def.Timeout, time.Millisecond)
	cfg.RetryBackoff = p.Duration(KeyRetryBackoff, def.RetryBackoff, time.Millisecond)
	cfg.RetryBackoffMax = p.Duration(KeyRetryBackoffMax, def.RetryBackoffMax, time.Millisecond)
	cfg.MetadataMaxAge = p.Duration(KeyMetadataMaxAge, def.MetadataMaxAge, time.Millisecond)
	cfg.ConnIdle = p.Duration(KeyConnIdle, def.ConnIdle, time.Millisecond)
	cfg.Partitions = p.IntRange(KeyPartitions, def.Partitions, 1, 100000)
	cfg.Replication = p.IntRange(KeyReplication, def.Replication, 1, 100)
	cfg.CreateTopic = p.Bool(KeyCreateTopic, def.CreateTopic)
	cfg.ReadClients = p.IntRange(KeyReadClients, def.ReadClients, 1, 256)
	cfg.ReadLatest = p.Bool(KeyReadLatest, def.ReadLatest)
	cfg.StateReads = p.Enum(KeyReads, "state", "state", "log") == "state"

	cfg.Group = p.String(KeyGroup, def.Group)
	cfg.GroupInstanceID = p.String(KeyGroupInstanceID, "")
	cfg.GroupProtocol = p.Enum(KeyGroupProtocol, "classic", "classic", "consumer")
	cfg.Assignors = nil
	for _, a := range strings.Split(p.String(KeyAssignors, strings.Join(def.Assignors, ",")), ",") {
		a = strings.TrimSpace(a)
		if j, ok := javaAssignors[a]; ok {
			a = j
		}
		switch {
		case a == "":
		case contains(assignorNames, a):
			cfg.Assignors = append(cfg.Assignors, a)
		default:
			p.Failf(KeyAssignors, "unknown assignor %q (allowed: %s, or Java's class names)", a, strings.Join(assignorNames, ", "))
		}
	}
	if len(cfg.Assignors) == 0 {
		p.Failf(KeyAssignors, "want at least one assignor (%s)", strings.Join(assignorNames, ", "))
	}
	cfg.FromLatest = p.Enum(KeyOffsetReset, "earliest", "earliest", "latest") == "latest"
	cfg.FetchSize = p.Bytes(KeyFetchSize, def.FetchSize)
	cfg.FetchMaxBytes = p.Bytes(KeyFetchMaxBytes, def.FetchMaxBytes)
	cfg.FetchMinBytes = p.Bytes(KeyFetchMinBytes, def.FetchMinBytes)
	cfg.FetchWait = p.Duration(KeyFetchWait, def.FetchWait, time.Millisecond)
	cfg.AutoCommit = p.Bool(KeyAutoCommit, def.AutoCommit)
	cfg.AutoCommitInterval = p.Duration(KeyAutoCommitInterval, def.AutoCommitInterval, time.Millisecond)
	cfg.SessionTimeout = p.Duration(KeySessionTimeout, def.SessionTimeout, time.Millisecond)
	cfg.Heartbeat = p.Duration(KeyHeartbeat, def.Heartbeat, time.Millisecond)
	cfg.RebalanceTimeout = p.Duration(KeyRebalanceTimeout, def.RebalanceTimeout, time.Millisecond)
	cfg.ReadCommitted = p.Enum(KeyIsolationLevel, "read_uncommitted", "read_uncommitted", "read_committed") == "read_committed"
	cfg.Rack = p.String(KeyRack, "")
	cfg.CheckCRCs = p.Bool(KeyCheckCRCs, def.CheckCRCs)
	cfg.ConsumerQueue = p.IntRange(KeyConsumerQueue, def.ConsumerQueue, 1, 1<<20)
	cfg.Security = decodeSecurity(p)

	positive := func(key string, d time.Duration) {
		if d <= 0 {
			p.Failf(key, "want a positive number of milliseconds")
		}
	}
	positive(KeyDeliveryTimeout, cfg.DeliveryTimeout)
	positive(KeyTimeout, cfg.Timeout)
	positive(KeyRetryBackoff, cfg.RetryBackoff)
	positive(KeyRetryBackoffMax, cfg.RetryBackoffMax)
	positive(KeyMetadataMaxAge, cfg.MetadataMaxAge)
	positive(KeyConnIdle, cfg.ConnIdle)
	positive(KeyFetchWait, cfg.FetchWait)
	positive(KeyAutoCommitInterval, cfg.AutoCommitInterval)
	positive(KeySessionTimeout, cfg.SessionTimeout)
	positive(KeyHeartbeat, cfg.Heartbeat)
	positive(KeyRebalanceTimeout, cfg.RebalanceTimeout)
	if cfg.Linger < 0 {
		p.Failf(KeyLinger, "want 0 or more milliseconds")
	}
	if cfg.BatchSize < 1 {
		p.Failf(KeyBatchSize, "want a size of at least 1 byte")
	}
	if cfg.MaxMessageBytes < 1<<10 || cfg.MaxMessageBytes > 1<<30 {
		p.Failf(KeyMaxMessageBytes, "want a size from 1KB to 1GB")
	}
	if cfg.DeliveryTimeout > 0 && cfg.DeliveryTimeout < cfg.Linger+cfg.Timeout {
		p.Failf(KeyDeliveryTimeout, "want at least %s + %s (%v), as Java requires", KeyLinger, KeyTimeout, cfg.Linger+cfg.Timeout)
	}
	if cfg.Group == "" {
		p.Failf(KeyGroup, "want a group name, not an empty value")
	}
	if cfg.FetchSize < 1 || cfg.FetchSize > 1<<30 {
		p.Failf(KeyFetchSize, "want a size from 1 byte to 1GB")
	}
	if cfg.FetchMaxBytes < 1 || cfg.FetchMaxBytes > 1<<30 {
		p.Failf(KeyFetchMaxBytes, "want a size from 1 byte to 1GB")
	}
	if cfg.FetchMinBytes < 0 || cfg.FetchMinBytes > 1<<30 {
		p.Failf(KeyFetchMinBytes, "want a size from 0 to 1GB")
	}
	if errs := p.Errs()[before:]; len(errs) > 0 {
		return cfg, fmt.Errorf("configure kafka: %w", errors.Join(errs...))
	}
	return cfg, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
