package kafka

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
)

func init() { drivers.Register("kafka", Driver{}) }

// Property keys.
const (
	KeyBrokers         = "kafka.brokers"
	KeyAcks            = "kafka.acks"
	KeyCompression     = "kafka.compression"
	KeyBatchSize       = "kafka.batchsize"
	KeyLinger          = "kafka.linger"
	KeyPartitions      = "kafka.partitions"
	KeyReplication     = "kafka.replication"
	KeyCreateTopic     = "kafka.createtopic"
	KeyMaxMessageBytes = "kafka.maxmessagebytes"
	KeyTimeout         = "kafka.timeout"
	KeyGroup           = "kafka.group"
	KeyOffsetReset     = "kafka.offsetreset"
	KeyFetchSize       = "kafka.fetchsize"
	KeyFetchWait       = "kafka.fetchwait"
	KeyInFlight        = "kafka.inflight"
	KeyConsumerQueue   = "kafka.consumerqueue"
)

// Driver is the "kafka" driver. The zero value is ready to use.
type Driver struct{}

// Keys lists the kafka driver's properties.
func (Driver) Keys() []props.Key {
	return []props.Key{
		{Name: KeyBrokers, Default: "127.0.0.1:9092", Usage: "bootstrap brokers, comma-separated host:port (bootstrap.servers)", Show: true},
		{Name: KeyAcks, Default: "all", Usage: "acknowledgements a produce waits for: all (or -1), 1, 0 (acks)"},
		{Name: KeyCompression, Default: "none", Usage: "producer compression: none, gzip, snappy, lz4, zstd (compression.type)"},
		{Name: KeyBatchSize, Default: "16KB", Usage: "bytes a produce batch collects before it is sent (batch.size); a larger record is sent alone"},
		{Name: KeyLinger, Default: "5", Usage: "milliseconds a produce batch waits for more records (linger.ms)"},
		{Name: KeyInFlight, Default: "5", Usage: "produce batches in flight per partition (max.in.flight.requests.per.connection)"},
		{Name: KeyPartitions, Default: "1", Usage: "partitions of the topics the driver creates"},
		{Name: KeyReplication, Default: "1", Usage: "replication factor of the topics the driver creates"},
		{Name: KeyCreateTopic, Default: "true", Usage: "create a missing topic (named after the table) on first use"},
		{Name: KeyMaxMessageBytes, Default: "16MB", Usage: "largest record batch: max.message.bytes of created topics and the producer's limit (max.request.size)"},
		{Name: KeyTimeout, Default: "30000", Usage: "milliseconds a request may take before it fails (request.timeout.ms)"},
		{Name: KeyGroup, Default: "perf-consumer-<random>", Usage: "consumer group of the consume workload (group.id)"},
		{Name: KeyOffsetReset, Default: "earliest", Usage: "where a new group starts reading: earliest or latest (auto.offset.reset)"},
		{Name: KeyFetchSize, Default: "1MB", Usage: "bytes fetched per partition and request by consumers (max.partition.fetch.bytes)"},
		{Name: KeyConsumerQueue, Default: "1024", Usage: "records a consumer buffers ahead of the workload (franz-go MaxBufferedRecords; memory: up to this many records)"},
		{Name: KeyFetchWait, Default: "500", Usage: "milliseconds a consumer fetch waits for data (fetch.max.wait.ms)"},
	}
}

// Config is the kafka driver's decoded configuration. Start from
// [DefaultConfig].
type Config struct {
	Brokers         []string
	Acks            kafkago.RequiredAcks
	Compression     kafkago.Compression // 0 = none
	BatchSize       int64               // bytes
	Linger          time.Duration
	Partitions      int
	Replication     int
	CreateTopic     bool
	MaxMessageBytes int64 // bytes
	Timeout         time.Duration
	Group           string
	FromLatest      bool
	FetchSize       int64 // bytes
	FetchWait       time.Duration
	InFlight        int
	ConsumerQueue   int
}

// DefaultConfig returns the defaults listed by [Driver.Keys], with a fresh
// random consumer group name as Kafka's consumer perf tool picks.
func DefaultConfig() Config {
	return Config{
		Brokers: []string{"127.0.0.1:9092"}, Acks: kafkago.RequireAll, BatchSize: 16 << 10,
		Linger: 5 * time.Millisecond, Partitions: 1, Replication: 1, CreateTopic: true,
		MaxMessageBytes: 16 << 20, Timeout: 30 * time.Second,
		Group:     "perf-consumer-" + strconv.Itoa(rand.IntN(100000)),
		FetchSize: 1 << 20, FetchWait: 500 * time.Millisecond, InFlight: 5, ConsumerQueue: 1024,
	}
}

var compressions = map[string]kafkago.Compression{
	"none": 0, "gzip": kafkago.Gzip, "snappy": kafkago.Snappy, "lz4": kafkago.Lz4, "zstd": kafkago.Zstd,
}

// Configure decodes the kafka properties. It does no I/O: the client
// connects at the first [DB.Open].
func (Driver) Configure(p *props.Decoder, s drivers.Schema) (drivers.DB, error) {
	cfg, err := Decode(p)
	if err != nil {
		return nil, err
	}
	return NewDB(cfg, s), nil
}

// Decode reads the kafka properties from p into a Config, reporting every
// problem at once.
func Decode(p *props.Decoder) (Config, error) {
	before := len(p.Errs())
	def := DefaultConfig()
	cfg := def
	brokers := p.String(KeyBrokers, strings.Join(def.Brokers, ","))
	cfg.Brokers = nil
	for _, b := range strings.Split(brokers, ",") {
		if b = strings.TrimSpace(b); b != "" {
			cfg.Brokers = append(cfg.Brokers, b)
		}
	}
	if len(cfg.Brokers) == 0 {
		p.Failf(KeyBrokers, "want at least one host:port")
	}
	switch a := p.Enum(KeyAcks, "all", "all", "-1", "1", "0"); a {
	case "all", "-1":
		cfg.Acks = kafkago.RequireAll
	case "1":
		cfg.Acks = kafkago.RequireOne
	case "0":
		cfg.Acks = kafkago.RequireNone
	}
	cfg.Compression = compressions[p.Enum(KeyCompression, "none", "none", "gzip", "snappy", "lz4", "zstd")]
	cfg.BatchSize = p.Bytes(KeyBatchSize, def.BatchSize)
	cfg.Linger = p.Duration(KeyLinger, def.Linger, time.Millisecond)
	cfg.Partitions = p.IntRange(KeyPartitions, def.Partitions, 1, 100000)
	cfg.Replication = p.IntRange(KeyReplication, def.Replication, 1, 100)
	cfg.CreateTopic = p.Bool(KeyCreateTopic, def.CreateTopic)
	cfg.MaxMessageBytes = p.Bytes(KeyMaxMessageBytes, def.MaxMessageBytes)
	cfg.Timeout = p.Duration(KeyTimeout, def.Timeout, time.Millisecond)
	cfg.Group = p.String(KeyGroup, def.Group)
	cfg.FromLatest = p.Enum(KeyOffsetReset, "earliest", "earliest", "latest") == "latest"
	cfg.FetchSize = p.Bytes(KeyFetchSize, def.FetchSize)
	cfg.FetchWait = p.Duration(KeyFetchWait, def.FetchWait, time.Millisecond)
	cfg.InFlight = p.IntRange(KeyInFlight, def.InFlight, 1, 64)
	cfg.ConsumerQueue = p.IntRange(KeyConsumerQueue, def.ConsumerQueue, 1, 1<<20)
	if cfg.BatchSize < 1 {
		p.Failf(KeyBatchSize, "want a size of at least 1 byte")
	}
	if cfg.Linger < 0 {
		p.Failf(KeyLinger, "want 0 or more milliseconds")
	}
	if cfg.MaxMessageBytes < 1<<10 || cfg.MaxMessageBytes > 1<<30 {
		p.Failf(KeyMaxMessageBytes, "want a size from 1KB to 1GB")
	}
	if cfg.Timeout <= 0 {
		p.Failf(KeyTimeout, "want a positive number of milliseconds")
	}
	if cfg.Group == "" {
		p.Failf(KeyGroup, "want a group name, not an empty value")
	}
	if cfg.FetchSize < 1 {
		p.Failf(KeyFetchSize, "want a size of at least 1 byte")
	}
	if cfg.FetchWait <= 0 {
		p.Failf(KeyFetchWait, "want a positive number of milliseconds")
	}
	if errs := p.Errs()[before:]; len(errs) > 0 {
		return cfg, fmt.Errorf("configure kafka: %w", errors.Join(errs...))
	}
	return cfg, nil
}
